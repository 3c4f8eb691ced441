"""Skyjo bots: always legal, deterministic, and the behaviour each level promises (docs/bots.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardgames.bots import LEVELS, get_bot
from cardgames.bots.driver import play_game
from cardgames.bots.skyjo import BOTS, PATIENCE, HardBot, NormalBot, Table
from cardgames.engines import get_engine

eng = get_engine("skyjo")
LOW = [1, 2, 0, -1, 0, 1, 2, -1, 2, 0, 1, 0]  # worth 7, no column triple


def deck(grids: list[list[int]], starter: int, draw: list[int]) -> list[str]:
    return [str(v) for g in grids for v in g] + [str(starter)] + [str(v) for v in draw]


def state_from(grids: list[list[int]], starter: int, draw: list[int], **changes: Any) -> Any:
    """A dealt game, loaded with ``changes`` (e.g. which cards are face up and who plays)."""
    state = eng.new_game(
        len(grids), seed=1, options={"deck": deck(grids, starter, draw), "turn_seconds": None}
    )
    for seat in range(len(grids)):
        for p in (0, 1):
            state = eng.apply(state, seat, {"type": "reveal", "pos": p})[0]
    data = eng.dump(state)
    data.update(changes)
    return eng.load(json.loads(json.dumps(data)))


def ask(bot: Any, state: Any, seat: int, seed: int = 0) -> dict[str, Any]:
    legal = eng.legal_actions(state, seat)
    action, memory = bot.choose(eng.view(state, seat), legal, random.Random(seed), {})
    assert memory == {}  # Skyjo bots remember nothing between moves
    assert action in legal
    return action


def up_mask(*seats: list[bool]) -> list[bool]:
    return [u for seat in seats for u in seat]


# -- every level, every table size: legal moves, whole games -------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_whole_games_legally_at_every_table_size(level: str) -> None:
    for n, seed in [(2, 1), (3, 2), (5, 3), (8, 4)]:
        state, result = play_game("skyjo", [level] * n, seed=seed)  # the driver applies only legal moves
        assert eng.is_over(state) and len(result["placements"]) == n


def test_bots_stay_legal_with_timeouts_and_mixed_levels() -> None:
    """Random lapses of the clock in between: the bots still answer legally from any position."""
    for seed in range(8):
        n = 2 + seed % 7
        bots = [get_bot("skyjo", LEVELS[(seed + s) % 3]) for s in range(n)]
        rng = random.Random(seed)
        state = eng.new_game(n, seed=seed)
        steps = 0
        while not eng.is_over(state):
            steps += 1
            assert steps < 20_000
            timers = eng.timers(state)
            if timers and rng.random() < 0.05:
                timer = rng.choice(timers)
                state = eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
                continue
            seat = rng.choice(eng.to_act(state))
            state = eng.apply(state, seat, ask(bots[seat], state, seat, seed + steps))[0]


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic(level: str) -> None:
    first = play_game("skyjo", [level, "normal", "easy"], seed=42)
    again = play_game("skyjo", [level, "normal", "easy"], seed=42)
    assert eng.dump(first[0]) == eng.dump(again[0]) and first[1] == again[1]


def test_registry_and_nothing_to_choose() -> None:
    assert set(BOTS) == {"easy", "normal", "hard"}
    for level in LEVELS:
        assert get_bot("skyjo", level).choose({}, [], random.Random(0), {}) == (None, {})


def test_every_level_dismisses_the_score_screen() -> None:
    state = state_from(
        [LOW, LOW], 4, [9] * 20, up=[True] * 11 + [False] + [True] * 2 + [False] * 10, current=0
    )
    while state.phase == "turn":
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, ask(get_bot("skyjo", "normal"), state, seat))[0]
    assert state.phase == "scores"
    for level in LEVELS:
        assert ask(get_bot("skyjo", level), state, 0) == {"type": "ready"}


# -- what a bot can know --------------------------------------------------------------------------------
def test_the_unseen_pool_is_the_deck_minus_what_the_view_shows() -> None:
    state = eng.new_game(2, seed=5)
    table = Table(eng.view(state, 0))
    assert table.total == 149  # 150 cards minus the discard's top
    top = int(eng.view(state, 0)["discard_top"])
    assert table.pool[top] == {-2: 5, 0: 15}.get(top, 10) - 1
    assert -2 < table.mean < 12


# -- hard -----------------------------------------------------------------------------------------------
def test_hard_takes_a_discard_that_completes_a_column_and_puts_it_there() -> None:
    grid = [9, 12, 11, 3, 9, 1, 4, 5, 2, 0, 6, 7]  # c1 = pos 0, 4, 8 shows 9, 9 and a face-down card
    others = LOW
    up = up_mask([True, True, False, False, True] + [False] * 7, [True, True] + [False] * 10)
    state = state_from([grid, others], 9, [5] * 20, up=up, current=0)
    bot = HardBot()
    assert ask(bot, state, 0) == {"type": "take_discard"}
    state = eng.apply(state, 0, {"type": "take_discard"})[0]
    assert ask(bot, state, 0) == {"type": "swap", "pos": 8}


def test_hard_draws_rather_than_taking_a_high_discard() -> None:
    state = state_from([LOW, LOW], 11, [5] * 20, current=0)
    assert ask(HardBot(), state, 0) == {"type": "draw"}


def test_hard_keeps_a_low_drawn_card_and_discards_a_high_one() -> None:
    low = state_from([LOW, LOW], 11, [-2] * 20, current=0)
    low = eng.apply(low, 0, {"type": "draw"})[0]
    assert ask(HardBot(), low, 0)["type"] == "swap"
    high = state_from([LOW, LOW], 11, [12] * 20, current=0)
    high = eng.apply(high, 0, {"type": "draw"})[0]
    assert ask(HardBot(), high, 0)["type"] == "discard_and_reveal"


def test_hard_does_not_close_into_a_doubling() -> None:
    # seat 0 shows 11 cards worth a lot and holds a 12 with one face-down card left; seat 1 shows little
    mine = [10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 4]
    up = up_mask([True] * 11 + [False], [True] * 10 + [False, False])
    state = state_from([mine, LOW], 3, [12] * 20, up=up, current=0)
    state = eng.apply(state, 0, {"type": "draw"})[0]
    action = ask(HardBot(), state, 0)
    assert action["type"] == "swap" and action["pos"] != 11  # keeps the last card face down


def test_hard_closes_when_it_is_clearly_lowest() -> None:
    mine = [0, 1, 0, -1, 1, 0, 2, -1, 0, 1, 2, 5]
    rival = [12, 11, 10, 9, 12, 11, 10, 9, 8, 7, 6, 12]
    up = up_mask([True] * 11 + [False], [True] * 6 + [False] * 6)
    state = state_from([mine, rival], 3, [0] * 20, up=up, current=0)
    state = eng.apply(state, 0, {"type": "draw"})[0]
    assert ask(HardBot(), state, 0) == {"type": "swap", "pos": 11}


def test_hard_on_its_last_turn_replaces_its_worst_card() -> None:
    mine = [1, 2, 0, 12, 0, 1, 2, -1, 2, 0, 1, 0]
    up = up_mask([True] * 12, [True] * 12)
    state = state_from([LOW, mine], 1, [5] * 20, up=up, current=1, closer=0, final_left=1)
    assert ask(HardBot(), state, 1) == {"type": "take_discard"}
    state = eng.apply(state, 1, {"type": "take_discard"})[0]
    assert ask(HardBot(), state, 1) == {"type": "swap", "pos": 3}


def test_a_round_that_drags_on_is_brought_to_an_end() -> None:
    """Past PATIENCE turns per player, normal and hard only turn face-down cards up (decisions.md, SK-9)."""
    mine = [10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 4]  # closing now would be doubled
    up = up_mask([True] * 11 + [False], [True] * 10 + [False, False])
    for bot in (HardBot(), NormalBot()):
        calm = state_from([mine, LOW], 0, [12] * 20, up=up, current=0)
        rushed = state_from([mine, LOW], 0, [12] * 20, up=up, current=0, turns=PATIENCE * 2)
        assert eng.view(rushed, 0)["turns_played"] == PATIENCE * 2
        assert ask(bot, rushed, 0) == {"type": "draw"}
        calm = eng.apply(calm, 0, {"type": "draw"})[0]
        rushed = eng.apply(rushed, 0, {"type": "draw"})[0]
        assert ask(bot, calm, 0)["pos"] != 11
        assert ask(bot, rushed, 0) == {"type": "discard_and_reveal", "pos": 11}


# -- normal and easy -------------------------------------------------------------------------------------
def test_normal_takes_a_low_discard_and_replaces_its_highest_card() -> None:
    mine = [12, 2, 0, -1, 0, 1, 2, -1, 2, 0, 1, 0]
    state = state_from([mine, LOW], 1, [5] * 20, current=0)
    bot = NormalBot()
    assert ask(bot, state, 0) == {"type": "take_discard"}
    state = eng.apply(state, 0, {"type": "take_discard"})[0]
    assert ask(bot, state, 0) == {"type": "swap", "pos": 0}


def test_normal_avoids_a_losing_close() -> None:
    mine = [10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5, 4]
    up = up_mask([True] * 11 + [False], [True] * 10 + [False, False])
    state = state_from([mine, LOW], 3, [1] * 20, up=up, current=0)
    state = eng.apply(state, 0, {"type": "draw"})[0]
    action = ask(NormalBot(), state, 0)
    assert action["type"] == "swap" and action["pos"] != 11


def test_easy_is_legal_and_varied() -> None:
    state = state_from([LOW, LOW], 6, [5] * 20, current=0)
    bot = get_bot("skyjo", "easy")
    seen = {json.dumps(ask(bot, state, 0, seed)) for seed in range(40)}
    assert len(seen) >= 2
