"""Celery tasks of the economy: thin, by id, safe to run twice (docs/economy.md).

No model is imported at module level, so ``config/celery.py`` may import ``BEAT_SCHEDULE``
before Django is set up.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.schedules import crontab
from django.db import OperationalError

# Merge into config/celery.py: app.conf.beat_schedule.update(BEAT_SCHEDULE)
BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "economy-audit-ledger": {"task": "economy.audit_ledger", "schedule": crontab(minute=17)},
}


@shared_task(name="economy.cancel_pot", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def cancel_pot_task(pot_id: int) -> int:
    """Cancel a buy-in pot that did not fill and refund every entry once (PF-18, PF-52).

    Safe to run twice, concurrently or after a crash (``cancel_pot`` is idempotent under
    the pot's row lock; a lost connection is retried). Returns how many entries this run
    refunded. Only a pot still open is cancelled: run late or redelivered after its game
    started, it leaves the game alone (aborting one is the admin's ``abort_pot``); a pot
    settled or gone is left alone too. Live tables use ``matchmaking.table_deadline``,
    which also closes the table under its lock.
    """
    from .errors import EconomyError
    from .models import Pot
    from .services import cancel_pot

    if not Pot.objects.filter(pk=pot_id).exists():
        return 0
    try:
        return len(cancel_pot(pot=pot_id))
    except EconomyError as exc:
        if exc.code in ("pot_started", "pot_settled"):  # its game is on or over: not ours to end
            return 0
        raise


@shared_task(name="economy.audit_ledger")
def audit_ledger_task() -> bool:
    """Audit the whole ledger; the report lands in the admin (AuditReport) and the log."""
    from .audit import run_ledger_audit

    return run_ledger_audit().ok
