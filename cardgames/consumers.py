"""Websocket consumers: thin — authenticate, parse, answer; game logic lives in services."""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.guests import SESSION_KEY

LOBBY_GROUP = "lobby"
MAX_FRAME_BYTES = 4096


def identity(scope: dict[str, Any]) -> dict[str, Any] | None:
    """Who is on the socket: a signed-in user, a session guest, or nobody."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return {"kind": "user", "id": user.pk, "name": user.username}
    session = scope.get("session")
    guest = session.get(SESSION_KEY) if session is not None else None
    if guest:
        return {"kind": "guest", "id": guest["id"], "name": guest["name"]}
    return None


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """The lobby socket: says who you are and answers pings; refuses anonymous visitors."""

    async def connect(self) -> None:
        self.identity = identity(self.scope)
        await self.accept()
        if self.identity is None:
            # Accept first so the browser gets a reason, not a bare failed handshake (1006).
            await self.send_error("not_authenticated", "Log in or pick a guest name first.")
            await self.close(code=4401)
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.send_json({"type": "hello", "you": self.identity})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Parse here rather than in receive_json so bad frames get an error, not a crash.
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self.send_error("bad_frame", "Send JSON text frames of at most 4 KB.")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_json", "That frame is not JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message", "A message is an object with a 'type'.")
            return
        if message["type"] == "ping":
            await self.send_json({"type": "pong", "echo": message.get("echo")})
        else:
            await self.send_error("unknown_type", f"Unknown message type {message['type'][:40]!r}.")

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
