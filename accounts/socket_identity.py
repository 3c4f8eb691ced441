"""A websocket's player, found once at its handshake (PF-61), and nothing else of the session kept.

Channels' ``AuthMiddlewareStack`` keeps for a socket's whole life a session store with its data,
a lazy user with its model instance and the parsed cookies, in three copies of the scope — a few
kB a socket, four sockets a table. A socket needs only who plays and which session it belongs to
(it closes when that session ends, ``accounts.sessions``). ``IdentityMiddleware`` finds both the
way a page does — ``django.contrib.auth.get_user`` (the session's user, its auth hash checked
against the password) and else the session's guest — and puts only ``scope["player"]`` (a
``Player`` or None) and ``scope["session_fingerprint"]`` in the scope.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib import auth
from django.http.cookie import parse_cookie

from .identity import Player, player_from_request
from .sessions import session_fingerprint


class _SessionOnly:
    """What ``auth.get_user`` and ``player_from_request`` read of a request: its session."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.user = auth.get_user(self)


def identify(session_key: str | None) -> tuple[Player | None, str]:
    """The player of the session ``session_key`` names (None: nobody) and its fingerprint."""
    if not session_key:
        return None, ""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    request = _SessionOnly(store(session_key))
    return player_from_request(request), session_fingerprint(request.session)


def _session_key(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == b"cookie":
            return parse_cookie(value.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
    return None


class IdentityMiddleware:
    """ASGI middleware for websockets: ``scope["player"]`` and ``scope["session_fingerprint"]``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        player, fingerprint = await database_sync_to_async(identify)(_session_key(scope))
        return await self.inner(
            {**scope, "player": player, "session_fingerprint": fingerprint}, receive, send
        )
