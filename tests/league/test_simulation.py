"""A seeded random league, checked against an independent model (PF-15, PF-16, PF-56, PF-60).

2,000 finished games among 100 players over the three weeks around the start of summer time
(2026-W12..W14, the middle one 167 hours long), most online and some buy-in, a few in friends
rooms or against bots (which must earn nothing): random tables of the five games, simulated
players, tied places, Guandan teams, games finishing on the very edge of a week, tables
cancelled or abandoned, the league's signal lost or delivered twice, and weekly closes that
crash half-way and run again. Afterwards, for every week: the standings recomputed from scratch
equal the stored ones and the frozen snapshot, an independent model agrees on every line and on
every prize, each place is paid once, and the ledger audit is clean.

Replay a failure: ``LEAGUE_SEED=<seed> pytest tests/league/test_simulation.py`` (the seed is
in every message); ``LEAGUE_GAMES`` changes the number of games.
"""

from __future__ import annotations

import os
import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from economy import selectors as economy_selectors
from economy.audit import audit_ledger
from economy.models import Transfer
from league import selectors, services
from league.models import LeaguePoint, LeaguePrize
from tests.league.conftest import Crash, crash_at
from tests.league.factories import SIM, cancelled_buyin, finished_game, make_player, new_table

SEED = int(os.environ.get("LEAGUE_SEED", "20260329"))
GAMES = int(os.environ.get("LEAGUE_GAMES", "2000"))
PLAYERS = 100
START = datetime(2026, 3, 15, 23, tzinfo=UTC)  # Monday 16 March 2026 00:00 CET (2026-W12)
END = datetime(2026, 4, 5, 22, tzinfo=UTC)  # Monday 6 April 2026 00:00 CEST
MADRID = ZoneInfo("Europe/Madrid")
SEATS = {"one_card": (2, 4), "pika": (2, 4), "puteo": (2, 6), "skyjo": (2, 6), "guandan": (4, 4)}
US = timedelta(microseconds=1)


def model_week(moment: datetime) -> str:
    """The week's key, worked out independently of league.weeks."""
    local = moment.astimezone(MADRID)
    year, week, _ = (local.date() - timedelta(days=local.weekday())).isocalendar()
    return f"{year}-W{week:02d}"


def competition_ranking(scores: list[int]) -> list[int]:
    """Lower is better; equal scores share a place (1, 2, 2, 4)."""
    return [1 + sum(other < mine for other in scores) for mine in scores]


class Model:
    """What the league must hold: point rows per week as (user, game, points, place, at)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[int, str, int, int, datetime]]] = defaultdict(list)

    def game(self, *, mode: str, game: str, seats: list[Any], placements: list[int], at: datetime) -> None:
        if mode not in ("online", "buyin"):
            return
        n = len(seats)
        halved = SIM in seats
        for who, place in zip(seats, placements, strict=True):
            if who == SIM:
                continue
            points = 10 * (n - place + 1)
            self.rows[model_week(at)].append((who.pk, game, points // 2 if halved else points, place, at))

    def standings(self, week: str, game: str | None) -> list[tuple[int, int, int, int, int, datetime]]:
        acc: dict[int, list[Any]] = {}
        for uid, g, points, place, at in self.rows[week]:
            if game is not None and g != game:
                continue
            line = acc.setdefault(uid, [0, 0, 0, at])
            line[0] += points
            line[1] += place == 1
            line[2] += 1
            line[3] = max(line[3], at)
        ordered = sorted(acc.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[1][3], kv[0]))
        return [(i, uid, p, w, g, t) for i, (uid, (p, w, g, t)) in enumerate(ordered, start=1)]


def moments(rng: random.Random, weeks: list[Any]) -> list[datetime]:
    """Sorted finish times over the three weeks, with some right on the edges of the weeks."""
    span = (END - START).total_seconds()
    times = [START + timedelta(seconds=rng.uniform(0, span)) for _ in range(GAMES - 4 * len(weeks))]
    for week in weeks:
        times += [week.start, week.start + US, week.end - US, week.end - US]
    return sorted(times)


@pytest.mark.slow
@pytest.mark.django_db
def test_a_seeded_random_league_recomputes_to_the_stored_standings_and_the_ledger_is_clean(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.LEAGUE_CLOSE_DELAY_SECONDS = 600
    rng = random.Random(SEED)
    why = f"LEAGUE_SEED={SEED}"
    players = [make_player(f"liga{i:03d}") for i in range(PLAYERS)]
    week_list = [selectors.week_for(START)]
    while week_list[-1].end < END:
        week_list.append(selectors.next_week(week_list[-1]))
    assert [w.key for w in week_list] == ["2026-W12", "2026-W13", "2026-W14"], why
    assert week_list[1].end - week_list[1].start == timedelta(hours=167), why

    model = Model()
    real_record = services.record_game
    lost = repeated = cancelled = crashes = 0
    closes_pending = list(week_list)

    def close_due(now: datetime) -> None:
        nonlocal crashes
        while closes_pending and now >= closes_pending[0].end + timedelta(minutes=10):
            week = closes_pending.pop(0)
            # a close that dies half-way (after some prize, or after the freeze); the last one does
            # if none has yet, so that a short run (LEAGUE_GAMES) meets this hazard too
            if rng.random() < 0.7 or (crashes == 0 and not closes_pending):
                point = rng.choice(
                    ["close.in_freeze", "close.after_freeze", "close.in_prize", "close.after_prize"]
                )
                services.fault_hook = crash_at(
                    point, after=rng.randrange(2) if point == "close.after_prize" else 0
                )
                try:
                    services.close_week(week=week, now=now)
                except Crash:
                    crashes += 1
                finally:
                    services.fault_hook = None
            assert week.key in services.close_due_weeks(now=now), why
            assert services.close_due_weeks(now=now + timedelta(minutes=5)) == [], why  # twice: nothing

    for at in moments(rng, week_list):
        close_due(at)
        game = rng.choice(list(SEATS))
        low, high = SEATS[game]
        n = rng.randint(low, high)
        roll = rng.random()
        mode = "online" if roll < 0.8 else "buyin" if roll < 0.92 else "friends" if roll < 0.96 else "bots"
        sims = rng.randint(1, n - 1) if mode == "online" and rng.random() < 0.3 else 0
        humans = rng.sample(players, n - sims)
        if mode == "buyin" and any(economy_selectors.wallet_balance(user=p) < 100 for p in humans):
            mode = "online"
        seats: list[Any] = list(humans) + [SIM] * sims
        rng.shuffle(seats)
        if game == "guandan":
            placements = [1, 3, 1, 3] if rng.random() < 0.5 else [3, 1, 3, 1]
        else:
            placements = competition_ranking([rng.randint(0, 3) for _ in seats])

        if rng.random() < 0.04:  # cancelled or abandoned tables: no game, no points
            cancelled += 1
            if mode == "buyin":
                cancelled_buyin(seats=humans, at=at, game=game)
            else:
                new_table(game=game, mode=mode, seats=seats, at=at)
        signal_lost = rng.random() < 0.03
        if signal_lost:
            lost += 1
            monkeypatch.setattr(
                services, "record_game", lambda **kw: (_ for _ in ()).throw(RuntimeError("lost"))
            )
        result = finished_game(seats=seats, placements=placements, at=at, game=game, mode=mode, stake=100)
        if signal_lost:
            monkeypatch.setattr(services, "record_game", real_record)
        if rng.random() < 0.03:
            repeated += 1
            services.on_game_finished(sender=None, game_result=result)
        model.game(mode=mode, game=game, seats=seats, placements=placements, at=at)
    close_due(END + timedelta(hours=1))
    assert closes_pending == [], why
    assert lost and repeated and cancelled and crashes, why  # the run exercised every hazard

    prizes_paid = 0
    for week in week_list:
        diff = selectors.recompute_week(week=week)
        assert diff.empty, (why, week.key, diff.rows[:3], diff.standings[:3], diff.frozen[:3])
        assert diff.checked_rows == len(model.rows[week.key]), (why, week.key)
        for scope in selectors.scopes():
            game = None if scope == selectors.ALL else scope
            expected = model.standings(week.key, game)
            frozen = selectors.standings(week=week, game=game)
            assert frozen.frozen, (why, week.key)
            got = [(e.position, e.user_id, e.points, e.wins, e.games, e.reached_at) for e in frozen.entries]
            assert got == expected, (why, week.key, scope)
            live = selectors.live_totals(week=week, game=game)
            assert [
                (t.position, t.user_id, t.points, t.wins, t.games, t.reached_at) for t in live
            ] == expected
        top = [line for line in model.standings(week.key, None) if line[2] > 0][:3]
        prizes = LeaguePrize.objects.filter(week__key=week.key).order_by("place")
        assert [(p.place, p.user_id, p.amount, p.transfer.key) for p in prizes] == [
            (i, line[1], (1000, 500, 250)[i - 1], f"prize:{week.key}:{i}")
            for i, line in enumerate(top, start=1)
        ], (why, week.key)
        prizes_paid += len(top)
    assert Transfer.objects.filter(kind=Transfer.Kind.PRIZE).count() == prizes_paid == 9, why
    assert LeaguePoint.objects.count() == sum(len(rows) for rows in model.rows.values()), why
    report = audit_ledger()
    assert report.ok, (why, report.problems[:5])
