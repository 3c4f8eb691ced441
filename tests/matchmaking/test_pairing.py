"""The pure pairing of matchmaking waves (cardgames/matchmaking/pairing.py): examples and
Hypothesis properties — every entry placed once, FCFS, full tables of people first, ratings
only decide who plays with whom — plus its purity and its speed on 10,000 entries."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.matchmaking.pairing import Entry, NewTable, OpenTable, Plan, plan_wave, position_in_queue

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"one_card": (2, 4), "guandan": (4, 4), "puteo": (2, 12)}


def entry(i: int, *, game: str = "one_card", players: int = 4, stake: int = 0, rating: float = 0.0) -> Entry:
    return Entry(id=i, user_id=1000 + i, game=game, players=players, stake=stake, order=i, rating=rating)


def table(i: int, seated: int, *, game: str = "one_card", players: int = 4, stake: int = 0) -> OpenTable:
    return OpenTable(
        id=i, game=game, players=players, stake=stake, seated=seated, order=i,
        user_ids=frozenset(range(9000 + 10 * i, 9000 + 10 * i + seated)),
    )  # fmt: skip


# -- examples ----------------------------------------------------------------------------------------
def test_eight_players_of_one_bucket_make_two_full_tables_in_arrival_order() -> None:
    plan = plan_wave([entry(i) for i in range(8, 0, -1)])  # input order does not matter
    assert [t.entry_ids for t in plan.tables] == [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert all(t.full for t in plan.tables) and plan.fills == ()


def test_leftovers_sit_at_one_partial_table_so_their_clock_starts() -> None:
    plan = plan_wave([entry(i) for i in range(1, 7)])
    assert [(t.entry_ids, t.full) for t in plan.tables] == [((1, 2, 3, 4), True), ((5, 6), False)]


def test_open_tables_are_filled_first_oldest_table_with_the_oldest_entries() -> None:
    plan = plan_wave([entry(i) for i in range(1, 6)], [table(20, 1), table(10, 2)])
    # table 10 is older: it takes the two oldest entries and starts; table 20 the next three
    assert plan.fills == (type(plan.fills[0])(10, (1, 2)), type(plan.fills[0])(20, (3, 4, 5)))
    assert plan.tables == ()


def test_a_new_partial_table_opens_only_when_no_open_table_has_room() -> None:
    plan = plan_wave([entry(i) for i in range(1, 4)], [table(10, 3)])
    assert [f.entry_ids for f in plan.fills] == [(1,)]
    assert [(t.entry_ids, t.full) for t in plan.tables] == [((2, 3), False)]


def test_buckets_never_mix_game_players_or_stake() -> None:
    entries = [
        entry(1),
        entry(2, stake=100),
        entry(3, players=2),
        entry(4, game="pika"),
        entry(5, stake=100),
        entry(6, players=2),
    ]
    plan = plan_wave(entries, [table(10, 3, stake=250)])
    assert plan.fills == ()  # nobody queued at 250
    groups = sorted(t.entry_ids for t in plan.tables)
    assert groups == [(1,), (2, 5), (3, 6), (4,)]
    assert next(t for t in plan.tables if t.entry_ids == (3, 6)).full


def test_guandan_is_four_players() -> None:
    plan = plan_wave([entry(i, game="guandan") for i in range(1, 10)])
    assert [len(t.entry_ids) for t in plan.tables] == [4, 4, 1]


def test_ratings_group_close_players_among_the_tables_fcfs_chose() -> None:
    ratings = [30, 1, 29, 2, 31, 3, 28, 0, 50]  # entry 9 (50) came last: it waits at the partial table
    plan = plan_wave([entry(i + 1, rating=r) for i, r in enumerate(ratings)])
    # the table holding the oldest entry (1) is listed first, each table in rating order
    assert [t.entry_ids for t in plan.tables] == [(7, 3, 1, 5), (8, 2, 4, 6), (9,)]


def test_without_ratings_the_grouping_is_plain_fcfs() -> None:
    plan = plan_wave([entry(i) for i in range(1, 13)])
    assert [t.entry_ids for t in plan.tables] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]


def test_a_second_entry_of_a_user_or_an_already_seated_user_is_held() -> None:
    twin = Entry(id=2, user_id=1001, game="one_card", players=4, stake=0, order=2)
    seated = Entry(id=3, user_id=9100, game="one_card", players=4, stake=0, order=3)
    plan = plan_wave([entry(1), twin, seated], [table(10, 1)])
    assert plan.held == (2, 3)
    assert [f.entry_ids for f in plan.fills] == [(1,)]


def test_queue_position_counts_only_the_entries_of_the_same_bucket() -> None:
    entries = [entry(1), entry(2, stake=100), entry(3), entry(4)]
    assert position_in_queue(entries, 4) == (3, 3)
    assert position_in_queue(entries, 2) == (1, 1)
    assert position_in_queue(entries, 99) == (0, 0)


# -- properties ----------------------------------------------------------------------------------------
@st.composite
def queues(draw: st.DrawFn) -> tuple[list[Entry], list[OpenTable]]:
    n = draw(st.integers(0, 60))
    entries = []
    for i in range(n):
        game = draw(st.sampled_from(sorted(GAMES)))
        low, high = GAMES[game]
        entries.append(
            Entry(
                id=i + 1,
                user_id=draw(st.integers(1, 80)),  # repeated users happen on stale input
                game=game,
                players=draw(st.integers(low, min(high, 5))),
                stake=draw(st.sampled_from([0, 0, 100, 1000])),
                order=draw(st.integers(0, 30)),  # ties in order are broken by id
                rating=draw(st.sampled_from([0.0, 0.0, -3.5, 7.25, 12.0])),
            )
        )
    tables = []
    for j in range(draw(st.integers(0, 6))):
        game = draw(st.sampled_from(sorted(GAMES)))
        low, high = GAMES[game]
        players = draw(st.integers(low, min(high, 5)))
        seated = draw(st.integers(1, players))
        users = frozenset(draw(st.lists(st.integers(1, 200), min_size=seated, max_size=seated, unique=True)))
        tables.append(
            OpenTable(
                id=500 + j,
                game=game,
                players=players,
                stake=draw(st.sampled_from([0, 100])),
                seated=seated,
                order=draw(st.integers(0, 30)),
                user_ids=users,
            )
        )
    return entries, tables


def placements(plan: Plan) -> list[int]:
    return [i for f in plan.fills for i in f.entry_ids] + [i for t in plan.tables for i in t.entry_ids]


def fcfs_key(e: Entry) -> tuple[int, int]:
    return (e.order, e.id)


@settings(max_examples=400, deadline=None)
@given(queues())
def test_every_entry_is_placed_once_or_held_and_no_table_overflows(case) -> None:
    entries, tables = case
    plan = plan_wave(entries, tables)
    placed = placements(plan)
    assert len(placed) == len(set(placed))
    assert sorted(placed + list(plan.held)) == sorted(e.id for e in entries)
    by_id = {e.id: e for e in entries}
    by_table = {t.id: t for t in tables}
    users = [by_id[i].user_id for i in placed]
    assert len(users) == len(set(users)), "a user placed twice"
    seated_users = {u for t in tables for u in t.user_ids}
    assert not seated_users & set(users), "a user already at an open table placed again"
    for fill in plan.fills:
        t = by_table[fill.table_id]
        assert 0 < len(fill.entry_ids) <= t.free
        assert all(by_id[i].bucket == t.bucket for i in fill.entry_ids)
    for new in plan.tables:
        assert 0 < len(new.entry_ids) <= new.players
        assert all(by_id[i].bucket == (new.game, new.players, new.stake) for i in new.entry_ids)


@settings(max_examples=400, deadline=None)
@given(queues())
def test_fcfs_and_full_tables_of_people_first(case) -> None:
    entries, tables = case
    plan = plan_wave(entries, tables)
    by_id = {e.id: e for e in entries}
    buckets = {by_id[i].bucket for i in placements(plan)}
    for bucket in buckets:
        fills = [f for f in plan.fills if next(t for t in tables if t.id == f.table_id).bucket == bucket]
        full = [t for t in plan.tables if (t.game, t.players, t.stake) == bucket and t.full]
        partial = [t for t in plan.tables if (t.game, t.players, t.stake) == bucket and not t.full]
        # at most one partial table per bucket and wave, and only if every open table was filled
        assert len(partial) <= 1
        open_in_bucket = [t for t in tables if t.bucket == bucket and t.free > 0]
        if partial:
            filled = {f.table_id: len(f.entry_ids) for f in fills}
            assert all(filled.get(t.id, 0) == t.free for t in open_in_bucket)
        # FCFS: fills take the oldest entries, then full tables, then the partial one
        tiers = [
            [by_id[i] for f in fills for i in f.entry_ids],
            [by_id[i] for t in full for i in t.entry_ids],
            [by_id[i] for t in partial for i in t.entry_ids],
        ]
        tiers = [tier for tier in tiers if tier]
        for older, newer in itertools.pairwise(tiers):
            assert max(map(fcfs_key, older)) < min(map(fcfs_key, newer))
        # the oldest open table is filled first
        fill_order = [next(t for t in tables if t.id == f.table_id) for f in fills]
        assert [(t.order, t.id) for t in fill_order] == sorted((t.order, t.id) for t in fill_order)
        # as many full tables as the remaining entries make
        rest = sum(len(t.entry_ids) for t in full) + sum(len(t.entry_ids) for t in partial)
        assert len(full) == rest // bucket[1]


@settings(max_examples=300, deadline=None)
@given(queues(), st.randoms(use_true_random=False))
def test_the_plan_does_not_depend_on_input_order(case, rng) -> None:
    entries, tables = case
    shuffled_entries, shuffled_tables = list(entries), list(tables)
    rng.shuffle(shuffled_entries)
    rng.shuffle(shuffled_tables)
    assert plan_wave(shuffled_entries, shuffled_tables) == plan_wave(entries, tables)


@settings(max_examples=300, deadline=None)
@given(queues())
def test_ratings_only_regroup_the_full_tables_fcfs_chose(case) -> None:
    entries, tables = case
    plan = plan_wave(entries, tables)
    unrated = plan_wave(
        [Entry(e.id, e.user_id, e.game, e.players, e.stake, e.order) for e in entries], tables
    )
    assert plan.fills == unrated.fills and plan.held == unrated.held

    def members(p: Plan, bucket: tuple[str, int, int], full: bool) -> set[int]:
        return {
            i
            for t in p.tables
            if (t.game, t.players, t.stake) == bucket and t.full == full
            for i in t.entry_ids
        }

    by_id = {e.id: e for e in entries}
    for bucket in {(t.game, t.players, t.stake) for t in plan.tables}:
        assert members(plan, bucket, True) == members(unrated, bucket, True)
        assert members(plan, bucket, False) == members(unrated, bucket, False)
        full = [t for t in plan.tables if t.full and (t.game, t.players, t.stake) == bucket]
        groups = sorted(sorted(by_id[i].rating for i in t.entry_ids) for t in full)
        for low, high in itertools.pairwise(groups):
            assert low[-1] <= high[0], "rating groups overlap"


# -- purity and speed --------------------------------------------------------------------------------------
def test_pairing_is_pure_no_django_no_clock() -> None:
    source = (ROOT / "cardgames" / "matchmaking" / "pairing.py").read_text()
    for forbidden in ("django", "celery", "import time", "datetime", "random"):
        assert forbidden not in source.split('"""', 2)[2], forbidden
    code = (
        "import sys, json; import cardgames.matchmaking.pairing; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django','channels','celery','asgiref','redis','datetime'})))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def ten_thousand(seed: int = 11) -> tuple[list[Entry], list[OpenTable]]:
    rng = random.Random(seed)
    entries = []
    for i in range(10_000):
        game = rng.choice(sorted(GAMES))
        low, high = GAMES[game]
        entries.append(
            Entry(
                id=i + 1,
                user_id=i + 1,
                game=game,
                players=rng.randint(low, min(high, 6)),
                stake=rng.choice([0, 0, 0, 100, 250, 500, 1000]),
                order=i + 1,
                rating=rng.gauss(0, 8),
            )
        )
    tables = [table(20_000 + j, rng.randint(1, 3)) for j in range(200)]
    return entries, tables


def test_a_wave_of_10000_queued_players_plans_in_under_200_ms() -> None:
    entries, tables = ten_thousand()
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        plan = plan_wave(entries, tables)
        best = min(best, time.perf_counter() - started)
    assert plan.placed == 10_000
    assert best <= 0.2, f"{best * 1000:.0f} ms"
    assert Counter(isinstance(t, NewTable) and t.full for t in plan.tables)[True] > 2000
