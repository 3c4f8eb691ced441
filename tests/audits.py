"""For the audit commands' tests (not a test module): immutable rows changed anyway, and a
command run as a shell runs it.

The ledger (``economy_transfer``, ``economy_entry``, ``economy_xpaward``) and the league's points
refuse UPDATE by trigger (economy migration 0005, league migration 0002). ``tampered`` runs raw
SQL with that table's UPDATE trigger lifted, as someone with the database's superuser or owner
rights could, and puts the trigger back. Inside a test's transaction the change and the lifting
are rolled back with everything else.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import ManagementUtility
from django.db import connection, connections


def manage(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``manage.py <argv>`` as a shell runs it: (exit status, stdout, stderr). The test's database
    connection stays open (manage.py closes every connection; the test's transaction holds its data)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connections, "close_all", lambda: None)
        try:
            ManagementUtility(["manage.py", *argv]).execute()
            status = 0
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def tampered(table: str, sql: str, params: list[Any] | None = None) -> None:
    """Run ``sql`` (an UPDATE of ``table``) past its immutability trigger."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # a replica's session fires no row triggers (a superuser's switch, as a restore uses):
            # neither the immutability trigger nor the foreign keys' checks of this one statement
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute(sql, params or [])
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")
            return
        cursor.execute(f"SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = '{table}_no_update'")
        (trigger,) = cursor.fetchone()
        cursor.execute(f"DROP TRIGGER {table}_no_update")
        cursor.execute(sql, params or [])
        cursor.execute(trigger)
