"""``flush`` as Django ships it, allowed to empty the immutable ledger tables on SQLite.

Emptying the whole database is the SQLite equivalent of PostgreSQL's TRUNCATE, which the
ledger's row triggers do not block either; every other DELETE stays refused (economy/db.py).
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands.flush import Command as FlushCommand

from economy.db import ledger_wipe_allowed


class Command(FlushCommand):
    def handle(self, **options: Any) -> None:
        with ledger_wipe_allowed():
            super().handle(**options)
