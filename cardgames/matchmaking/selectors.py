"""Reads of the matchmaking queue: a player's status, as the lobby events show it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts.identity import Player
from cardgames.tables.models import Table

from . import online
from .models import QueueEntry
from .services import idle_event, queued_event


def live_entry(*, user_id: int) -> QueueEntry | None:
    """The user's entry in the queue or at an online table that is waiting or playing."""
    return (
        QueueEntry.objects.filter(user_id=user_id)
        .filter(
            Q(status=QueueEntry.Status.WAITING)
            | Q(
                status=QueueEntry.Status.SEATED,
                table__status__in=[Table.Status.WAITING, Table.Status.PLAYING],
            )
        )
        .select_related("table", "table__pot")
        .first()
    )


def queue_status(*, player: Player | None, now: datetime | None = None) -> dict[str, Any]:
    """``idle``; ``queued`` (place in the queue); ``seated`` (seats taken, the countdown to
    simulated players or to the cancellation); ``playing`` (the table's URL)."""
    if player is None or player.user_id is None:
        return idle_event()
    entry = live_entry(user_id=player.user_id)
    if entry is None:
        return idle_event()
    if entry.status == QueueEntry.Status.WAITING:
        return queued_event(entry)
    table = entry.table
    assert table is not None
    if table.status == Table.Status.WAITING:
        return online.seated_event(table, seated=table.seats.count(), now=now or timezone.now())
    return {**online.started_event(table), "type": "queue", "state": "playing"}
