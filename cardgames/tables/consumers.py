"""The table socket (docs/protocol.md): thin — who is it, parse, call one service, answer.

Every frame that reaches ``receive`` gets an answer: an ack, a snapshot, a chat line, or an
error frame with a stable code; nothing a client sends can close the socket with 1011.
The socket has no channel of its own in the channel layer: the process's fanout hands it its
table's and its user's group messages (cardgames/tables/fanout.py). A move's message carries
every viewer's frame, and the socket sends its own; else it reads the table back.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from accounts.identity import Player, player_from_scope
from accounts.sessions import should_close
from accounts.throttling import socket_ip

from . import broadcast, protocol, runner, selectors, services, sockets
from .broadcast import table_group, user_group
from .envelopes import SPECTATOR
from .errors import TableError
from .fanout import fanout, spawn

log = logging.getLogger(__name__)
#: the close code of a refused socket (else 4404): the page stops reconnecting on 44xx
REFUSAL_CLOSE_CODES = {"identity_required": 4401, "private_room": 4403, "too_many_guesses": 4429}


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

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """As channels' own, without a channel of its own in the layer (the fanout hands it its
        groups' messages: one channel, queue and decoding per process instead of per socket), and
        without a task per client frame: frames are awaited and handled one at a time."""
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            self.leave_groups()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As channels' own, without its trip to the process's one sync thread before every
        message to close that thread's old database connections: this consumer never touches
        the database but through ``database_sync_to_async``, which closes the old connections
        of the thread it runs on, before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def hear(self, message: dict[str, Any]) -> None:
        """A group message, from the fanout (shared with this process's other sockets of the
        group: read, never changed)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:
            await handler(message)

    def groups_of(self) -> list[str]:
        groups = [table_group(self.table_id)]
        if self.player is not None and self.player.user_id is not None:
            # log-out and password changes close the socket (``user_logout``)
            groups.append(user_group(self.player.user_id))
        return groups

    def leave_groups(self) -> None:
        if getattr(self, "joined", False):
            self.joined = False
            hub = fanout()
            for group in self.groups_of():
                hub.leave(group, self)

    async def connect(self) -> None:
        self.table_id: int = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.player = player_from_scope(self.scope)
        self.sent_version = -1
        self.viewer_key: str | None = None  # known after the first snapshot read from the database
        self.joined = False
        # until its first snapshot is sent, what the groups said is kept here (``catch_up``)
        self.opening: _Missed | None = _Missed()
        self.socket_id = uuid.uuid4().hex  # names this socket's own opening in its presence echo
        self.limiter = protocol.RateLimiter()
        self.hinted: dict[str, Any] | None = None  # the last hint frame: asked again, sent again
        await self.accept()
        code = parse_qs(self.scope.get("query_string", b"").decode("latin1")).get("code", [""])[0]
        address = socket_ip(self.scope)
        refusal = await database_sync_to_async(sockets.admit)(self.table_id, self.player, code, address)
        if refusal is not None:
            # Accept first so the browser gets a reason, not a bare failed handshake (1006).
            await self.send_error(TableError(refusal))
            await self.close(code=REFUSAL_CLOSE_CODES.get(refusal, 4404))
            return
        runner.ensure_started()
        self.joined = True
        hub = fanout()
        for group in self.groups_of():
            await hub.join(group, self)
        envelope, history, moves, box = await _on_db(sockets.opened)(self.table_id, self.player)
        box.sent_by(self.socket_id)  # this socket sends that envelope itself, just below
        await broadcast.deliver(box)
        self.note_sent(envelope)
        await self.send_json(protocol.snapshot_frame(envelope))
        if moves is not None:
            await self.send_json(protocol.log_frame(self.sent_version, moves))
        await self.send_json({"type": "chat_history", "version": self.sent_version, "messages": history})
        await self.catch_up({message["id"] for message in history})

    async def catch_up(self, shown_chat: set[int]) -> None:
        """Handle what the groups said while the socket was opening, as if it came now: the
        latest table message (an older one changes nothing after the snapshot), and the chat
        lines its history did not have."""
        missed, self.opening = self.opening, None
        if missed is None:
            return
        if missed.change is not None:
            await self.table_changed(missed.change)
        for event in missed.chat:
            if event["message"]["id"] not in shown_chat:
                await self.table_chat(event)

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        self.leave_groups()
        with contextlib.suppress(TableError):
            await broadcast.deliver(await _on_db(sockets.closed)(self.table_id, self.player))

    # -- from the client --------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame: protocol.ClientFrame | None = None
        try:
            allowed = self.limiter.allow(time.monotonic())
            claimed = ""
            try:  # parsed even when refused (bounded: 4 kB, depth 8), so the error names its action
                frame = protocol.parse_client_frame(text_data)
            except protocol.ProtocolError as exc:
                if allowed:
                    raise
                claimed = exc.action_id
            if not allowed:
                if frame is not None and frame.type == "action":
                    claimed = frame.action_id
                raise protocol.ProtocolError("rate_limited", "Too many frames: slow down.", claimed)
            assert frame is not None
            await self.handle(frame)
        except protocol.ProtocolError as exc:
            # a client waiting for its action's answer stops waiting (and may send it again): the
            # parser and the rate limit name the action a refused frame claimed
            refusal = protocol.error_frame(self.sent_version, exc.code, exc.message, exc.action_id)
            await self.send_json(refusal)
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
        elif frame.type == "log":
            await self.send_log(answer=True)
        elif frame.type == "hint":
            await self.send_hint()
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
        # the ack first (sending never waits), so that the snapshot the group message brings
        # follows it, as the protocol says
        await self.send_json(protocol.ack_frame(applied.version, applied.action_id))
        await broadcast.deliver(box)

    # -- from the group ---------------------------------------------------------------
    async def table_changed(self, event: dict[str, Any]) -> None:
        if self.opening is not None:  # its first snapshot is being read: sent after it
            if event.get("origin") != self.socket_id:
                self.opening.note(event)
            return
        if event.get("origin") == self.socket_id and event["version"] == self.sent_version:
            return  # the presence of this socket's own opening: it sent that snapshot already
        frames = event.get("frames")
        frame = frames.get(self.viewer_key) if frames and self.viewer_key is not None else None
        if frame is not None:
            # the writer built and encoded it: no read of the table, no encoding here (forced:
            # presence, at the same version)
            newer = event["version"] > self.sent_version
            if newer or (event.get("force") and event["version"] == self.sent_version):
                skipped = event["version"] > self.sent_version + 1
                self.sent_version = event["version"]
                await self.send(text_data=frame)
                if skipped:  # moves this socket never sent: their log entries follow
                    spawn(self.send_log())
        elif event.get("force") or event.get("version", 0) > self.sent_version:
            spawn(self.send_snapshot(force=bool(event.get("force"))))  # never keep the fanout waiting

    async def table_chat(self, event: dict[str, Any]) -> None:
        if self.opening is not None:
            self.opening.chat.append(event)
            return
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
        if envelope["version"] < self.sent_version:
            return  # a push of a newer version overtook this read
        if force or envelope["version"] > self.sent_version:
            skipped = envelope["version"] > self.sent_version + 1
            self.note_sent(envelope)
            await self.send_json(protocol.snapshot_frame(envelope))
            if skipped and envelope["view"] is not None:  # moves this socket never sent
                await self.send_log()

    async def send_log(self, *, answer: bool = False) -> None:
        """The current deal's move log up to the version this socket has sent (docs/protocol.md,
        "The move log"); ``answer``: the client asked, so a table not dealt yet answers too."""
        version = self.sent_version
        moves = await _on_db(sockets.log)(self.table_id, self.player, version)
        if moves is not None or answer:
            await self.send_json(protocol.log_frame(version, moves or []))

    async def send_hint(self) -> None:
        """The normal bot's choice for this seat's turn (docs/protocol.md): computed once per
        version the socket has sent, so a player pressing again costs the server nothing."""
        if self.hinted is None or self.hinted["version"] != self.sent_version:
            version, action = await _on_db(sockets.hint)(self.table_id, self.player)
            self.hinted = protocol.hint_frame(version, action)
        await self.send_json(self.hinted)

    def note_sent(self, envelope: dict[str, Any]) -> None:
        """Note what is about to be sent: its version, and which of a move's envelopes is this
        viewer's (a seat never changes once the game is dealt)."""
        seat = envelope["you"]["seat"]
        self.viewer_key = SPECTATOR if seat is None else str(seat)
        self.sent_version = envelope["version"]

    async def send_error(self, exc: TableError, *, action_id: str = "") -> None:
        version = self.sent_version if self.sent_version >= 0 else None
        await self.send_json(protocol.error_frame(version, exc.code, exc.message, action_id))


class _Missed:
    """What a socket's groups said while it was opening (``TableConsumer.catch_up``): the
    latest table message, shared with the other sockets (read, never changed), and the chat."""

    __slots__ = ("change", "chat")

    def __init__(self) -> None:
        self.change: dict[str, Any] | None = None
        self.chat: list[dict[str, Any]] = []

    def note(self, event: dict[str, Any]) -> None:
        if self.change is None or int(event.get("version", 0)) >= int(self.change.get("version", 0)):
            self.change = event
