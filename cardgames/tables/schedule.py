"""Celery beat's periodic table work (imported by config/celery.py before Django is set up)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any


def beat_schedule(runner: str) -> dict[str, dict[str, Any]]:
    """With the in-process runner daphne sweeps itself (cardgames/tables/runner.py): nothing here."""
    if runner != "celery":
        return {}
    return {
        "tables-sweep": {"task": "tables.sweep", "schedule": timedelta(seconds=1)},
        "tables-close-idle": {"task": "tables.close_idle_rooms", "schedule": timedelta(minutes=5)},
    }
