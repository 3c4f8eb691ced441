"""The only place that sends to the channel layer (and schedules wake-ups), always after commit.

The table sockets of a process hear their groups through one channel (fanout.py).

Group messages carry the table ``version`` and, after a move, every viewer's snapshot frame of
that version (``envelopes.every_envelope``, encoded once); each consumer sends its own viewer's,
or re-reads the table when the message has none (selectors.table_view_for). The layer may drop a
message (Redis pub/sub delivers at most once; the in-memory layer does not cross processes):
clients' heartbeats carry their version, so a missed message costs at most one heartbeat
(docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .protocol import encode_frame, snapshot_frame

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    batch: _Batch | Outbox | None = getattr(_local, "batch", None)
    if batch is not None:
        batch.add([group], message)
    else:
        _deliver([(group, message)])


class _Batch:
    """Sends made (after their commits) inside ``batched()``, flushed in few trips to the layer."""

    def __init__(self, max_delay: float, max_messages: int) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []
        self.since = 0.0
        self.max_delay, self.max_messages = max_delay, max_messages

    def add(self, groups: list[str], message: dict[str, Any]) -> None:
        if not self.items:
            self.since = time.monotonic()
        self.items.extend((group, message) for group in groups)
        if len(self.items) >= self.max_messages or time.monotonic() - self.since >= self.max_delay:
            self.flush()

    def flush(self) -> None:
        items, self.items = self.items, []
        if items:
            _deliver(items)


_local = threading.local()


@contextlib.contextmanager
def batched(*, max_delay: float = 0.1, max_messages: int = 500) -> Iterator[None]:
    """Group the channel-layer sends of this thread into one trip per ``max_delay`` seconds (or
    ``max_messages``), instead of one per message: a matchmaking wave forms many tables in a row,
    and each trip through ``async_to_sync`` costs far more than the send itself. Every message
    still leaves after its own transaction's commit, in order within each group."""
    outer: _Batch | Outbox | None = getattr(_local, "batch", None)
    if outer is not None:
        yield
        return
    batch = _local.batch = _Batch(max_delay, max_messages)
    try:
        yield
    finally:
        _local.batch = None
        batch.flush()


async def _send_items(items: list[tuple[str, dict[str, Any]]]) -> None:
    """Send ``items`` to the layer: groups side by side, each group's messages in order."""
    layer = get_channel_layer()
    if layer is None:
        return
    by_group: dict[str, list[dict[str, Any]]] = {}
    for group, message in items:
        by_group.setdefault(group, []).append(message)

    async def in_order(group: str, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            # named: a process's table sockets hear their groups through one channel (fanout.py)
            await layer.group_send(group, {**message, "group": group})

    await asyncio.gather(*(in_order(group, messages) for group, messages in by_group.items()))


def _deliver(items: list[tuple[str, dict[str, Any]]]) -> None:
    """Send ``items`` in one ``async_to_sync`` trip."""
    if not items:
        return
    try:
        async_to_sync(_send_items)(items)
    except Exception:  # a lost broadcast is caught up by the clients' heartbeat / status request
        log.warning("group_send of %d messages failed", len(items), exc_info=True)


class Outbox:
    """Sends made (after their commits) inside ``outbox()``, kept for an async caller to
    ``deliver``: a consumer's database thread then never waits on the channel layer."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def add(self, groups: list[str], message: dict[str, Any]) -> None:
        self.items.extend((group, message) for group in groups)

    def sent_by(self, socket_id: str) -> None:
        """Mark every message as the socket ``socket_id``'s own: a socket that announced its own
        opening has already sent its viewer that snapshot, and skips the echo (``TableConsumer``)."""
        for _, message in self.items:
            message["origin"] = socket_id


@contextlib.contextmanager
def outbox() -> Iterator[Outbox]:
    """Keep this thread's channel-layer sends in an ``Outbox`` instead of sending them.

    Only for a sync call made from async code (the consumer's ``database_sync_to_async``),
    which must then ``await deliver(box)``. Inside ``batched()`` the batch keeps the sends.
    """
    box = Outbox()
    if getattr(_local, "batch", None) is not None:
        yield box
        return
    _local.batch = box
    try:
        yield box
    finally:
        _local.batch = None


async def deliver(box: Outbox) -> None:
    """Send what ``outbox()`` kept, from the event loop."""
    items, box.items = box.items, []
    if not items:
        return
    try:
        await _send_items(items)
    except Exception:  # a lost broadcast is caught up by the clients' heartbeat / status request
        log.warning("group_send of %d messages failed", len(items), exc_info=True)


def table_changed(
    table_id: int, version: int, *, force: bool = False, envelopes: dict[str, Any] | None = None
) -> None:
    """After commit: every socket of the table sends its viewer the new version.

    With ``envelopes`` (every seat's and the spectator's, built by the writer) the message carries
    each viewer's snapshot frame, encoded once here, and a socket sends its own as it is; without,
    it re-reads the table (``force``: even at the same version). The frames travel only between
    server processes: each socket forwards one.
    """
    message: dict[str, Any] = {"type": "table.changed", "version": version, "force": force}
    if envelopes is not None:
        message["frames"] = {key: encode_frame(snapshot_frame(env)) for key, env in envelopes.items()}
    transaction.on_commit(lambda: _send(table_group(table_id), message))


def chat_posted(table_id: int, version: int, chat: dict[str, Any]) -> None:
    message = {"type": "table.chat", "version": version, "message": chat}
    transaction.on_commit(lambda: _send(table_group(table_id), message))


def to_user(user_id: int, payload: dict[str, Any]) -> None:
    """After commit: a message on the user's own channel group, on every tab they have open."""
    message = {"type": "user.event", "payload": payload}
    transaction.on_commit(lambda: _send(user_group(user_id), message))


def to_users(user_ids: Iterable[int], payload: dict[str, Any]) -> None:
    """After commit: the same message on several users' groups, in one trip to the channel layer
    (matchmaking tells every player of a table at once)."""
    groups = [user_group(user_id) for user_id in user_ids]
    if not groups:
        return
    message = {"type": "user.event", "payload": payload}
    transaction.on_commit(lambda: _send_many(groups, message))


def _send_many(groups: list[str], message: dict[str, Any]) -> None:
    batch: _Batch | Outbox | None = getattr(_local, "batch", None)
    if batch is not None:
        batch.add(groups, message)
    else:
        _deliver([(group, message) for group in groups])


def close_user_sockets(user_id: int, *, session: str = "", keep: str = "") -> None:
    """After commit: the user's sockets close (4401) — those of ``session`` only, or all but ``keep``.

    ``session``/``keep`` are ``accounts.sessions.session_fingerprint`` values (never the key itself).
    """
    message = {"type": "user.logout", "session": session, "keep": keep}
    transaction.on_commit(lambda: _send(user_group(user_id), message))


#: a wake-up further away than this is left to the sweeper (every second): no countdown task
COUNTDOWN_HORIZON_SECONDS = 10.0


def wake_later(table_id: int, at: datetime | None) -> None:
    """With Celery running the tables: a countdown task at ``at`` when it is near (a bot's move, a
    catch window, a pause). A 30 s turn deadline is left to the sweeper, which runs every second,
    so the worker does not hold one task per move for half a minute (docs/performance.md)."""
    if at is None or settings.TABLE_RUNNER != "celery":
        return
    if (at - timezone.now()).total_seconds() > COUNTDOWN_HORIZON_SECONDS:
        return
    from .tasks import wake_table

    countdown(wake_table, table_id, at)


def countdown(task: Any, table_id: int, at: datetime) -> None:
    """After commit: ``task(table_id)`` due at ``at``; a broker that is down loses nothing (the
    sweeper finds the table)."""

    def enqueue() -> None:
        try:
            task.apply_async(args=[table_id], eta=at)
        except Exception:  # the broker is down: the sweeper will find the table
            log.warning("could not schedule %s for table %s", task.name, table_id, exc_info=True)

    transaction.on_commit(enqueue)
