"""Guest identities kept in the session (PF-1, PF-61).

A guest has a display name and a random id; it lives only in the session, so a
guest who later signs up starts as an ordinary new account.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .names import name_key, normalize_username, validate_username
from .throttling import client_ip, reserve_guest

SESSION_KEY = "tapete_guest"
#: the ValidationError code of a guest refused by the per-address throttle (answered with 429)
TOO_MANY_GUESTS = "too_many_guests"


@dataclass(frozen=True)
class Guest:
    id: str
    name: str

    @property
    def label(self) -> str:
        return _("%(name)s (invitado)") % {"name": self.name}


def current_guest(request: HttpRequest) -> Guest | None:
    """The session's guest identity; a signed-in user is never also a guest."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    data = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    return Guest(**data) if data else None


def start_guest(request: HttpRequest, *, name: str) -> Guest:
    """Give the visitor a guest identity under ``name``.

    Cleaned and validated like a username (which refuses reserved words such as ``admin``),
    and never the name of an account, by ``name_key``: a guest cannot pass for a member.
    Guests are shown marked as such (``Guest.label``, the seat's «invitado» badge). At most
    ``GUESTS_MAX_PER_ADDRESS`` new guests per address and window (``too_many_guests``, issue 26:
    a guest is free, and each may host rooms).
    """
    from .models import User

    name = normalize_username(name)
    validate_username(name)  # also refuses an empty name
    if User.objects.filter(username_key=name_key(name)).exists():
        raise ValidationError(
            _("Ese nombre es de una cuenta registrada; elige otro."), code="name_of_an_account"
        )
    lockout = reserve_guest(ip=client_ip(request))
    if lockout is not None:
        raise ValidationError(guest_lockout_message(lockout.minutes), code=TOO_MANY_GUESTS)
    guest = Guest(id=secrets.token_hex(8), name=name)
    request.session[SESSION_KEY] = asdict(guest)
    return guest


def guest_lockout_message(minutes: int) -> str:
    return ngettext(
        "Se han creado demasiados invitados desde tu conexión. Vuelve a intentarlo en %(n)d minuto.",
        "Se han creado demasiados invitados desde tu conexión. Vuelve a intentarlo en %(n)d minutos.",
        minutes,
    ) % {"n": minutes}


def end_guest(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)
