"""Account operations shared by the HTML views and the JSON API."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, update_session_auth_hash
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import throttling
from .guests import end_guest
from .models import User, username_validator


class AccountError(Exception):
    """A refused account operation; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def validate_new_username(username: str) -> str:
    username = (username or "").strip()
    try:
        username_validator(username)
    except ValidationError as err:
        raise AccountError("invalid_username", str(err.messages[0])) from err
    if User.objects.filter(username__iexact=username).exists():
        raise AccountError("username_taken", _("Ese nombre de usuario ya existe."))
    return username


def signup(*, request: HttpRequest, username: str, password: str, language: str = "es") -> User:
    """Create an account and log it in. A guest identity in the session is dropped (PF-61)."""
    username = validate_new_username(username)
    candidate = User(username=username)
    try:
        validate_password(password or "", candidate)
    except ValidationError as err:
        raise AccountError("weak_password", " ".join(err.messages)) from err
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                username=username, password=password, language=language if language in {"es", "en"} else "es"
            )
    except IntegrityError as err:  # a concurrent sign-up took the name between check and insert
        raise AccountError("username_taken", _("Ese nombre de usuario ya existe.")) from err
    end_guest(request)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def lockout_message(minutes: int) -> str:
    return ngettext(
        "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d minuto.",
        "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d minutos.",
        minutes,
    ) % {"n": minutes}


def log_in(*, request: HttpRequest, username: str, password: str) -> User:
    """Check credentials under the brute-force throttle and log the user in."""
    username = (username or "").strip()
    ip = throttling.client_ip(request)
    lockout = throttling.check_lockout(username=username, ip=ip)
    if lockout:
        raise AccountError("throttled", lockout_message(lockout.minutes), status=429)
    user = authenticate(request, username=username, password=password or "")
    if user is None:
        throttling.record_failure(username=username, ip=ip)
        raise AccountError("bad_credentials", _("Usuario o contraseña incorrectos."), status=400)
    throttling.clear_failures(username=username)
    end_guest(request)
    login(request, user)
    return user  # type: ignore[return-value]


def change_password(*, request: HttpRequest, user: User, old_password: str, new_password: str) -> None:
    if not user.check_password(old_password or ""):
        raise AccountError("bad_credentials", _("La contraseña actual no es correcta."))
    try:
        validate_password(new_password or "", user)
    except ValidationError as err:
        raise AccountError("weak_password", " ".join(err.messages)) from err
    user.set_password(new_password)
    user.save(update_fields=["password"])
    update_session_auth_hash(request, user)


def set_language(*, user: User, language: str) -> None:
    if language not in {"es", "en"}:
        raise AccountError("bad_language", _("Idioma no disponible."))
    user.language = language
    user.save(update_fields=["language"])
