"""PF-60 points and the ranking rule, as pure functions (league/points.py, league/ranking.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.points import game_points, place_points, table_points
from league.ranking import Row, Total, rank, standings, totals

T = datetime(2026, 12, 1, 12, tzinfo=UTC)


def seat(i: int, kind: str, place: int, user_id: int | None = None) -> dict[str, object]:
    return {"seat": i, "kind": kind, "user_id": user_id, "name": f"s{i}", "place": place}


def test_pf60_place_p_of_n_earns_10_times_n_minus_p_plus_1() -> None:
    assert [place_points(place=p, players=4) for p in (1, 2, 3, 4)] == [40, 30, 20, 10]
    assert [place_points(place=p, players=2) for p in (1, 2)] == [20, 10]
    assert place_points(place=1, players=12) == 120
    assert place_points(place=12, players=12) == 10


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_pf60_halving_stays_whole(n_p: tuple[int, int]) -> None:
    n, p = n_p
    full = game_points(place=p, players=n, halved=False)
    half = game_points(place=p, players=n, halved=True)
    assert full % 10 == 0 and half * 2 == full


@pytest.mark.parametrize("place,players", [(0, 4), (5, 4), (1, 0), (True, 4), (1.0, 4), ("1", 4)])
def test_bad_places_are_refused(place: object, players: object) -> None:
    with pytest.raises(ValueError):
        place_points(place=place, players=players)  # type: ignore[arg-type]


def test_pf15_only_online_and_buyin_tables_earn() -> None:
    seats = [seat(0, "human", 1, 7), seat(1, "human", 2, 8)]
    assert [e.points for e in table_points(mode="online", seats=seats)] == [20, 10]
    assert [e.points for e in table_points(mode="buyin", seats=seats)] == [20, 10]
    assert table_points(mode="friends", seats=seats) == []
    assert table_points(mode="bots", seats=seats) == []


def test_pf16_a_simulated_seat_halves_every_human_and_earns_nothing_but_counts_in_n() -> None:
    seats = [seat(0, "human", 2, 7), seat(1, "simulated", 1), seat(2, "human", 3, 8), seat(3, "human", 4, 9)]
    earned = table_points(mode="online", seats=seats)
    assert [(e.user_id, e.place, e.players, e.points, e.halved) for e in earned] == [
        (7, 2, 4, 15, True),
        (8, 3, 4, 10, True),
        (9, 4, 4, 5, True),
    ]
    # the table's own flag halves too
    plain = [seat(0, "human", 1, 7), seat(1, "human", 2, 8)]
    assert [e.points for e in table_points(mode="online", seats=plain, simulated=True)] == [10, 5]


def test_pf61_guests_and_bots_earn_nothing_but_keep_their_places() -> None:
    seats = [seat(0, "guest", 1), seat(1, "human", 2, 8), seat(2, "bot", 3)]
    assert [(e.user_id, e.points) for e in table_points(mode="online", seats=seats)] == [(8, 20)]


def test_pf56_guandan_partners_share_their_team_place() -> None:
    seats = [seat(0, "human", 1, 1), seat(1, "human", 3, 2), seat(2, "human", 1, 3), seat(3, "human", 3, 4)]
    assert [e.points for e in table_points(mode="online", seats=seats)] == [40, 20, 40, 20]


def test_tied_places_each_earn_the_place_they_share() -> None:
    seats = [seat(0, "human", 1, 1), seat(1, "human", 2, 2), seat(2, "human", 2, 3), seat(3, "human", 4, 4)]
    assert [e.points for e in table_points(mode="online", seats=seats)] == [40, 30, 30, 10]


def test_ranking_points_then_games_won_then_who_reached_the_total_first() -> None:
    rows = [
        # user 1: 60 points, 1 win, reached at T+3
        Row(1, 40, T + timedelta(hours=1), 1),
        Row(1, 20, T + timedelta(hours=3), 3),
        # user 2: 60 points, 0 wins
        Row(2, 30, T, 2),
        Row(2, 30, T + timedelta(hours=1), 2),
        # user 3: 60 points, 1 win, reached at T+2 → ahead of user 1
        Row(3, 20, T, 3),
        Row(3, 40, T + timedelta(hours=2), 1),
        # user 4: 70 points
        Row(4, 70, T + timedelta(days=3), None),
    ]
    assert [(t.position, t.user_id) for t in standings(rows)] == [(1, 4), (2, 3), (3, 1), (4, 2)]


def test_ranking_never_depends_on_input_order() -> None:
    rows = [Row(u, 10 * (u % 3 + 1), T + timedelta(minutes=u % 4), 1 if u % 2 else 2) for u in range(1, 40)]
    expected = standings(rows)
    rng = random.Random(5)
    for _ in range(20):
        rng.shuffle(rows)
        assert standings(rows) == expected


def test_a_full_tie_falls_to_the_older_account_not_to_row_order() -> None:
    # Guandan partners with the same single game: equal on points, wins and time
    rows = [Row(9, 40, T, 1), Row(3, 40, T, 1)]
    assert [t.user_id for t in standings(rows)] == [3, 9]
    assert [t.user_id for t in standings(list(reversed(rows)))] == [3, 9]


def test_the_total_is_reached_by_the_last_row_even_a_negative_correction() -> None:
    rows = [Row(1, 40, T, 1), Row(1, -10, T + timedelta(days=1)), Row(2, 30, T + timedelta(hours=1), 2)]
    one, _two = sorted(totals(rows), key=lambda t: t.user_id)
    assert (one.points, one.wins, one.games, one.reached_at) == (30, 1, 1, T + timedelta(days=1))
    # equal points and wins are 1 vs 0: user 1 first despite reaching later
    assert [t.user_id for t in standings(rows)] == [1, 2]


def test_standings_per_game_only_count_that_games_rows() -> None:
    rows = [
        Row(1, 40, T, 1, "pika"),
        Row(2, 30, T, 2, "pika"),
        Row(2, 40, T, 1, "skyjo"),
        Row(1, -5, T, None, ""),
    ]
    assert [(t.user_id, t.points) for t in standings(rows, game="pika")] == [(1, 40), (2, 30)]
    assert [(t.user_id, t.points) for t in standings(rows)] == [(2, 70), (1, 35)]
    assert [t.user_id for t in standings(rows, game="skyjo")] == [2]


def test_rank_numbers_positions_one_by_one() -> None:
    ranked = rank([Total(5, 10, 0, 1, T), Total(6, 10, 0, 1, T), Total(7, 20, 1, 1, T)])
    assert [(t.position, t.user_id) for t in ranked] == [(1, 7), (2, 5), (3, 6)]
