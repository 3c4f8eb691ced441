"""The services' boundary (issue 13 item 16): arguments checked before any service runs.

The live tables call the economy with ids from the wire, so "bad input raises ``EconomyError``
and changes nothing" must hold for every argument, not only the ones a form already cleaned.
``checked(user=a_user, pot=a_pot, …)`` wraps a keyword-only service: each named argument goes
through its checker, which raises ``EconomyError`` with a stable code or returns the value.
Users and pots are looked up here, because a missing row would otherwise surface as an
``IntegrityError`` only at COMMIT (the foreign keys are deferred) or a ``DoesNotExist``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth import get_user_model

from ..errors import EconomyError
from ..models import Pot

P = ParamSpec("P")
R = TypeVar("R")
Checker = Callable[[Any], Any]


def checked(**checkers: Checker) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Run ``checkers[name]`` on the keyword argument ``name`` of every call, before the service."""

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(service)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            for name, check in checkers.items():
                if name in kwargs:
                    kwargs[name] = check(kwargs[name])
            return service(*args, **kwargs)

        return wrapper

    return decorate


def _an_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _user_pk(value: Any) -> int:
    """The primary key of a saved user object (a ``User`` or a ``UserRef``)."""
    if value is None or isinstance(value, (int, str, bytes, bool)) or not hasattr(value, "pk"):
        raise EconomyError("invalid_user")
    if value.pk is None:
        raise EconomyError("unknown_user")  # an unsaved user
    if not _an_id(value.pk):
        raise EconomyError("invalid_user")
    return int(value.pk)


def a_user(value: Any) -> Any:
    """A saved user that exists in the database (``invalid_user`` / ``unknown_user``)."""
    if not get_user_model().objects.filter(pk=_user_pk(value)).exists():
        raise EconomyError("unknown_user")
    return value


def some_users(value: Any) -> Any:
    """A list or tuple of saved, existing users (``invalid_user`` / ``unknown_user``)."""
    if not isinstance(value, (list, tuple)):
        raise EconomyError("invalid_user")
    pks = {_user_pk(user) for user in value}
    if get_user_model().objects.filter(pk__in=pks).count() != len(pks):
        raise EconomyError("unknown_user")
    return value


def a_staff_user(value: Any) -> Any:
    """A saved user who is staff in the database, not only on the object (``not_staff``)."""
    try:
        pk = _user_pk(value)
    except EconomyError:
        raise EconomyError("not_staff") from None
    if not get_user_model().objects.filter(pk=pk, is_staff=True).exists():
        raise EconomyError("not_staff")
    return value


def a_pot(value: Any) -> Any:
    """A saved ``Pot`` or a pot id (no bool, no string) that exists: ``invalid_pot``, ``unknown_pot``."""
    if isinstance(value, Pot):
        pk = value.pk
        if pk is None:
            raise EconomyError("unknown_pot")
    elif _an_id(value):
        pk = value
    else:
        raise EconomyError("invalid_pot")
    if not Pot.objects.filter(pk=pk).exists():
        raise EconomyError("unknown_pot")
    return value


def text(code: str, max_length: int, *, optional: bool = False) -> Checker:
    """A string of at most ``max_length`` characters with no NUL (PostgreSQL refuses NUL bytes);
    blank only if ``optional`` (then ``None`` too)."""

    def check(value: Any) -> Any:
        if optional and value in (None, ""):
            return value
        if not isinstance(value, str) or not value.strip() or len(value) > max_length or "\x00" in value:
            raise EconomyError(code)
        return value

    return check


def a_time(value: Any) -> Any:
    """``None`` (now) or an aware ``datetime`` (``invalid_time``)."""
    if value is not None and (not isinstance(value, datetime) or value.tzinfo is None):
        raise EconomyError("invalid_time")
    return value


def result_pairs(value: Any) -> Any:
    """A list or tuple of (user id, place) pairs of plain ints (``invalid_results``)."""
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in value
    ):
        raise EconomyError("invalid_results")
    return value


def seat_results(value: Sequence[Any]) -> Any:
    """A list or tuple of ``SeatResult`` whose user ids are ints of existing users or ``None``
    (``invalid_results``)."""
    from .rewards import SeatResult  # rewards imports this module

    if not isinstance(value, (list, tuple)) or not all(isinstance(seat, SeatResult) for seat in value):
        raise EconomyError("invalid_results")
    ids = [seat.user_id for seat in value if seat.user_id is not None]
    if not all(_an_id(uid) for uid in ids) or not all(
        isinstance(seat.place, int) and isinstance(seat.simulated, bool) and isinstance(seat.played, bool)
        for seat in value
    ):
        raise EconomyError("invalid_results")
    if get_user_model().objects.filter(pk__in=set(ids)).count() != len(set(ids)):
        raise EconomyError("invalid_results")  # the code this case had before the boundary
    return value
