"""The bare baseline of bench/tables.py: the least a live table could do per move.

``/ws/bare/<room>/?seat=<n>``: an action frame writes one row (one transaction: bump the
room's version, insert the log row) through the same ``database_sync_to_async`` as the table
consumer, acks, sends the sender a snapshot, and, after commit, tells the room's group of 4,
whose consumers send a snapshot built from the message (no re-read, no engine, no per-viewer
view). The snapshot has the table socket's shape, so ``bench.live_harness.SeatClient`` plays
it: the seat to act is ``version % 4`` and its one legal action is ``{"type": "tick"}``.

Run by daphne as ``bench.bare_asgi:application`` with the stack's settings (PostgreSQL,
channels_redis). Its two tables are created by ``ensure_tables``.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import parse_qs

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from asgiref.sync import async_to_sync  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

SEATS = 4
TABLES_SQL = """
CREATE TABLE IF NOT EXISTS bench_bare_room (id integer PRIMARY KEY, version integer NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS bench_bare_log (
    id bigserial PRIMARY KEY,
    room integer NOT NULL,
    seq integer NOT NULL,
    seat integer NOT NULL,
    action jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (room, seq)
);
"""


def ensure_tables(conn: Any) -> None:
    """Create the baseline's two tables (``conn``: a psycopg connection in autocommit)."""
    conn.execute(TABLES_SQL)


def _group(room: int) -> str:
    return f"bare.{room}"


def _snapshot(version: int, seat: int) -> dict[str, Any]:
    table = {
        "status": "playing",
        "version": version,
        "you": {"seat": seat},
        "to_act": [version % SEATS],
        "legal": [{"type": "tick"}],
    }
    return {"type": "snapshot", "version": version, "table": table}


@database_sync_to_async
def _version(room: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_bare_room (id) VALUES (%s) ON CONFLICT (id) DO NOTHING", [room])
        cursor.execute("SELECT version FROM bench_bare_room WHERE id = %s", [room])
        return int(cursor.fetchone()[0])


@database_sync_to_async
def _write(room: int, seat: int, action: Any) -> int:
    """One row: the room's version bumped and the action logged, then the group told on commit."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE bench_bare_room SET version = version + 1 WHERE id = %s RETURNING version", [room]
        )
        version = int(cursor.fetchone()[0])
        cursor.execute(
            "INSERT INTO bench_bare_log (room, seq, seat, action) VALUES (%s, %s, %s, %s)",
            [room, version, seat, json.dumps(action)],
        )
        layer = get_channel_layer()
        message = {"type": "bare.changed", "version": version}
        transaction.on_commit(lambda: async_to_sync(layer.group_send)(_group(room), message))
    return version


class BareConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.room = int(self.scope["url_route"]["kwargs"]["room"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.seat = int(query.get("seat", ["0"])[0])
        await self.accept()
        await self.channel_layer.group_add(_group(self.room), self.channel_name)
        self.sent_version = await _version(self.room)
        await self.send_json(_snapshot(self.sent_version, self.seat))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(_group(self.room), self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "action":
            version = await _write(self.room, self.seat, content.get("action"))
            await self.send_json({"type": "ack", "version": version, "action_id": content.get("action_id")})
            await self._send(version)
        elif kind == "sync":
            await self._send(await _version(self.room), force=content.get("version") != self.sent_version)
            await self.send_json({"type": "pong", "version": self.sent_version})

    async def bare_changed(self, event: dict[str, Any]) -> None:
        await self._send(event["version"])

    async def _send(self, version: int, *, force: bool = False) -> None:
        if force or version > self.sent_version:
            self.sent_version = max(version, self.sent_version)
            await self.send_json(_snapshot(version, self.seat))


application = ProtocolTypeRouter(
    {"http": django_asgi_app, "websocket": URLRouter([path("ws/bare/<int:room>/", BareConsumer.as_asgi())])}
)
