"""Celery tasks of the league: thin and safe to run twice (docs/league.md).

No model is imported at module level, so ``config/celery.py`` may import ``BEAT_SCHEDULE``
before Django is set up.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import shared_task

# Merged into config/celery.py. Every few minutes rather than a crontab at Monday 00:00: the
# task closes whatever week is due (after LEAGUE_CLOSE_DELAY_SECONDS), so a missed beat, a
# crash or a change of time zone or DST only delays a close until the next beat.
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "league-close-weeks": {"task": "league.close_weeks", "schedule": timedelta(minutes=5)},
}


@shared_task(name="league.close_weeks")
def close_weeks_task() -> list[str]:
    """Close every finished week not yet paid (freeze, prizes once) and record lost games."""
    from .services import close_due_weeks

    return close_due_weeks()


@shared_task(name="league.close_week")
def close_week_task(week_key: str) -> str:
    """Close one week by key ("2026-W49"), e.g. by hand after fixing a failed close."""
    from .selectors import parse_week
    from .services import close_week

    return close_week(week=parse_week(week_key)).key
