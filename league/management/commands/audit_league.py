"""``manage.py audit_league``: the league audit (the admin's «Recalcular» for every week, plus
the points' provenance, the prizes and the closes), for operators.

Prints each finding as a sentence; exits 1 on any finding and 0 when every point, standing and
prize follows from the finished games (``economy.audit_command``). ``--week 2026-W49`` (or a
date in it) audits one week.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from economy.audit import AuditResult
from economy.audit_command import AuditCommand
from league.audit import audit_league, describe
from league.errors import LeagueError
from league.selectors import parse_week


class Command(AuditCommand):
    help = "Audit the weekly league against the finished games (read only); exit 1 on any finding."
    title = "League audit"
    clean = "every point, standing and prize checks out."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--week", help="one week: 2026-W49, or a date in it (default: every week)")

    def audit(self, **options: Any) -> AuditResult:
        if not options["week"]:
            return audit_league()
        try:
            week = parse_week(options["week"])
        except LeagueError:
            raise CommandError(f"not a week: {options['week']!r} (e.g. 2026-W49)", returncode=2) from None
        return audit_league(weeks=[week])

    def describe(self, problem: dict[str, Any]) -> str:
        return describe(problem)

    def totals(self, s: dict[str, Any]) -> str:
        return f"Checked {s['weeks']} week(s), {s['games']:,} games, {s['points']:,} points."
