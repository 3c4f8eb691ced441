"""Points of finished games (PF-15, PF-16, PF-56, PF-60, PF-61): recorded from the settlement's
``game_finished`` signal, once, each linked to its table and game result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import DatabaseError, transaction

from cardgames.tables.models import GameResult
from economy.models import Pot
from league import services
from league.models import LeaguePoint, LeagueWeek
from tests.league.factories import (
    GUEST,
    SIM,
    WINTER_MONDAY,
    cancelled_buyin,
    finished_game,
    make_player,
    new_table,
)

pytestmark = pytest.mark.django_db
US = timedelta(microseconds=1)
WED = WINTER_MONDAY + timedelta(days=2)


def points_of(result: GameResult) -> list[tuple[int, int, int, int, bool]]:
    rows = LeaguePoint.objects.filter(game_result=result).order_by("seat")
    return [(p.user_id, p.place, p.players, p.points, p.halved) for p in rows]


def test_pf60_an_online_game_earns_10_n_minus_p_plus_1_linked_to_its_table_and_result() -> None:
    a, b, c, d = (make_player() for _ in range(4))
    result = finished_game(seats=[a, b, c, d], placements=[2, 1, 4, 3], at=WED)
    assert points_of(result) == [
        (a.pk, 2, 4, 30, False),
        (b.pk, 1, 4, 40, False),
        (c.pk, 4, 4, 10, False),
        (d.pk, 3, 4, 20, False),
    ]
    for point in LeaguePoint.objects.filter(game_result=result):
        assert point.kind == LeaguePoint.Kind.GAME
        assert point.table_id == result.table_id and point.game_result_id == result.pk
        assert point.game == "pika" and point.earned_at == WED
        assert point.week.key == "2026-W49"


def test_pf15_buyin_tables_count_and_their_pot_is_settled() -> None:
    a, b, c = (make_player() for _ in range(3))
    result = finished_game(seats=[a, b, c], placements=[1, 2, 3], at=WED, mode="buyin", stake=250)
    assert points_of(result) == [(a.pk, 1, 3, 30, False), (b.pk, 2, 3, 20, False), (c.pk, 3, 3, 10, False)]
    assert Pot.objects.get(reference=f"table:{result.table_id}").status == Pot.Status.SETTLED


@pytest.mark.parametrize("mode", ["friends", "bots"])
def test_pf15_friends_rooms_and_bot_games_earn_no_points(mode: str) -> None:
    a, b = make_player(), make_player()
    result = finished_game(seats=[a, b], placements=[1, 2], at=WED, mode=mode)
    assert points_of(result) == []
    assert services.record_game(game_result=result) == 0


def test_pf16_a_simulated_player_halves_every_human_and_earns_nothing() -> None:
    a, b, c = (make_player() for _ in range(3))
    result = finished_game(seats=[a, SIM, b, c], placements=[2, 1, 3, 4], at=WED)
    assert points_of(result) == [(a.pk, 2, 4, 15, True), (b.pk, 3, 4, 10, True), (c.pk, 4, 4, 5, True)]


def test_pf61_guests_earn_nothing_and_count_in_n() -> None:
    a = make_player()
    result = finished_game(seats=[GUEST, a], placements=[1, 2], at=WED)
    assert points_of(result) == [(a.pk, 2, 2, 10, False)]


def test_pf56_guandan_partners_share_their_teams_place() -> None:
    a, b, c, d = (make_player() for _ in range(4))
    result = finished_game(seats=[a, b, c, d], placements=[3, 1, 3, 1], at=WED, game="guandan")
    assert points_of(result) == [
        (a.pk, 3, 4, 20, False),
        (b.pk, 1, 4, 40, False),
        (c.pk, 3, 4, 20, False),
        (d.pk, 1, 4, 40, False),
    ]


def test_ties_share_a_place_and_its_points() -> None:
    a, b, c, d = (make_player() for _ in range(4))
    result = finished_game(seats=[a, b, c, d], placements=[1, 2, 2, 4], at=WED)
    assert [p[3] for p in points_of(result)] == [40, 30, 30, 10]


def test_recording_is_idempotent_one_row_per_game_and_user() -> None:
    a, b = make_player(), make_player()
    result = finished_game(seats=[a, b], placements=[1, 2], at=WED)
    assert services.record_game(game_result=result) == 0
    services.on_game_finished(sender=GameResult, game_result=result)
    assert LeaguePoint.objects.filter(game_result=result).count() == 2
    with pytest.raises(DatabaseError), transaction.atomic():
        LeaguePoint.objects.create(
            week=LeagueWeek.objects.get(),
            user=a,
            kind="game",
            game="pika",
            table_id=result.table_id,
            game_result=result,
            seat=0,
            place=1,
            players=2,
            points=20,
            earned_at=WED,
        )


def test_cancelled_tables_earn_nothing() -> None:
    a, b = make_player(), make_player()
    cancelled_buyin(seats=[a, b], at=WED)
    new_table(game="pika", mode="online", seats=[a, b], at=WED)  # still playing, never finished
    assert LeaguePoint.objects.count() == 0
    assert services.record_missing_games(week=services.selectors.week_for(WED)) == 0


@pytest.mark.parametrize(
    "finished_at,key",
    [
        (WINTER_MONDAY - US, "2026-W48"),  # Sunday 23:59:59.999999 in Madrid
        (WINTER_MONDAY, "2026-W49"),  # Monday 00:00 in Madrid
        (datetime(2026, 3, 29, 22, tzinfo=UTC) - US, "2026-W13"),  # the week summer time starts
        (datetime(2026, 3, 29, 22, tzinfo=UTC), "2026-W14"),
        (datetime(2026, 10, 25, 23, tzinfo=UTC) - US, "2026-W43"),  # the week summer time ends
        (datetime(2026, 10, 25, 23, tzinfo=UTC), "2026-W44"),
    ],
)
def test_pf60_a_game_counts_in_the_week_it_finished_in_league_time(finished_at: datetime, key: str) -> None:
    a, b = make_player(), make_player()
    result = finished_game(seats=[a, b], placements=[1, 2], at=finished_at)
    assert set(LeaguePoint.objects.filter(game_result=result).values_list("week__key", flat=True)) == {key}


def test_point_rows_are_append_only_in_the_database() -> None:
    a, b = make_player(), make_player()
    finished_game(seats=[a, b], placements=[1, 2], at=WED)
    point = LeaguePoint.objects.get(user=a)
    with pytest.raises(DatabaseError), transaction.atomic():
        LeaguePoint.objects.filter(pk=point.pk).update(points=1000)
    with pytest.raises(DatabaseError), transaction.atomic():
        point.delete()
    point.refresh_from_db()
    assert point.points == 20


def test_a_lost_signal_is_caught_up_and_never_breaks_the_settlement(monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = make_player(), make_player()

    def broken(**kwargs: object) -> int:
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "record_game", broken)
    result = finished_game(seats=[a, b], placements=[1, 2], at=WED)  # the receiver logs, settlement done
    assert result.table.settled_at is not None
    assert LeaguePoint.objects.count() == 0
    monkeypatch.undo()
    week = services.selectors.week_for(WED)
    assert services.record_missing_games(week=week) == 2
    assert services.record_missing_games(week=week) == 0
    assert points_of(result) == [(a.pk, 1, 2, 20, False), (b.pk, 2, 2, 10, False)]
