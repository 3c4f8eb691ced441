"""Who is acting: one player identity for pages, the API, sockets and services (PF-61).

A ``Player`` is a signed-in user or a session guest. Pages and DRF views get it with
``player_from_request``, consumers with ``player_from_scope``; services take the ``Player``
itself, never an ``HttpRequest`` or a scope.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .guests import SESSION_KEY

PlayerKind = Literal["user", "guest"]


@dataclass(frozen=True)
class Player:
    kind: PlayerKind
    id: str  # the user's primary key as text, or the guest's random id
    name: str

    @property
    def is_user(self) -> bool:
        return self.kind == "user"

    @property
    def user_id(self) -> int | None:
        return int(self.id) if self.kind == "user" else None

    @property
    def key(self) -> str:
        """A stable text key ("user:12", "guest:ab12…") for groups, seats and logs."""
        return f"{self.kind}:{self.id}"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "name": self.name}


def player_for_user(user: Any) -> Player:
    return Player(kind="user", id=str(user.pk), name=user.username)


def _player(user: Any, session: Mapping[str, Any] | None) -> Player | None:
    if user is not None and getattr(user, "is_authenticated", False):
        return player_for_user(user)
    guest = session.get(SESSION_KEY) if session is not None else None
    if isinstance(guest, dict) and guest.get("id") and guest.get("name"):
        return Player(kind="guest", id=str(guest["id"]), name=str(guest["name"]))
    return None


def player_from_request(request: Any) -> Player | None:
    """The request's player: the signed-in user, else the session's guest, else None."""
    return _player(getattr(request, "user", None), getattr(request, "session", None))


def player_from_scope(scope: Mapping[str, Any]) -> Player | None:
    """The websocket's player, found at its handshake (``accounts.socket_identity``)."""
    player = scope.get("player")
    return player if isinstance(player, Player) else None
