"""The pure table flow (cardgames/tables/flow.py): every function, and the engine property it rests on.

Timers are known by id (design.md): the server keeps the start of each live id and applies a
timeout only while that id is still among ``engine.timers(state)``. That is safe only if an id,
once gone, never comes back in the same game, and if a timer's ``seconds``, ``seat`` and ``name``
stay the same while its id lives — checked here over seeded playouts of all five engines.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardgames.bots import LEVELS
from cardgames.bots.driver import BotTable, step
from cardgames.engines import GAMES, get_engine
from cardgames.tables import flow

TURN = {"id": "turn:7", "name": "turn", "seat": 2, "seconds": 30}
CATCH = {"id": "catch:3", "name": "catch", "seat": 1, "seconds": 5}
PAUSE = {"id": "pause:2", "name": "pause", "seat": None, "seconds": 6}


# -- constants -------------------------------------------------------------------------------------
def test_constants() -> None:
    assert flow.TIMEOUTS_BEFORE_BOT == 2  # PF-63
    assert flow.STAND_IN_LEVEL == "normal" and flow.STAND_IN_LEVEL in LEVELS  # PF-63: normal speed
    assert flow.THINK_SECONDS > 0
    assert frozenset({"catch", "pika"}) == flow.WINDOW_TIMERS


# -- sync_starts -----------------------------------------------------------------------------------
def test_sync_starts_keeps_live_ids_starts_new_ones_now_and_drops_the_rest() -> None:
    starts = {"turn:7": 10.0, "catch:2": 4.0}
    assert flow.sync_starts([TURN, CATCH], starts, 12.0) == {"turn:7": 10.0, "catch:3": 12.0}
    assert starts == {"turn:7": 10.0, "catch:2": 4.0}  # the stored starts are not changed in place
    assert flow.sync_starts([], starts, 12.0) == {}


def test_an_id_that_left_starts_afresh_if_seen_again() -> None:
    starts = flow.sync_starts([CATCH], {}, 0.0)
    starts = flow.sync_starts([], starts, 3.0)
    assert flow.sync_starts([CATCH], starts, 8.0) == {"catch:3": 8.0}


# -- deadline, due, next_deadline ------------------------------------------------------------------
def test_deadline_is_start_plus_seconds() -> None:
    assert flow.deadline(CATCH, {"catch:3": 2.5}) == 7.5
    with pytest.raises(KeyError):
        flow.deadline(CATCH, {})  # a timer without a start has no deadline


def test_due_at_and_after_the_deadline_not_before() -> None:
    starts = {"catch:3": 0.0}
    assert flow.due([CATCH], starts, 4.999) == []
    assert flow.due([CATCH], starts, 5.0) == [CATCH]  # the deadline itself is due
    assert flow.due([CATCH], starts, 60.0) == [CATCH]


def test_due_ignores_a_timer_without_a_start() -> None:
    assert flow.due([CATCH], {}, 1e9) == []
    assert flow.due([CATCH], {"catch:2": 0.0}, 1e9) == []  # the old id's start is not this one's


def test_due_restricted_by_names() -> None:
    starts = {"turn:7": 0.0, "catch:3": 0.0, "pause:2": 0.0}
    timers = [TURN, CATCH, PAUSE]
    assert flow.due(timers, starts, 100.0, names=["catch", "pause"]) == [CATCH, PAUSE]
    assert flow.due(timers, starts, 100.0, names=[]) == []
    assert flow.due(timers, starts, 100.0, names=iter(["turn"])) == [TURN]  # any iterable


def test_due_lists_the_earliest_deadline_first_then_the_engines_order() -> None:
    """A late sweeper applies timeouts in the order they lapsed (One Card lists its turn first)."""
    starts = {"turn:7": 0.0, "catch:3": 0.0, "pause:2": 0.0}
    assert flow.due([TURN, CATCH, PAUSE], starts, 100.0) == [CATCH, PAUSE, TURN]
    same = {**CATCH, "id": "catch:4", "seat": 0}
    starts = {"catch:3": 1.0, "catch:4": 1.0}
    assert flow.due([same, CATCH], starts, 6.0) == [same, CATCH]  # a tie keeps the engine's order


def test_next_deadline() -> None:
    assert flow.next_deadline([], {}) is None
    assert flow.next_deadline([TURN], {}) is None  # nothing started: nothing timed
    assert flow.next_deadline([TURN, CATCH], {"turn:7": 0.0, "catch:3": 28.0}) == 30.0
    assert flow.next_deadline([TURN, CATCH], {"turn:7": 0.0, "catch:3": 20.0}) == 25.0


# -- find_timer, timeout_action, counts_as_absence -------------------------------------------------
def test_find_timer_by_id_only() -> None:
    assert flow.find_timer([TURN, CATCH], "catch:3") is CATCH
    assert flow.find_timer([TURN, CATCH], "catch:2") is None  # a late timeout for an older window
    assert flow.find_timer([], "turn:7") is None


def test_timeout_action_names_the_timer() -> None:
    assert flow.timeout_action(TURN) == {"type": "timeout", "timer": "turn"}
    assert flow.timeout_action(PAUSE) == {"type": "timeout", "timer": "pause"}


@pytest.mark.parametrize(
    ("timer", "absent"),
    [
        (TURN, True),
        ({"id": "return:1:2", "name": "return", "seat": 2, "seconds": 30}, True),
        ({"id": "reveal:4:0", "name": "reveal", "seat": 0, "seconds": 30}, True),
        (CATCH, False),
        ({"id": "pika:9", "name": "pika", "seat": 3, "seconds": 5}, False),
        (PAUSE, False),  # table-wide: nobody's absence
        ({"id": "reveal:3", "name": "reveal", "seat": None, "seconds": 4}, False),
    ],
)
def test_counts_as_absence_pf_63(timer: dict[str, Any], absent: bool) -> None:
    assert flow.counts_as_absence(timer) is absent


# -- bots ------------------------------------------------------------------------------------------
def test_wanted_bot_seats_keeps_to_act_order() -> None:
    assert flow.wanted_bot_seats([3, 0, 2], [0, 3]) == [3, 0]
    assert flow.wanted_bot_seats([1], [0, 2]) == []
    assert flow.wanted_bot_seats([], [0]) == []


def test_bot_wake_and_catch_ready_at() -> None:
    assert flow.bot_wake(100.0) == 100.0 + flow.THINK_SECONDS
    assert flow.bot_wake(100.0, delay=0.0) == 100.0
    assert flow.catch_ready_at(40.0, 2.5) == 42.5  # PF-50: normal's reaction after the window opens


# -- the engines: a timer id never comes back, and never changes while it lives --------------------
class IdLedger:
    """Follows ``engine.timers(state)`` through one game and fails on an id that returns or changes."""

    def __init__(self, game: str, seed: int) -> None:
        self.where = f"{game} seed {seed}"
        self.live: dict[str, tuple[Any, Any, Any]] = {}
        self.gone: set[str] = set()
        self.seen = 0

    def observe(self, timers: list[dict[str, Any]], move: int) -> None:
        ids = [t["id"] for t in timers]
        assert len(ids) == len(set(ids)), f"{self.where} move {move}: one id twice in {ids}"
        now: dict[str, tuple[Any, Any, Any]] = {}
        for t in timers:
            shape = (t["seconds"], t["seat"], t["name"])
            assert t["id"] not in self.gone, f"{self.where} move {move}: timer id {t['id']} came back"
            was = self.live.get(t["id"])
            assert was in (None, shape), f"{self.where} move {move}: {t['id']} changed {was} -> {shape}"
            now[t["id"]] = shape
        self.gone |= set(self.live) - set(now)
        self.live = now
        self.seen += len(timers)


def random_playout(game: str, seed: int, options: dict[str, Any], moves: int) -> IdLedger:
    """Random legal moves by random seats to act; now and then a random live timer lapses."""
    eng = get_engine(game)
    rng = random.Random(f"flow:{game}:{seed}")
    n = rng.randint(eng.min_players, min(eng.max_players, 6))
    state = eng.new_game(n, seed=seed, options=options)
    ledger = IdLedger(game, seed)
    for move in range(moves):
        timers = eng.timers(state)
        ledger.observe(timers, move)
        if eng.is_over(state):
            break
        choices = [(seat, a) for seat in eng.to_act(state) for a in eng.legal_actions(state, seat)]
        if timers and (not choices or rng.random() < 0.1):
            timer = rng.choice(timers)
            state = eng.apply(state, timer["seat"], flow.timeout_action(timer))[0]
        else:
            seat, action = rng.choice(choices)
            state = eng.apply(state, seat, action)[0]
    return ledger


PLAYOUTS = {
    "one_card": (12, 400),
    "pika": (12, 400),
    "puteo": (10, 400),
    "skyjo": (6, 800),
    "guandan": (4, 600),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("turn_seconds", [30, None])
def test_a_timer_id_never_returns_and_never_changes_in_random_playouts(game: str, turn_seconds: Any) -> None:
    games, moves = PLAYOUTS[game]
    seen = 0
    for seed in range(games):
        seen += random_playout(game, seed, {"turn_seconds": turn_seconds}, moves).seen
    assert seen > 0 or (game == "guandan" and turn_seconds is None)


@pytest.mark.parametrize("game", GAMES)
def test_a_timer_id_never_returns_in_bot_games(game: str) -> None:
    """Bots reach what random play rarely does (Guandan's later deals, El Puteo's late rounds)."""
    eng = get_engine(game)
    for seed in range(2 if game == "guandan" else 4):
        n = 4 if game != "skyjo" else 3
        levels = [LEVELS[(seed + s) % 3] for s in range(n)]
        state = eng.new_game(n, seed=seed, options={"turn_seconds": 30})
        table = BotTable.seated(game, levels, seed)
        ledger = IdLedger(game, seed)
        for move in range(4000):
            ledger.observe(eng.timers(state), move)
            if eng.is_over(state):
                break
            state = step(eng, state, table)
        assert ledger.seen > 0
