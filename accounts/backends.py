"""The one authentication backend: Django's model backend behind the log-in throttle (issue 13).

Every ``authenticate()`` that carries a request goes through ``accounts.throttling`` — our
log-in page and API, the admin's log-in, anything else built on Django's auth — so no
door is left unthrottled. A refused attempt raises ``PermissionDenied`` (``authenticate``
then returns None without asking further backends) and leaves the wait on
``request.login_lockout`` for the caller's message.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from . import throttling


class ThrottledModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        ip = throttling.client_ip(request)
        lockout = throttling.check_lockout(username=username, ip=ip)
        if lockout is not None:
            request.login_lockout = lockout  # type: ignore[attr-defined]
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            throttling.record_failure(username=username, ip=ip)
        else:
            throttling.clear_failures(username=username, ip=ip)
        return user


def lockout_of(request: HttpRequest) -> throttling.Lockout | None:
    """The wait that refused this request's last log-in attempt, if one did."""
    return getattr(request, "login_lockout", None)
