"""What ``manage.py audit_ledger`` and ``manage.py audit_league`` share: a sentence per finding,
the totals checked, ``--json``, and an exit status a script can stop on.

Exit status: 0 nothing found, 1 findings (``FINDINGS``), 2 a bad option (argparse's, and a bad
``--week``), 3 the database could not be read (``UNREADABLE``: not migrated, unreachable).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from .audit import AuditResult

FINDINGS = 1
UNREADABLE = 3


class AuditCommand(BaseCommand):
    """An audit command: ``audit`` runs it, ``describe`` words a finding, ``totals`` the stats."""

    #: "Ledger audit", "League audit"
    title = ""
    #: what a clean run says
    clean = ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the findings and totals as JSON")

    def audit(self, **options: Any) -> AuditResult:
        raise NotImplementedError

    def describe(self, problem: dict[str, Any]) -> str:
        raise NotImplementedError

    def totals(self, stats: dict[str, Any]) -> str:
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = self.audit(**options)
        except DatabaseError as exc:  # not a finding: nothing could be checked
            raise CommandError(f"could not read the database: {exc}", returncode=UNREADABLE) from exc
        if options["json"]:
            self.stdout.write(json.dumps({"ok": result.ok, **result.__dict__}, default=str, indent=2))
        elif result.ok:
            self.stdout.write(self.style.SUCCESS(f"{self.title}: {self.clean}"))
        else:
            self.stdout.write(self.style.ERROR(f"{self.title}: {len(result.problems)} finding(s)."))
            for problem in result.problems:
                self.stdout.write(f"  - {self.describe(problem)}  [{problem['check']}]")
        if not options["json"]:
            self.stdout.write(self.totals(result.stats))
        if not result.ok:
            raise CommandError(
                f"the {self.title.lower()} found {len(result.problems)} problem(s)", returncode=FINDINGS
            )
