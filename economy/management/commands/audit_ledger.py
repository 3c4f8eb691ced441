"""``manage.py audit_ledger``: the ledger audit of the hourly task and the admin, for operators.

Prints each finding as a sentence and the books' totals; exits 1 on any finding and 0 when the
books balance (``economy.audit_command``), so a cron job or a deploy script can stop on it.
``--record`` also stores the report the admin lists, as the hourly task does.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from economy.audit import AuditResult, audit_ledger, describe, run_ledger_audit
from economy.audit_command import AuditCommand


class Command(AuditCommand):
    help = "Audit the whole ledger (read only); exit 1 if anything does not reconcile."
    title = "Ledger audit"
    clean = "the books balance, nothing to report."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--record", action="store_true", help="also store the report in the admin (Informes de auditoría)"
        )

    def audit(self, **options: Any) -> AuditResult:
        if not options["record"]:
            return audit_ledger()
        report = run_ledger_audit()
        return AuditResult(problems=list(report.problems), stats=dict(report.stats))

    def describe(self, problem: dict[str, Any]) -> str:
        return describe(problem)

    def totals(self, s: dict[str, Any]) -> str:
        return (
            f"Checked {s['transfers']:,} transfers, {s['entries']:,} entries, {s['accounts']:,} accounts, "
            f"{s['pots']:,} pot(s). Minted {s['minted']:,}, spent {s['spent']:,}; "
            f"in wallets {s['in_wallets']:,}, in pots {s['in_pots']:,}."
        )
