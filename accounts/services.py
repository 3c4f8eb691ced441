"""Account operations shared by the HTML views and the JSON API, on plain values.

What a browser session adds (logging in, the guest identity it drops, which session stays on a
password change) is ``accounts.web``'s.
"""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import throttling
from .models import User
from .names import name_key, normalize_username, validate_username
from .sessions import end_other_sessions


class AccountError(Exception):
    """A refused account operation; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def validate_new_username(username: str) -> str:
    """The name as it will be stored (NFKC), or ``AccountError`` (its shape, or taken by key)."""
    username = normalize_username(username)
    try:
        validate_username(username)
    except ValidationError as err:
        raise AccountError("invalid_username", str(err.messages[0])) from err
    if User.objects.filter(username_key=name_key(username)).exists():
        raise AccountError("username_taken", _("Ese nombre de usuario ya existe."))
    return username


def create_account(*, ip: str, username: str, password: str, language: str = "es") -> User:
    """A new account (not logged in: ``accounts.web.sign_up`` does that for a browser).

    At most ``SIGNUP_MAX_PER_ADDRESS`` accounts per address ``ip`` and window (429 beyond); the
    welcome coins wait for the account's first finished game (``cardgames.welcome``).
    """
    lockout = throttling.reserve_signup(ip=ip)
    if lockout is not None:
        raise AccountError("throttled", signup_lockout_message(lockout.retry_after_seconds), status=429)
    try:
        return _create_account(username=username, password=password, language=language)
    except AccountError:
        throttling.release_signup(ip=ip)
        raise


def _create_account(*, username: str, password: str, language: str) -> User:
    username = validate_new_username(username)
    candidate = User(username=username)
    try:
        validate_password(password or "", candidate)
    except ValidationError as err:
        raise AccountError("weak_password", " ".join(err.messages)) from err
    try:
        with transaction.atomic():
            return User.objects.create_user(
                username=username,
                password=password,
                language=language if language in {"es", "en"} else "es",
                welcome_pending=True,
            )
    except IntegrityError as err:  # a concurrent sign-up took the name between check and insert
        raise AccountError("username_taken", _("Ese nombre de usuario ya existe.")) from err


def lockout_message(seconds: int) -> str:
    """'Too many failed attempts, try again in …' in seconds under a minute, else in minutes."""
    if seconds < 60:
        return ngettext(
            "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d segundo.",
            "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d segundos.",
            seconds,
        ) % {"n": seconds}
    minutes = -(-seconds // 60)
    return ngettext(
        "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d minuto.",
        "Demasiados intentos fallidos. Vuelve a intentarlo en %(n)d minutos.",
        minutes,
    ) % {"n": minutes}


def signup_lockout_message(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    return ngettext(
        "Se han creado demasiadas cuentas desde tu conexión. Vuelve a intentarlo en %(n)d minuto.",
        "Se han creado demasiadas cuentas desde tu conexión. Vuelve a intentarlo en %(n)d minutos.",
        minutes,
    ) % {"n": minutes}


def change_password(*, user: User, old_password: str, new_password: str, keep_session: str = "") -> None:
    """Check the current password (throttled per account), set the new one.

    Every session of the user but ``keep_session`` (a ``sessions.session_fingerprint``) ends:
    Django's session hash refuses them on their next request, and their open sockets are
    closed now (``accounts.sessions``). ``accounts.web.change_password`` keeps the browser's own.
    """
    lockout = throttling.password_check_lockout(user_id=user.pk)
    if lockout is not None:
        raise AccountError("throttled", lockout_message(lockout.retry_after_seconds), status=429)
    if not user.check_password(old_password or ""):
        throttling.password_check_failed(user_id=user.pk)
        raise AccountError("bad_credentials", _("La contraseña actual no es correcta."))
    throttling.password_check_passed(user_id=user.pk)
    try:
        validate_password(new_password or "", user)
    except ValidationError as err:
        raise AccountError("weak_password", " ".join(err.messages)) from err
    user.set_password(new_password)
    user.save(update_fields=["password"])
    end_other_sessions(user_id=user.pk, keep=keep_session)


def set_language(*, user: User, language: str) -> None:
    if language not in {"es", "en"}:
        raise AccountError("bad_language", _("Idioma no disponible."))
    user.language = language
    user.save(update_fields=["language"])
