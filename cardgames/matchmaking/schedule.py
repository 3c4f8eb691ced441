"""Celery beat's matchmaking waves (imported by config/celery.py before Django is set up)."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

#: seconds between beat's waves (joins also kick one at once)
WAVE_SECONDS = 2
#: parallel waves under Celery, each over its own buckets (``pairing.shard_of``)
DEFAULT_SHARDS = 2


def wave_shards() -> int:
    """How many waves run side by side under Celery (``MATCHMAKING_WAVE_SHARDS``, default 2)."""
    try:
        return max(1, int(os.environ.get("MATCHMAKING_WAVE_SHARDS", DEFAULT_SHARDS)))
    except ValueError:
        return DEFAULT_SHARDS


def beat_schedule(runner: str) -> dict[str, dict[str, Any]]:
    """One periodic wave per shard. With the in-process runner daphne runs the waves itself
    (cardgames/tables/runner.py): nothing here."""
    if runner != "celery":
        return {}
    shards = wave_shards()
    return {
        f"matchmaking-wave-{shard}": {
            "task": "matchmaking.run_wave",
            "schedule": timedelta(seconds=WAVE_SECONDS),
            "kwargs": {"shard": shard, "shards": shards},
        }
        for shard in range(shards)
    }
