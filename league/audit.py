"""The league audit: proves every point, standing and prize follows from the finished games,
and reports (never fixes) what does not. ``manage.py audit_league`` runs it.

Checks (docs/league.md, "Audit"):

1. every game point links to its table and its game result, and they agree (``point_without_table``,
   ``point_without_game_result``, ``point_table_not_its_game``);
2. each week's stored game rows are the rows its game results earn (PF-15, PF-16, PF-60): none
   missing, none unexpected, none changed — ``selectors.recompute_week``, the admin's «Recalcular»;
3. each scope's live standings are the ranking of those rows and the corrections;
4. a frozen week's snapshot is that ranking too (a game settled after the freeze shows here);
5. a frozen week's prizes are the first three of its frozen overall standings with points, at
   PF-60's amounts;
6. a paid prize links to the ledger transfer that paid it (its key, user and amount), and a week
   marked paid has every prize paid;
7. a week that ended more than ``OVERDUE`` past its close delay is closed and paid (the beat closes
   weeks every five minutes; a close stuck on ``prize_place_taken`` waits for an admin).

The weeks audited: every stored week, and every week from the first to the last online or buy-in
game result (a week whose rows were never written shows as missing points).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max, Min
from django.utils import timezone

from cardgames.tables.models import GameResult, Table
from economy.audit import AuditResult
from economy.audit import describe as describe_finding
from economy.models import Entry, Transfer
from economy.payouts import LEAGUE_PRIZES

from . import selectors
from .models import LeaguePoint, LeaguePrize, LeagueWeek
from .points import LEAGUE_MODES
from .services import close_delay
from .weeks import Week

LIMIT = 50  # findings listed per check
#: how long after its close delay a week may stay unpaid before the audit reports it
OVERDUE = timedelta(hours=1)


def audit_league(*, weeks: list[Week] | None = None, now: datetime | None = None) -> AuditResult:
    """Run every check over ``weeks`` (default: every week with a row or a league game); read only.
    At most ``LIMIT`` findings are listed per check."""
    moment = now or timezone.now()
    audit = AuditResult()
    weeks = weeks if weeks is not None else weeks_to_audit()
    _provenance(audit, [w.key for w in weeks])
    games = rows = 0
    for week in weeks:
        diff = selectors.recompute_week(week=week)
        games += diff.games
        rows += diff.checked_rows
        _week_diff(audit, diff)
        row = selectors.week_row(week)
        _prizes(audit, week, row)
        _closed(audit, week, row, moment)
    audit.stats = {"weeks": len(weeks), "games": games, "points": rows}
    audit.problems = _trimmed(audit.problems)
    return audit


def _trimmed(problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first ``LIMIT`` findings of each check (a wrecked week could list thousands)."""
    shown: Counter[str] = Counter()
    kept = []
    for problem in problems:
        shown[problem["check"]] += 1
        if shown[problem["check"]] <= LIMIT:
            kept.append(problem)
    return kept


def weeks_to_audit() -> list[Week]:
    """Every stored week and every week from the first to the last league game, oldest first."""
    found = {row.key: selectors.week_of_row(row) for row in LeagueWeek.objects.all()}
    span = GameResult.objects.filter(mode__in=LEAGUE_MODES).aggregate(
        first=Min("finished_at"), last=Max("finished_at")
    )
    if span["first"] is not None:
        week, last = selectors.week_for(span["first"]), selectors.week_for(span["last"])
        while week.start <= last.start:
            found.setdefault(week.key, week)
            week = selectors.next_week(week)
    return sorted(found.values(), key=lambda w: w.start)


def _provenance(audit: AuditResult, keys: list[str]) -> None:
    points = list(
        LeaguePoint.objects.filter(kind=LeaguePoint.Kind.GAME, week__key__in=keys).values_list(
            "pk", "week__key", "user_id", "table_id", "game_result_id"
        )
    )
    tables = set(Table.objects.filter(pk__in={p[3] for p in points}).values_list("pk", flat=True))
    results = dict(GameResult.objects.filter(pk__in={p[4] for p in points}).values_list("pk", "table_id"))
    for pk, week, user, table, result in points:
        where = {"point": pk, "week": week, "user": user, "table": table, "game_result": result}
        if table not in tables:
            audit.add("point_without_table", **where)
        if result not in results:
            audit.add("point_without_game_result", **where)
        elif results[result] != table:
            audit.add("point_table_not_its_game", **where, game_table=results[result])


def _plain(value: Any) -> Any:
    """JSON-ready: instants as ISO text, the rest as it is."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _week_diff(audit: AuditResult, diff: selectors.WeekDiff) -> None:
    key = diff.week.key
    for row in diff.rows:
        where = {"week": key, "game_result": row.game_result_id, "user": row.user_id}
        if row.change == "changed":
            assert row.stored is not None and row.rebuilt is not None
            fields = {
                name: [_plain(row.stored[name]), _plain(row.rebuilt[name])]
                for name in row.stored
                if row.stored[name] != row.rebuilt[name]
            }
            audit.add("point_changed", **where, fields=fields)
        else:
            audit.add(f"point_{row.change}", **where, row=_plain(row.stored or row.rebuilt))
    for check, lines in (("standings_differ", diff.standings), ("frozen_standings_differ", diff.frozen)):
        for line in lines:
            audit.add(
                check,
                week=key,
                scope=line.scope,
                user=line.user_id,
                username=line.username,
                stored=_plain(line.stored),
                rebuilt=_plain(line.rebuilt),
            )


def _prizes(audit: AuditResult, week: Week, row: LeagueWeek | None) -> None:
    if row is None or row.frozen_at is None:
        return
    frozen = (row.standings or {}).get(selectors.ALL, [])
    winners = [e for e in frozen if e["points"] > 0][: len(LEAGUE_PRIZES)]
    expected = {
        place: (e["user_id"], e["points"], LEAGUE_PRIZES[place - 1])
        for place, e in enumerate(winners, start=1)
    }
    prizes = {p.place: p for p in LeaguePrize.objects.filter(week=row)}
    for place in sorted(expected.keys() | prizes.keys()):
        prize = prizes.get(place)
        found = (prize.user_id, prize.points, prize.amount) if prize else None
        if found != expected.get(place):
            audit.add(
                "prize_not_the_standings",
                week=week.key,
                place=place,
                prize=found,
                expected=expected.get(place),
            )
    for prize in prizes.values():
        if prize.transfer_id is None:
            if row.paid_at is not None:
                audit.add("prize_unpaid", week=week.key, place=prize.place, user=prize.user_id)
            continue
        transfer = Transfer.objects.filter(pk=prize.transfer_id).values("key", "user_id", "kind").first()
        paid = (
            Entry.objects.filter(transfer_id=prize.transfer_id, account__user_id=prize.user_id)
            .values_list("amount", flat=True)
            .first()
        )
        right = {
            "key": f"prize:{week.key}:{prize.place}",
            "user_id": prize.user_id,
            "kind": Transfer.Kind.PRIZE,
        }
        if transfer != right or paid != prize.amount:
            audit.add(
                "prize_transfer_mismatch",
                week=week.key,
                place=prize.place,
                user=prize.user_id,
                amount=prize.amount,
                transfer=prize.transfer_id,
                found={**(transfer or {}), "paid": paid},
            )


def _closed(audit: AuditResult, week: Week, row: LeagueWeek | None, moment: datetime) -> None:
    due = week.end + close_delay() + OVERDUE
    if moment >= due and (row is None or row.paid_at is None):
        state = "never closed" if row is None or row.frozen_at is None else "frozen, prizes unpaid"
        audit.add("week_not_closed", week=week.key, ended=week.end.isoformat(), state=state)


#: a finding in a sentence, by check (``describe`` puts the week first and words the rows)
SENTENCES = {
    "point_without_table": "point {point} of user {user} links to table {table}, which is not there",
    "point_without_game_result": "point {point} of user {user} links to game result {game_result}, "
    "which is not there",
    "point_table_not_its_game": "point {point} of user {user} names table {table}, but its game result "
    "{game_result} was played at table {game_table}",
    "point_missing": "user {user} has no points for game result {game_result}; it earns {row}",
    "point_unexpected": "user {user} has points for game result {game_result} it does not earn: {row}",
    "point_changed": "user {user}'s points for game result {game_result} differ [stored, rebuilt]: {fields}",
    "standings_differ": "{scope}: {username} (user {user}) stands {stored}; rebuilt from the points: "
    "{rebuilt}",
    "frozen_standings_differ": "{scope}: the frozen snapshot has {username} (user {user}) {stored}; "
    "the games give {rebuilt}",
    "prize_not_the_standings": "prize place {place} is {prize}; the frozen standings give {expected}",
    "prize_unpaid": "marked paid, but prize place {place} (user {user}) has no transfer",
    "prize_transfer_mismatch": "prize place {place} ({amount} coins to user {user}) links to transfer "
    "{transfer}, which is {found}",
    "week_not_closed": "ended at {ended} and is {state}",
}


def _row_words(row: dict[str, Any]) -> str:
    return f"{row['points']} points (place {row['place']} of {row['players']} at table {row['table_id']})"


def _line_words(line: dict[str, Any] | None) -> str:
    if line is None:
        return "nowhere"
    return f"#{line['position']} with {line['points']} points ({line['wins']} won of {line['games']})"


def _prize_words(prize: list[int] | tuple[int, int, int] | None) -> str:
    if prize is None:
        return "nobody"
    user, points, coins = prize
    return f"user {user} for {points} points, {coins} coins"


def describe(problem: dict[str, Any]) -> str:
    """One finding as a sentence an operator reads (``manage.py audit_league``)."""
    words = dict(problem)
    if "row" in words:
        words["row"] = _row_words(words["row"])
    if problem["check"] in ("standings_differ", "frozen_standings_differ"):
        words["stored"], words["rebuilt"] = _line_words(words["stored"]), _line_words(words["rebuilt"])
    if problem["check"] == "prize_not_the_standings":
        words["prize"], words["expected"] = _prize_words(words["prize"]), _prize_words(words["expected"])
    return f"week {problem.get('week', '?')}: {describe_finding(words, SENTENCES)}"
