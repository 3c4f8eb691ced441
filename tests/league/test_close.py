"""The week's close (PF-60): standings frozen in a snapshot, 1,000 / 500 / 250 paid through
``pay_league_prize`` exactly once — run twice, concurrently, or again after a crash half-way;
ties at a prize place decided by the ranking rule, never by database order."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from economy.audit import audit_ledger
from economy.errors import EconomyError
from economy.models import Transfer
from economy.services import pay_league_prize
from league import selectors, services, tasks
from league.errors import LeagueError
from league.models import LeaguePoint, LeaguePrize, LeagueWeek
from tests.league.conftest import Crash, crash_at
from tests.league.factories import WINTER_MONDAY, finished_game, make_player

pytestmark = pytest.mark.django_db
MON = WINTER_MONDAY


def day(n: int, hour: int = 12) -> Any:
    """Day n (0 = Monday) of week 2026-W49 at ``hour`` Madrid time."""
    return MON + timedelta(days=n, hours=hour)


def fillers(n: int) -> list[Any]:
    return [make_player() for _ in range(n)]


def prize_transfers() -> list[tuple[str, int, int]]:
    rows = Transfer.objects.filter(kind=Transfer.Kind.PRIZE).order_by("key")
    return [(t.key, t.user_id, next(e.amount for e in t.entries.all() if e.amount > 0)) for t in rows]


def a_week_with_four_players() -> tuple[Any, list[Any]]:
    """a 100, d 60 (1 win, Tue), c 60 (1 win, Thu), b 60 (0 wins) — b's games recorded first."""
    a, b, c, d = make_player("ana"), make_player("bea"), make_player("carla"), make_player("dani")
    # b first in the database (lowest id, first rows): database order would put b 2nd
    finished_game(seats=[b, *fillers(3)], placements=[2, 1, 3, 4], at=day(2, 10))
    finished_game(seats=[b, *fillers(3)], placements=[2, 1, 3, 4], at=day(2, 11))
    finished_game(seats=[c, *fillers(3)], placements=[1, 2, 3, 4], at=day(3, 10))
    finished_game(seats=[c, *fillers(3)], placements=[3, 1, 2, 4], at=day(3, 11))
    # d's games are recorded last though they finished earliest
    finished_game(seats=[d, *fillers(3)], placements=[1, 2, 3, 4], at=day(1, 10))
    finished_game(seats=[d, *fillers(3)], placements=[3, 1, 2, 4], at=day(1, 11))
    for n in range(3):
        finished_game(
            seats=[a, *fillers(3)], placements=[1 if n < 2 else 3, 2, 1 if n == 2 else 3, 4], at=day(0, 9 + n)
        )
    return selectors.week_for(day(2)), [a, b, c, d]


def test_pf60_ties_at_prize_places_follow_the_ranking_rule_not_database_order() -> None:
    week, (a, _b, c, d) = a_week_with_four_players()
    top = selectors.standings(week=week).entries[:4]
    assert [(e.username, e.points, e.wins) for e in top] == [
        ("ana", 100, 2),
        ("dani", 60, 1),  # reached 60 on Tuesday
        ("carla", 60, 1),  # reached 60 on Thursday
        ("bea", 60, 0),  # no win
    ]
    services.close_week(week=week, now=week.end)
    assert [(p.place, p.user_id, p.amount) for p in LeaguePrize.objects.order_by("place")] == [
        (1, a.pk, 1000),
        (2, d.pk, 500),
        (3, c.pk, 250),
    ]


def test_pf60_a_full_tie_goes_to_the_older_account() -> None:
    x, y = make_player("xavi"), make_player("yago")
    f1, f2 = make_player("f1"), make_player("f2")
    # Guandan partners x and y: the same place, points, wins and moment
    finished_game(seats=[y, f2, x, f1], placements=[1, 3, 1, 3], at=day(4), game="guandan")
    week = selectors.week_for(day(4))
    services.close_week(week=week, now=week.end)
    assert [(p.place, p.user_id, p.points) for p in LeaguePrize.objects.order_by("place")] == [
        (1, x.pk, 40),
        (2, y.pk, 40),
        (3, f1.pk, 20),
    ]


def test_pf60_close_freezes_the_standings_and_pays_the_top_three_once() -> None:
    week, (a, _b, c, d) = a_week_with_four_players()
    live = selectors.standings(week=week)
    row = services.close_week(week=week, now=week.end + timedelta(minutes=10))
    assert row.frozen_at is not None and row.paid_at is not None
    assert row.standings is not None and set(row.standings) == set(selectors.scopes())
    frozen = selectors.standings(week=week)
    assert frozen.frozen and frozen.entries == live.entries
    assert [p.user_id for p in frozen.prizes] == [a.pk, d.pk, c.pk]
    assert prize_transfers() == [
        ("prize:2026-W49:1", a.pk, 1000),
        ("prize:2026-W49:2", d.pk, 500),
        ("prize:2026-W49:3", c.pk, 250),
    ]
    # run again, and again through the beat: nothing more
    services.close_week(week=week, now=week.end + timedelta(hours=1))
    assert services.close_due_weeks(now=week.end + timedelta(hours=2)) == []
    assert len(prize_transfers()) == 3
    assert audit_ledger().ok


def test_close_is_refused_before_the_week_ends() -> None:
    week = selectors.week_for(day(2))
    with pytest.raises(LeagueError) as err:
        services.close_week(week=week, now=week.end - timedelta(microseconds=1))
    assert err.value.code == "week_not_over"
    assert not LeagueWeek.objects.filter(frozen_at__isnull=False).exists()


@pytest.mark.django_db(transaction=True)  # real commits between the steps
@pytest.mark.parametrize(
    "point,runs_to_fail",
    [
        ("close.in_freeze", 1),  # dies inside the freeze: nothing stored
        ("close.after_freeze", 1),  # frozen, nothing paid yet
        ("close.in_prize", 1),  # 1st place paid inside the transaction, dies before linking: rolled back
        ("close.after_prize", 1),  # 1st place paid and linked, dies before the 2nd
        ("close.after_prize", 2),  # dies after the 2nd
    ],
)
def test_a_close_crashing_half_way_is_finished_by_the_next_run_paying_each_place_once(
    league_fault: Any, point: str, runs_to_fail: int
) -> None:
    week, (a, _b, c, d) = a_week_with_four_players()
    league_fault(crash_at(point, after=runs_to_fail - 1))
    with pytest.raises(Crash):
        services.close_week(week=week, now=week.end)
    league_fault(None)
    row = LeagueWeek.objects.get(key=week.key)
    assert row.paid_at is None
    paid_before = prize_transfers()
    assert len(paid_before) == (runs_to_fail if point == "close.after_prize" else 0)
    services.close_week(week=week, now=week.end + timedelta(minutes=5))
    assert prize_transfers() == [
        ("prize:2026-W49:1", a.pk, 1000),
        ("prize:2026-W49:2", d.pk, 500),
        ("prize:2026-W49:3", c.pk, 250),
    ]
    assert LeagueWeek.objects.get(key=week.key).paid_at is not None
    assert audit_ledger().ok


@pytest.mark.django_db(transaction=True)
def test_a_crash_inside_the_ledger_rolls_the_prize_back_and_the_next_run_pays_it(ledger_fault: Any) -> None:
    week, (a, _b, c, d) = a_week_with_four_players()
    ledger_fault(crash_at("ledger.after_entries", after=1))  # the 2nd prize's transfer dies mid-way
    with pytest.raises(Crash):
        services.close_week(week=week, now=week.end)
    ledger_fault(None)
    assert [t[0] for t in prize_transfers()] == ["prize:2026-W49:1"]
    services.close_week(week=week, now=week.end)
    assert [t[1] for t in prize_transfers()] == [a.pk, d.pk, c.pk]
    assert audit_ledger().ok


def test_a_payment_whose_link_was_lost_is_found_again_not_paid_twice() -> None:
    week, (a, *_rest) = a_week_with_four_players()
    # as if an earlier close paid 1st place and died before recording it
    first = pay_league_prize(user=a, week=week.key, place=1)
    services.close_week(week=week, now=week.end)
    assert LeaguePrize.objects.get(place=1).transfer_id == first.pk
    assert len(prize_transfers()) == 3


def test_a_place_paid_to_someone_else_stops_the_close_loudly() -> None:
    week, (_a, b, *_rest) = a_week_with_four_players()
    pay_league_prize(user=b, week=week.key, place=1)  # a wrong manual payment
    with pytest.raises(EconomyError) as err:
        services.close_week(week=week, now=week.end)
    assert err.value.code == "prize_place_taken"
    assert LeagueWeek.objects.get(key=week.key).paid_at is None
    assert services.close_due_weeks(now=week.end + timedelta(hours=1)) == []  # logged, retried later
    assert [t[1] for t in prize_transfers() if t[0].endswith(":1")] == [b.pk]


def test_fewer_than_three_players_with_points_get_fewer_prizes() -> None:
    a, b = make_player(), make_player()
    finished_game(seats=[a, b], placements=[1, 2], at=day(2))
    week = selectors.week_for(day(2))
    services.add_correction(
        user=b, week=week, points=-10, reason="juego sucio", actor=make_player(is_staff=True), now=day(3)
    )
    row = services.close_week(week=week, now=week.end)
    assert [(p.place, p.user_id) for p in row.prizes.all()] == [(1, a.pk)]  # b has 0 points
    assert row.paid_at is not None


def test_a_game_settled_after_the_close_keeps_its_provenance_but_the_frozen_week_does_not_move() -> None:
    week, players = a_week_with_four_players()
    services.close_week(week=week, now=week.end)
    before = selectors.standings(week=week)
    late = finished_game(seats=[players[1], *fillers(3)], placements=[1, 2, 3, 4], at=day(6, 23))
    assert LeaguePoint.objects.filter(game_result=late).count() == 4
    after = selectors.standings(week=week)
    assert after.entries == before.entries and after.frozen
    assert len(prize_transfers()) == 3
    diff = selectors.recompute_week(week=week)
    assert diff.rows == [] and diff.standings == []  # the rows are all there and add up
    assert diff.frozen  # and the admin sees that the frozen standings no longer match them


def test_the_beat_closes_a_week_after_the_delay_even_an_empty_one(settings: Any) -> None:
    settings.LEAGUE_CLOSE_DELAY_SECONDS = 600
    a, b = make_player(), make_player()
    finished_game(seats=[a, b], placements=[1, 2], at=day(2))
    week = selectors.week_for(day(2))
    assert services.close_due_weeks(now=week.end + timedelta(minutes=9)) == []
    assert services.close_due_weeks(now=week.end + timedelta(minutes=10)) == [week.key]
    assert services.close_due_weeks(now=week.end + timedelta(minutes=15)) == []
    # a week nobody played is closed too, with empty standings and no prizes
    later = selectors.next_week(week)
    assert services.close_due_weeks(now=later.end + timedelta(hours=1)) == [later.key]
    empty = LeagueWeek.objects.get(key=later.key)
    assert empty.paid_at is not None and empty.standings == {scope: [] for scope in selectors.scopes()}
    assert len(prize_transfers()) == 2


def test_the_beat_task_is_thin_and_safe_to_run_twice() -> None:
    a, b = make_player(), make_player()
    finished_game(seats=[a, b], placements=[1, 2], at=timezone.now() - timedelta(days=8))
    closed = tasks.close_weeks_task()
    assert closed and tasks.close_weeks_task() == []
    assert len(prize_transfers()) == 2
    assert tasks.close_week_task(closed[0]) == closed[0]
    assert len(prize_transfers()) == 2


def test_the_beat_schedule_has_the_league_close() -> None:
    from config.celery import app

    assert app.conf.beat_schedule["league-close-weeks"]["task"] == "league.close_weeks"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_eight_closes_racing_pay_each_place_once(require_postgres: None) -> None:
    week, (a, _b, c, d) = a_week_with_four_players()
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def close() -> None:
        try:
            barrier.wait()
            services.close_week(week=week, now=week.end)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=close) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [t[1] for t in prize_transfers()] == [a.pk, d.pk, c.pk]
    assert LeaguePrize.objects.count() == 3
    assert audit_ledger().ok
