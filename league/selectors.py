"""League reads: weeks in the league time zone, standings (live or frozen), a player's points,
and the recompute that rebuilds a week from the game results and compares (PF-60).

Ranking is always ``league.ranking`` (points, then games won, then who reached the total
first, then the older account): never the order rows come out of the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from cardgames.catalogue import CATALOGUE
from cardgames.tables.models import GameResult

from . import ranking, weeks
from .errors import LeagueError
from .models import LeaguePoint, LeaguePrize, LeagueWeek
from .points import LEAGUE_MODES, table_points
from .weeks import Week

ALL = "all"  # the overall scope of the standings


# --- weeks --------------------------------------------------------------------------------


def league_zone() -> ZoneInfo:
    return ZoneInfo(settings.LEAGUE_TIME_ZONE)


def week_for(moment: datetime) -> Week:
    """The league week containing this instant."""
    return weeks.week_of(moment, league_zone())


def current_week(now: datetime | None = None) -> Week:
    return week_for(now or timezone.now())


def parse_week(text: str) -> Week:
    """``"2026-W49"`` or a date in the week; ``LeagueError("invalid_week")`` otherwise."""
    try:
        return weeks.parse_week(text, league_zone())
    except ValueError as exc:
        raise LeagueError("invalid_week") from exc


def previous_week(week: Week) -> Week:
    return weeks.previous_week(week, league_zone())


def next_week(week: Week) -> Week:
    return weeks.next_week(week, league_zone())


def week_of_row(row: LeagueWeek) -> Week:
    """The week a stored row stands for, with the bounds stored in it."""
    return Week(row.start.astimezone(league_zone()).date(), row.start, row.end)


def week_row(week: Week) -> LeagueWeek | None:
    return LeagueWeek.objects.filter(key=week.key).first()


def check_game(game: str | None) -> str | None:
    if game in (None, "", ALL):
        return None
    if game not in CATALOGUE:
        raise LeagueError("unknown_game")
    return game


@dataclass(frozen=True)
class WeekInfo:
    week: Week
    current: bool
    frozen: bool
    paid: bool


def known_weeks(*, now: datetime | None = None) -> list[WeekInfo]:
    """The current week and every week with a stored row, newest first."""
    current = current_week(now)
    infos = {current.key: WeekInfo(current, True, False, False)}
    for row in LeagueWeek.objects.order_by("-start"):
        week = week_of_row(row)
        infos[row.key] = WeekInfo(
            week, row.key == current.key, row.frozen_at is not None, row.paid_at is not None
        )
    return sorted(infos.values(), key=lambda info: info.week.start, reverse=True)


# --- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One line of the standings."""

    position: int
    user_id: int
    username: str
    points: int
    wins: int
    games: int
    reached_at: datetime

    def as_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "user_id": self.user_id,
            "username": self.username,
            "points": self.points,
            "wins": self.wins,
            "games": self.games,
            "reached_at": self.reached_at.isoformat(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        reached = parse_datetime(data["reached_at"])
        assert reached is not None
        return cls(
            int(data["position"]),
            int(data["user_id"]),
            str(data["username"]),
            int(data["points"]),
            int(data["wins"]),
            int(data["games"]),
            reached,
        )

    def ranking_key(self) -> tuple[int, int, int, int, datetime]:
        return (self.position, self.points, self.wins, self.games, self.reached_at)


@dataclass(frozen=True)
class Standings:
    week: Week
    game: str | None
    frozen: bool
    entries: list[Entry]
    prizes: list[LeaguePrize] = field(default_factory=list)

    def entry_for(self, user_id: int | None) -> Entry | None:
        if user_id is None:
            return None
        return next((e for e in self.entries if e.user_id == user_id), None)


def _points_of(week: Week) -> QuerySet[LeaguePoint]:
    return LeaguePoint.objects.filter(week__key=week.key)


def live_totals(*, week: Week, game: str | None = None) -> list[ranking.Total]:
    """The week's totals from the stored point rows, ranked (one aggregate query)."""
    rows = _points_of(week)
    if game is not None:
        rows = rows.filter(game=game)
    game_rows = Q(kind=LeaguePoint.Kind.GAME)
    grouped = (
        rows.order_by()
        .values("user_id")
        .annotate(
            total=Sum("points"),
            wins=Count("id", filter=game_rows & Q(place=ranking.WIN_PLACE)),
            games=Count("id", filter=game_rows),
            reached_at=Max("earned_at"),
        )
    )
    return ranking.rank(
        ranking.Total(g["user_id"], int(g["total"]), g["wins"], g["games"], g["reached_at"]) for g in grouped
    )


def _usernames(user_ids: Iterable[int]) -> dict[int, str]:
    return dict(get_user_model().objects.filter(pk__in=set(user_ids)).values_list("pk", "username"))


def entries_of(totals: list[ranking.Total]) -> list[Entry]:
    names = _usernames(t.user_id for t in totals)
    return [
        Entry(t.position, t.user_id, names.get(t.user_id, "?"), t.points, t.wins, t.games, t.reached_at)
        for t in totals
    ]


def scopes() -> list[str]:
    """The standings kept for a week: overall, then each game of the catalogue."""
    return [ALL, *CATALOGUE]


def live_standings_by_scope(*, week: Week) -> dict[str, list[Entry]]:
    return {
        scope: entries_of(live_totals(week=week, game=None if scope == ALL else scope)) for scope in scopes()
    }


def standings(*, week: Week, game: str | None = None) -> Standings:
    """The week's standings, overall or for one game: the frozen snapshot once the week is
    closed, else computed live from the point rows."""
    game = check_game(game)
    row = week_row(week)
    if row is not None and row.frozen_at is not None and row.standings is not None:
        frozen = [Entry.from_json(item) for item in row.standings.get(game or ALL, [])]
        prizes = list(row.prizes.select_related("user").order_by("place")) if game is None else []
        return Standings(week, game, True, frozen, prizes)
    return Standings(week, game, False, entries_of(live_totals(week=week, game=game)))


def user_points(*, user: Any, week: Week) -> QuerySet[LeaguePoint]:
    """A player's point rows of a week, newest first, each with its table (provenance)."""
    return _points_of(week).filter(user_id=user.pk).select_related("table").order_by("-earned_at", "-id")


# --- recompute ----------------------------------------------------------------------------

ROW_FIELDS = ("table_id", "game", "seat", "place", "players", "points", "halved", "earned_at")


@dataclass(frozen=True)
class RowDiff:
    """A game row that is missing, unexpected or different; ``stored``/``rebuilt`` are its fields."""

    change: str  # "missing" | "unexpected" | "changed"
    game_result_id: int
    user_id: int
    stored: dict[str, Any] | None
    rebuilt: dict[str, Any] | None


@dataclass(frozen=True)
class StandingDiff:
    """A player whose line differs between two standings of one scope."""

    scope: str
    user_id: int
    username: str
    stored: dict[str, Any] | None
    rebuilt: dict[str, Any] | None


@dataclass
class WeekDiff:
    week: Week
    rows: list[RowDiff] = field(default_factory=list)
    standings: list[StandingDiff] = field(default_factory=list)
    #: only for a frozen week: the snapshot against the rebuilt standings
    frozen: list[StandingDiff] = field(default_factory=list)
    games: int = 0
    checked_rows: int = 0

    @property
    def empty(self) -> bool:
        return not (self.rows or self.standings or self.frozen)


def rebuilt_game_rows(*, week: Week) -> dict[tuple[int, int], dict[str, Any]]:
    """Every game row the week should hold, from its game results alone (PF-15, PF-16, PF-60)."""
    results = GameResult.objects.filter(
        mode__in=LEAGUE_MODES, finished_at__gte=week.start, finished_at__lt=week.end
    ).values("pk", "table_id", "game", "mode", "seats", "simulated", "finished_at")
    rebuilt = {}
    for result in results:
        for earned in table_points(mode=result["mode"], seats=result["seats"], simulated=result["simulated"]):
            rebuilt[(result["pk"], earned.user_id)] = {
                "table_id": result["table_id"],
                "game": result["game"],
                "seat": earned.seat,
                "place": earned.place,
                "players": earned.players,
                "points": earned.points,
                "halved": earned.halved,
                "earned_at": result["finished_at"],
            }
    return rebuilt


def _line(entry: Entry | ranking.Total) -> dict[str, Any]:
    return {
        "position": entry.position,
        "points": entry.points,
        "wins": entry.wins,
        "games": entry.games,
        "reached_at": entry.reached_at,
    }


def _compare(
    scope: str, stored: list[Any], rebuilt: list[ranking.Total], names: dict[int, str]
) -> list[StandingDiff]:
    before = {e.user_id: _line(e) for e in stored}
    after = {t.user_id: _line(t) for t in rebuilt}
    return [
        StandingDiff(scope, uid, names.get(uid, "?"), before.get(uid), after.get(uid))
        for uid in sorted(before.keys() | after.keys())
        if before.get(uid) != after.get(uid)
    ]


def recompute_week(*, week: Week) -> WeekDiff:
    """Rebuild the week's points and standings from the game results (plus the stored
    corrections) and compare them with the stored rows, the live standings and, for a
    closed week, the frozen snapshot. Reads only; an empty diff means all is well."""
    diff = WeekDiff(week)
    rebuilt = rebuilt_game_rows(week=week)
    stored_rows = list(_points_of(week).values("game_result_id", "user_id", "kind", *ROW_FIELDS))
    stored = {
        (r["game_result_id"], r["user_id"]): {name: r[name] for name in ROW_FIELDS}
        for r in stored_rows
        if r["kind"] == LeaguePoint.Kind.GAME
    }
    diff.games = len({key[0] for key in rebuilt})
    diff.checked_rows = len(stored)
    for key in sorted(stored.keys() | rebuilt.keys()):
        before, after = stored.get(key), rebuilt.get(key)
        if before != after:
            change = "missing" if before is None else "unexpected" if after is None else "changed"
            diff.rows.append(RowDiff(change, key[0], key[1], before, after))

    corrections = [
        ranking.Row(r["user_id"], r["points"], r["earned_at"], None, r["game"])
        for r in stored_rows
        if r["kind"] == LeaguePoint.Kind.CORRECTION
    ]
    rows = corrections + [
        ranking.Row(uid, fields["points"], fields["earned_at"], fields["place"], fields["game"])
        for (_result, uid), fields in rebuilt.items()
    ]
    row = week_row(week)
    frozen = row.standings if row is not None and row.frozen_at is not None else None
    names = _usernames({r.user_id for r in rows} | {r["user_id"] for r in stored_rows})
    games_seen = {r.game for r in rows if r.game} | {r["game"] for r in stored_rows if r["game"]}
    games_seen |= {scope for scope, items in (frozen or {}).items() if items and scope != ALL}
    for scope in [ALL, *sorted(games_seen)]:
        game = None if scope == ALL else scope
        again = ranking.standings(rows, game=game)
        diff.standings += _compare(scope, live_totals(week=week, game=game), again, names)
        if frozen is not None:
            snapshot = [Entry.from_json(item) for item in frozen.get(scope, [])]
            diff.frozen += _compare(scope, snapshot, again, names)
    return diff
