"""Celery tasks of matchmaking: thin, take ids, safe to run twice (docs/architecture.md).

Every task here may run late, twice, or again after its worker died mid-way (``acks_late``
and ``reject_on_worker_lost`` in the settings redeliver it): a wave re-reads the queue and
re-checks every entry under its lock; a deadline re-reads its table under the Table lock,
and its transaction either committed whole or left nothing (PostgreSQL rolls back the
killed worker's transaction), so every refund happens exactly once.
"""

from __future__ import annotations

import contextlib

from celery import shared_task
from django.core.cache import cache
from django.db import OperationalError


@shared_task(name="matchmaking.run_wave", ignore_result=True)
def run_wave(shard: int | None = None, shards: int = 1) -> int:
    """A wave over one shard's buckets: kicked when someone joins, and from beat every few
    seconds (one per shard). Returns the tables it opened."""
    from . import services

    # joins from now on kick a new wave; with the cache down the wave still runs (later joins wait for beat)
    with contextlib.suppress(Exception):
        cache.delete(f"{services.KICK_KEY}:{shard or 0}/{shards}")
    wave = services.run_wave(shard=shard, shards=shards)
    if wave.skipped:
        services.kick_again(shard or 0, shards)
    return wave.tables


@shared_task(
    name="matchmaking.table_deadline",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def table_deadline(table_id: int) -> str:
    """A waiting online table's fill deadline (PF-51: simulated players; PF-52: cancel and refund).

    Countdown task at the deadline; the sweeper (``tables.sweep`` → ``wake_table``) is the
    backstop. Only a table still waiting is touched: a started game is never ended here.
    """
    from .online import expire_table

    return expire_table(table_id=table_id)
