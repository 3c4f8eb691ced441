"""Guandan bots: legal over seeded games, deterministic, and the heuristics each level promises.

No timing asserts (bench/guandan_bots.py measures time per move and strength).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardgames.bots import get_bot
from cardgames.bots.driver import BotTable, step
from cardgames.bots.guandan import BOTS
from cardgames.engines import get_engine
from tests.engines.test_guandan_helpers import game, pass_, play

ENG = get_engine("guandan")


def _run(levels: list[str], seed: int, steps: int) -> list[Any]:
    """Drive a seeded game for ``steps`` moves, checking each bot answer is legal; return the dumps."""
    bots = [get_bot("guandan", lv) for lv in levels]
    table = BotTable(bots, [random.Random(f"{seed}:{s}") for s in range(4)], paced=False)
    state = ENG.new_game(4, seed=seed, options={"turn_seconds": None})
    dumps = []
    for _ in range(steps):
        if ENG.is_over(state):
            break
        for seat in ENG.to_act(state):
            legal = ENG.legal_actions(state, seat)
            action, memory = bots[seat].choose(ENG.view(state, seat), legal, random.Random(seed), {})
            assert memory == {}  # Guandan bots remember nothing between moves
            assert action is None or action in legal
        state = step(ENG, state, table)
        dumps.append(ENG.dump(state))
    return dumps


def test_bots_registry_has_three_levels() -> None:
    assert set(BOTS) == {"easy", "normal", "hard"}


@pytest.mark.parametrize(
    "levels", [["easy"] * 4, ["normal", "easy", "normal", "easy"], ["hard", "normal"] * 2]
)
def test_bots_play_only_legal_actions_over_seeded_games(levels: list[str]) -> None:
    for seed in range(2):
        _run(levels, seed, 250)


def test_bots_are_deterministic() -> None:
    assert _run(["hard", "normal", "hard", "easy"], 5, 200) == _run(
        ["hard", "normal", "hard", "easy"], 5, 200
    )


def _choose(level: str, state: Any, seat: int) -> dict[str, Any] | None:
    bot = BOTS[level]()
    return bot.choose(ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(0), {})[0]


def test_easy_leads_its_lowest_single_and_never_bombs_a_single() -> None:
    state = game([["3S", "9D", "KC", "KD"], ["5S", "5D", "5C", "5H"], ["6S"], ["7S"]], pad=0)
    assert _choose("easy", state, 0) == {
        "type": "play",
        "cards": ["3S"],
        "interp": {"kind": "single", "rank": "3"},
    }
    state = play(state, 0, ["KC"], "single", "K")
    assert _choose("easy", state, 1) == {"type": "pass"}  # only a bomb would beat the K


def test_normal_leads_from_its_plan_not_breaking_a_straight() -> None:
    hand = ["3S", "4D", "5C", "6S", "7D", "KS", "KD"]
    state = game([hand, ["9S"], ["TS"], ["JS"]], pad=0)
    action = _choose("normal", state, 0)
    assert action is not None and action["interp"]["kind"] == "straight"


def test_normal_does_not_overtake_its_partner() -> None:
    state = game([["3S", "4S"], ["5S", "6S"], ["AS", "AD"], ["8S", "9S"]], pad=0)
    state = play(state, 0, ["4S"], "single", "4")
    state = pass_(state, 1)
    for level in ("normal", "hard"):
        assert _choose(level, state, 2) == {"type": "pass"}


def test_hard_finishes_even_over_its_partner() -> None:
    state = game([["3S", "4S"], ["5S", "6S"], ["AS"], ["8S", "9S"]], pad=0)
    state = play(state, 0, ["4S"], "single", "4")
    state = pass_(state, 1)
    assert _choose("hard", state, 2) == {
        "type": "play",
        "cards": ["AS"],
        "interp": {"kind": "single", "rank": "A"},
    }


def test_hard_bombs_an_opponent_about_to_go_out_but_not_early() -> None:
    bomb = ["7S", "7D", "7C", "7H"]
    # the opponent (S0) keeps two cards after its play: bomb it
    state = game(
        [["KS", "3D", "4D"], [*bomb, "5S", "6S", "8S", "9S", "TS", "JD", "QD"], ["5D"], ["6D"]], pad=0
    )
    state = play(state, 0, ["KS"], "single", "K")
    action = _choose("hard", state, 1)
    assert action is not None and action["interp"]["kind"] == "bomb"
    # the same play from a big hand: keep the bomb
    many = ["KS", "3D", "4D", "5C", "6C", "8C", "9C", "TC", "JC", "QC", "2C", "2D"]
    state = game([many, [*bomb, "5S", "6S", "8S", "9S", "TS", "JD", "QD"], ["5D"], ["6D"]], pad=0)
    state = play(state, 0, ["KS"], "single", "K")
    assert _choose("hard", state, 1) == {"type": "pass"}


def test_hard_feeds_a_partner_with_one_card() -> None:
    hand = ["3S", "4D", "9C", "9D", "KS", "KD", "AS", "AD", "QC", "QD", "JS", "JD"]
    many = ["5S", "6D", "8C", "TC", "2C", "2D", "3C", "4C", "6C", "8D", "TD"]
    state = game(
        [hand, many, ["JH"], ["5D", "6S", "8S", "TS", "3D", "4S", "6H", "8H", "TH", "5C", "7C"]], pad=0
    )
    action = _choose("hard", state, 0)
    assert action is not None and action["interp"] == {"kind": "single", "rank": "3"}


def test_hard_counts_cards_unbeatable_single() -> None:
    from cardgames.bots.guandan.common import parse
    from cardgames.bots.guandan.policies import HardBot

    state = game([["RJ", "RJ", "3S"], ["5S"], ["6S"], ["7S"]], pad=0)
    ctx = parse(ENG.view(state, 0), ENG.legal_actions(state, 0))
    bot = HardBot()
    red_pair = next(m for m in ctx.moves if m.interp[0] == 1)
    low = next(m for m in ctx.moves if m.cards == (4,))
    assert bot.unbeatable(ctx, red_pair) and not bot.unbeatable(ctx, low)


def test_bots_confirm_a_return_and_ready_between_deals() -> None:
    hands = [["5S", "9S", "JS"], ["6S", "7S", "8S"], ["4S", "TS", "QS"], ["AS", "3C", "4C"]]
    state = game(hands, previous_places=[0, 1, 2, 3], pad=0)
    for level in ("easy", "normal", "hard"):
        pick = _choose(level, state, 0)
        assert pick is not None and pick["type"] == "return"
        after = ENG.apply(state, 0, pick)[0]
        assert _choose(level, after, 0) == {"type": "confirm"}


def test_normal_leads_its_weakest_play_hard_the_kind_it_holds_most_of() -> None:
    hand = ["3S", "3D", "5C", "8D", "JH", "KS", "KD"]  # plan: pairs 33 KK, singles 5 8 J
    others = [["4S", "6S", "7S", "9S", "TS", "QS", "AS"], ["4D", "6D", "7D", "9D", "TD", "QD", "AD"]]
    state = game([hand, others[0], others[1], ["4C", "6C", "7C", "9C", "TC", "QC", "AC"]], pad=0)
    assert _choose("normal", state, 0) == {
        "type": "play",
        "cards": ["3S", "3D"],
        "interp": {"kind": "pair", "rank": "3"},
    }
    assert _choose("hard", state, 0) == {
        "type": "play",
        "cards": ["5C"],
        "interp": {"kind": "single", "rank": "5"},
    }
