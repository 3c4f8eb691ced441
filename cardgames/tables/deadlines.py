"""The sweeper: every table whose ``wake_at`` has passed is woken once (design.md).

Several sweepers (Celery beat's task, the in-process runner, a countdown task) may run at
once: each takes a table with ``SELECT … FOR UPDATE SKIP LOCKED`` (PostgreSQL), so a table
is handled by one of them at a time and the others move on; ``wake_table`` itself does
nothing that is not due, so a second pass is harmless.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from .models import Table
from .services import wake_table

log = logging.getLogger(__name__)
BATCH = 200


def due_tables(*, now: datetime, limit: int = BATCH) -> list[int]:
    return list(
        Table.objects.filter(wake_at__lte=now).order_by("wake_at").values_list("pk", flat=True)[:limit]
    )


def sweep(*, now: datetime | None = None) -> int:
    """Wake every due table; returns how many were handled. One table's error never stops the rest."""
    moment = now or timezone.now()
    handled = 0
    for table_id in due_tables(now=moment):
        try:
            if wake_table(table_id=table_id, now=now or timezone.now(), skip_locked=True):
                handled += 1
        except Exception:
            log.exception("waking table %s failed; the next sweep retries", table_id)
    return handled
