"""The table socket (docs/protocol.md): thin — who is it, parse, call one service, answer.

Every frame that reaches ``receive`` gets an answer: an ack, a snapshot, a chat line, or an
error frame with a stable code; nothing a client sends can close the socket with 1011.
On a group message the consumer re-reads the table and sends its own viewer's envelope.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from accounts.identity import Player, player_from_scope
from accounts.sessions import should_close

from . import broadcast, protocol, runner, selectors, services, sockets
from .broadcast import table_group, user_group
from .envelopes import SPECTATOR
from .errors import TableError

log = logging.getLogger(__name__)


def _on_db(func: Any) -> Any:
    """``func`` as a coroutine on a database thread: any of a pool's with TABLE_DB_PARALLEL
    (PostgreSQL), else the process's one (config/settings.py says why)."""
    return database_sync_to_async(func, thread_sensitive=not settings.TABLE_DB_PARALLEL)


async def _envelope(table_id: int, player: Player | None) -> dict[str, Any]:
    return await _on_db(sockets.envelope)(table_id, player)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/tables/<id>/``: a seat's (or a spectator's) live connection to one table."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return protocol.encode_frame(content)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As channels' own, without its trip to the process's one sync thread before every
        message to close that thread's old database connections (``aclose_old_connections``):
        with 4 sockets a table that was 5 trips a move through one thread. This consumer never
        touches the database but through ``database_sync_to_async``, which closes the old
        connections of the thread it runs on, before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id: int = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.player = player_from_scope(self.scope)
        self.sent_version = -1
        self.viewer_key: str | None = None  # known after the first snapshot read from the database
        self.joined = False
        self.limiter = protocol.RateLimiter()
        await self.accept()
        refusal = await database_sync_to_async(sockets.admit)(self.table_id, self.player)
        if refusal is not None:
            # Accept first so the browser gets a reason, not a bare failed handshake (1006).
            await self.send_error(TableError(refusal))
            await self.close(code=4401 if refusal == "identity_required" else 4404)
            return
        runner.ensure_started()
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        if self.player is not None and self.player.user_id is not None:
            # log-out and password changes close the socket (``user_logout``)
            await self.channel_layer.group_add(user_group(self.player.user_id), self.channel_name)
        self.joined = True
        envelope, history, box = await _on_db(sockets.opened)(self.table_id, self.player)
        box.sent_by(self.channel_name)  # this socket sends that envelope itself, just below
        await broadcast.deliver(box)
        self.note_sent(envelope)
        await self.send_json(protocol.snapshot_frame(envelope))
        await self.send_json({"type": "chat_history", "version": self.sent_version, "messages": history})

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        if self.player is not None and self.player.user_id is not None:
            await self.channel_layer.group_discard(user_group(self.player.user_id), self.channel_name)
        with contextlib.suppress(TableError):
            await broadcast.deliver(await _on_db(sockets.closed)(self.table_id, self.player))

    # -- from the client --------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame: protocol.ClientFrame | None = None
        try:
            allowed = self.limiter.allow(time.monotonic())
            try:  # parsed even when refused (bounded: 4 kB, depth 8), so the error names its action
                frame = protocol.parse_client_frame(text_data)
            except protocol.ProtocolError:
                if allowed:
                    raise
            if not allowed:
                raise protocol.ProtocolError("rate_limited", "Too many frames: slow down.")
            assert frame is not None
            await self.handle(frame)
        except protocol.ProtocolError as exc:
            # a client waiting for its action's answer stops waiting (and may send it again)
            action_id = frame.action_id if frame is not None and frame.type == "action" else ""
            await self.send_json(protocol.error_frame(self.sent_version, exc.code, exc.message, action_id))
        except TableError as exc:
            await self.send_error(exc)
        except Exception:  # never close with 1011 on a client's frame
            log.exception("table %s: frame failed", self.table_id)
            # the action's id, so that its sender stops waiting for an answer to it (the move may
            # or may not have been applied: a new move at the sender's version finds out)
            action_id = frame.action_id if frame is not None and frame.type == "action" else ""
            await self.send_json(
                protocol.error_frame(self.sent_version, "server_error", "Something went wrong.", action_id)
            )

    async def handle(self, frame: protocol.ClientFrame) -> None:
        if frame.type == "action":
            await self.act(frame)
        elif frame.type == "sync":
            if frame.version is None or frame.version != self.sent_version:
                await self.send_snapshot(force=True)
            else:
                # the common case, every few seconds per socket: one indexed read of the version,
                # the envelope only when a broadcast was missed
                if await _on_db(selectors.table_version)(self.table_id) != self.sent_version:
                    await self.send_snapshot()
                await self.send_json({"type": "pong", "version": self.sent_version})
        elif frame.type == "chat":
            await database_sync_to_async(services.post_chat)(
                table_id=self.table_id, player=self.player, text=frame.text
            )
        else:
            await self.send_json({"type": "pong", "version": self.sent_version})

    async def act(self, frame: protocol.ClientFrame) -> None:
        try:
            applied, box = await _on_db(sockets.submit)(
                table_id=self.table_id,
                player=self.player,
                action=frame.action,
                action_id=frame.action_id,
                version=frame.version,
            )
        except TableError as exc:
            await self.send_error(exc, action_id=frame.action_id)
            if exc.code == "stale":
                await self.send_snapshot(force=True)
            return
        # the group first: a socket that closes now must not keep the others waiting; this
        # socket's own snapshot follows the ack (its group message waits for this handler)
        await broadcast.deliver(box)
        await self.send_json(protocol.ack_frame(applied.version, applied.action_id))

    # -- from the group ---------------------------------------------------------------
    async def table_changed(self, event: dict[str, Any]) -> None:
        # popped: channels keeps the last message a consumer handled until its next one, and
        # this one carries every viewer's frame (≈ 8 kB at a table of 4) — per idle socket
        frames = event.pop("frames", None) or {}
        if event.get("origin") == self.channel_name and event["version"] == self.sent_version:
            return  # the presence of this socket's own opening: it sent that snapshot already
        frame = frames.get(self.viewer_key)
        if frame is not None and self.viewer_key is not None:
            # the writer built and encoded it: no read of the table, no encoding here (forced:
            # presence, at the same version)
            newer = event["version"] > self.sent_version
            if newer or (event.get("force") and event["version"] == self.sent_version):
                self.sent_version = event["version"]
                await self.send(text_data=frame)
        elif event.get("force") or event.get("version", 0) > self.sent_version:
            await self.send_snapshot(force=bool(event.get("force")))

    async def table_chat(self, event: dict[str, Any]) -> None:
        await self.send_json(protocol.chat_frame(event["version"], event["message"]))

    async def user_logout(self, event: dict[str, Any]) -> None:
        """Log-out or a password change ended this socket's session (``accounts.sessions``)."""
        if should_close(event, self.scope.get("session_fingerprint", "")):
            await self.close(code=4401)

    async def user_event(self, event: dict[str, Any]) -> None:
        """Invitations and the like are for the lobby socket; the table socket ignores them."""

    # -- frames -------------------------------------------------------------------------
    async def send_snapshot(self, *, force: bool = False) -> None:
        envelope = await _envelope(self.table_id, self.player)
        if force or envelope["version"] > self.sent_version:
            self.note_sent(envelope)
            await self.send_json(protocol.snapshot_frame(envelope))

    def note_sent(self, envelope: dict[str, Any]) -> None:
        """Note what is about to be sent: its version, and which of a move's envelopes is this
        viewer's (a seat never changes once the game is dealt)."""
        seat = envelope["you"]["seat"]
        self.viewer_key = SPECTATOR if seat is None else str(seat)
        self.sent_version = envelope["version"]

    async def send_error(self, exc: TableError, *, action_id: str = "") -> None:
        version = self.sent_version if self.sent_version >= 0 else None
        await self.send_json(protocol.error_frame(version, exc.code, exc.message, action_id))
