"""The browser-session side of accounts, shared by the HTML views and the JSON API.

``accounts.services`` works on plain values; here a request's session is logged in or out of
an account, its guest identity dropped (PF-61), and kept alive across a password change.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, login, update_session_auth_hash
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext as _

from . import services, throttling
from .backends import lockout_of
from .guests import end_guest
from .models import User
from .names import normalize_username
from .services import AccountError
from .sessions import session_fingerprint

BACKEND = "accounts.backends.ThrottledModelBackend"

#: a browser signed up on the sign-up page (``views.signup_view``), kwargs ``request`` and ``user``:
#: the apps above accounts add what a new player should read next (the economy: when the welcome
#: coins come), without accounts importing them
page_signed_up = Signal()


def sign_up(request: HttpRequest, *, username: str, password: str, language: str = "es") -> User:
    """Create an account from this request's address and log this session in to it."""
    user = services.create_account(
        ip=throttling.client_ip(request), username=username, password=password, language=language
    )
    end_guest(request)
    login(request, user, backend=BACKEND)
    return user


def log_in(request: HttpRequest, *, username: str, password: str) -> User:
    """Check credentials under the brute-force throttle (the auth backend, which the admin's
    log-in shares) and log this session in."""
    user = authenticate(request, username=normalize_username(username), password=password or "")
    if user is None:
        lockout = lockout_of(request)
        if lockout is not None:
            raise AccountError("throttled", services.lockout_message(lockout.retry_after_seconds), status=429)
        raise AccountError("bad_credentials", _("Usuario o contraseña incorrectos."), status=400)
    end_guest(request)
    login(request, user)
    return user  # type: ignore[return-value]


def change_password(request: HttpRequest, *, user: User, old_password: str, new_password: str) -> None:
    """Change the password; this session stays logged in, every other one ends."""
    services.change_password(
        user=user,
        old_password=old_password,
        new_password=new_password,
        keep_session=session_fingerprint(getattr(request, "session", None)),
    )
    update_session_auth_hash(request, user)


def set_language_cookie(response: HttpResponseBase, language: str) -> None:
    """The language cookie, as Django's own language switch sets it: every page and API answer
    that changes the language goes through here, so the cookie is ``Secure`` under HTTPS and
    ``HttpOnly`` wherever it is set (docs/decisions.md)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
