"""The lobby socket: thin — who you are, your live invitations, pings; game logic lives in services.

Each signed-in player's lobby sockets join the per-user group ``user.<id>``
(``cardgames.tables.broadcast.to_user``), so an invitation reaches every tab they have open.
The table socket is ``cardgames.tables.consumers.TableConsumer``.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.identity import player_from_scope
from accounts.sessions import should_close
from cardgames.tables import protocol, runner
from cardgames.tables.broadcast import user_group
from cardgames.tables.selectors import pending_invitation_dicts

log = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"
MAX_FRAME_BYTES = protocol.MAX_FRAME_BYTES


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """The lobby socket: says who you are, delivers invitations live; refuses anonymous visitors."""

    async def connect(self) -> None:
        self.player = player_from_scope(self.scope)
        self.groups_joined: list[str] = []
        self.limiter = protocol.RateLimiter()
        await self.accept()
        if self.player is None:
            # Accept first so the browser gets a reason, not a bare failed handshake (1006).
            await self.send_error("not_authenticated", "Log in or pick a guest name first.")
            await self.close(code=4401)
            return
        runner.ensure_started()
        self.groups_joined = [LOBBY_GROUP]
        if self.player.user_id is not None:
            self.groups_joined.append(user_group(self.player.user_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        invitations: list[dict[str, Any]] = []
        if self.player.user_id is not None:
            invitations = await database_sync_to_async(pending_invitation_dicts)(user_id=self.player.user_id)
        # server_time: the page times each invitation's expiry on the server's clock
        await self.send_json(
            {
                "type": "hello",
                "you": self.player.as_dict(),
                "invitations": invitations,
                "server_time": int(time.time() * 1000),
            }
        )

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # the table socket's per-socket limit (issue 26: a ping burst on hundreds of lobby sockets
        # slowed every page); the socket stays open
        if not self.limiter.allow(time.monotonic()):
            await self.send_error("rate_limited", "Too many frames: slow down.")
            return
        try:
            await self.handle(text_data)
        except Exception:  # never close with 1011 on a client's frame (issue 13 item 10)
            log.exception("lobby: frame failed")
            await self.send_error("server_error", "Something went wrong.")

    async def handle(self, text_data: str | None) -> None:
        # Parse here rather than in receive_json so bad frames get an error, not a crash.
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self.send_error("bad_frame", "Send JSON text frames of at most 4 KB.")
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_error("bad_json", "That frame is not JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message", "A message is an object with a 'type'.")
            return
        if message["type"] == "ping":
            await self.send_json({"type": "pong", "echo": message.get("echo")})
        else:
            await self.send_error("unknown_type", f"Unknown message type {message['type'][:40]!r}.")

    async def user_event(self, event: dict[str, Any]) -> None:
        """A message for this player (an invitation, an answer to one) from ``broadcast.to_user``."""
        await self.send_json(event["payload"])

    async def user_logout(self, event: dict[str, Any]) -> None:
        """Log-out or a password change ended this socket's session (``accounts.sessions``)."""
        if should_close(event, self.scope.get("session_fingerprint", "")):
            await self.close(code=4401)

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
