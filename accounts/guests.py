"""Guest identities kept in the session (PF-1, PF-61).

A guest has a display name and a random id; it lives only in the session, so a
guest who later signs up starts as an ordinary new account.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass

from django.http import HttpRequest

from .models import username_validator

SESSION_KEY = "tapete_guest"


@dataclass(frozen=True)
class Guest:
    id: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} (invitado)"


def current_guest(request: HttpRequest) -> Guest | None:
    """The session's guest identity; a signed-in user is never also a guest."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    data = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    return Guest(**data) if data else None


def start_guest(request: HttpRequest, *, name: str) -> Guest:
    """Give the visitor a guest identity under ``name`` (validated like a username)."""
    name = (name or "").strip()
    username_validator(name)  # also refuses an empty name
    guest = Guest(id=secrets.token_hex(8), name=name)
    request.session[SESSION_KEY] = asdict(guest)
    return guest


def end_guest(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)
