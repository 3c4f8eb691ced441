"""The engine contract shared by the five games (see docs/engines.md).

Engines are pure Python: no Django, no I/O, no clock, no global random state.
A state is whatever the engine likes internally, as long as ``dump`` turns it
into JSON data and ``load`` turns that back into an equal state. ``apply``
never mutates the state it is given. Every dump carries ``"format": DUMP_FORMAT``;
``load`` also reads the older formats (a dump without the key is format 0).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Final

JSON = dict[str, Any]


class ReadOnlyAction(dict):  # type: ignore[type-arg]
    """A wire action an engine builds once and hands to every caller of ``legal_actions``.

    It is a ``dict`` (equal to, and serialized like, the plain one a client sends) that
    refuses changes, so sharing one object is safe: to alter an action, change a copy
    (``dict(action)``). Copies and pickles of it are plain dicts.
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a legal action is read-only: change a copy, dict(action)")

    __setitem__ = __delitem__ = __ior__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, (dict(self),)


class IllegalAction(ValueError):
    """An action the rules do not allow right now, or a malformed one.

    ``code`` is a stable machine-readable reason (``not_your_turn``,
    ``illegal_card``, ``bad_action``, ...); ``message`` is for people.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def as_dict(self) -> JSON:
        return {"code": self.code, "message": self.message}


def rng_for(seed: int | str, counter: int) -> random.Random:
    """A private random generator for the ``counter``-th random event of a game.

    Engines keep ``seed`` and a counter in their state instead of a generator,
    so states stay small, JSON-serializable and exactly reproducible.
    """
    return random.Random(f"{seed}:{counter}")


#: the version of the JSON every ``Engine.dump`` writes, under the key ``"format"``; a dump without
#: the key is format 0 (what the engines wrote before the key existed)
DUMP_FORMAT: Final[int] = 1


class Engine:
    """Base class of the five engines; the public methods are the contract."""

    # Engines are stateless singletons: no instance dict, so a caller that looks a method up
    # without the interpreter's cache (a loop run once, e.g. a playout) skips a dict probe.
    # A subclass without ``__slots__`` gets a dict again.
    __slots__ = ()

    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: every card code this game can contain (for validation and leak checks)
    card_codes: ClassVar[frozenset[str]] = frozenset()

    # -- the contract -----------------------------------------------------
    def new_game(self, num_players: int, seed: int | str = 0, options: JSON | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[JSON]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: JSON) -> tuple[Any, list[JSON]]:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> JSON:
        raise NotImplementedError

    def timers(self, state: Any) -> list[JSON]:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def result(self, state: Any) -> JSON:
        raise NotImplementedError

    def dump(self, state: Any) -> JSON:
        raise NotImplementedError

    def load(self, data: JSON) -> Any:
        raise NotImplementedError

    # -- dump format (helpers for ``dump`` and ``load``) --------------------
    def with_format(self, data: JSON) -> JSON:
        """``data`` (a fresh dump) stamped with the current ``"format"``, DUMP_FORMAT."""
        data["format"] = DUMP_FORMAT
        return data

    def dump_format(self, data: Any) -> int:
        """The format of a dump handed to ``load``: 0 without the key, else its ``"format"``.

        Raises ValueError for anything that is not a dump, or a format this code cannot read
        (one written by a newer version of the engine).
        """
        if not isinstance(data, dict):
            raise ValueError(f"a {self.name} dump is a JSON object, not {type(data).__name__}")
        fmt = data.get("format", 0)
        if isinstance(fmt, bool) or not isinstance(fmt, int) or not 0 <= fmt <= DUMP_FORMAT:
            raise ValueError(
                f"{self.name} dump format {fmt!r} is unknown: this engine reads formats 0 to {DUMP_FORMAT}"
            )
        return fmt

    # -- test hooks used by the conformance harness ------------------------
    def all_cards(self, state: Any) -> Counter[str]:
        """Every card in the game, wherever it lies (conservation check)."""
        raise NotImplementedError

    def visible_cards(self, state: Any, seat: int | None) -> Counter[str]:
        """The cards the rules let ``seat`` (None: a spectator) see right now.

        The leak check requires that the card codes found anywhere in
        ``view(state, seat)`` form a sub-multiset of this.
        """
        raise NotImplementedError


# -- helpers shared by engines ----------------------------------------------
def check_seat(state_players: int, seat: Any) -> int:
    """Validate a seat number coming from outside."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state_players:
        raise IllegalAction("bad_seat", f"Seat {seat!r} is not at this table.")
    return seat


def action_type(action: Any) -> str:
    """The ``type`` of a wire action, or IllegalAction if it is not an action."""
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str):
        raise IllegalAction("bad_action", "An action is an object with a 'type'.")
    return kind


def placements_from_scores(keys: list[Any]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) from sortable keys, lower is better."""
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]
