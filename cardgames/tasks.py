"""Celery tasks of the games as a whole (the tables' and matchmaking's live in their wings).

No model is imported at module level, so ``config/celery.py`` may import ``BEAT_SCHEDULE``
before Django is set up.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.schedules import crontab

BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # once a day, at a quiet hour (CELERY_TIMEZONE: Madrid)
    "housekeeping-daily": {"task": "housekeeping.daily", "schedule": crontab(hour=4, minute=23)},
}


@shared_task(name="housekeeping.daily", ignore_result=True)
def daily_housekeeping() -> dict[str, int]:
    """Expired sessions and guests' closed tables (cardgames/housekeeping.py); safe to run twice."""
    from .housekeeping import daily

    return daily()
