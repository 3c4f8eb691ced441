"""Bot memory is explicit JSON, bots are stateless, and a bot asked twice, or in another process,
decides the same (design.md: "Bots act through the same service as people"; cardgames/bots/__init__)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardgames.bots import LEVELS, BotMove, bot_rng, decide, get_bot, reaction_seconds
from cardgames.bots.driver import BotTable, step
from cardgames.bots.one_card import EasyBot as OneCardEasy
from cardgames.engines import GAMES, get_engine

#: players and a short horizon per game: enough to pass calls, catches, countdowns and pauses
SETUPS: dict[str, tuple[int, int]] = {
    "one_card": (4, 400),
    "pika": (4, 400),
    "puteo": (4, 300),
    "skyjo": (3, 300),
    "guandan": (4, 300),
}


def live_table(
    game: str, levels: list[str], seed: int, moves: int
) -> list[tuple[int, BotMove, dict[str, Any]]]:
    """Play ``moves`` moves the way the live table service does: every ask through ``decide`` with a
    ``bot_rng`` for (table, seat, version) and the seat's stored memory, read back from JSON; each
    ask is made twice (a duplicate task) and once more by a fresh process (new instances). Returns
    (seat, move, memory before) for every ask."""
    eng = get_engine(game)
    state = eng.new_game(len(levels), seed=seed, options={"turn_seconds": None})
    stored = ["{}" for _ in levels]  # the seat's JSON column
    asks: list[tuple[int, BotMove, dict[str, Any]]] = []
    for version in range(moves):
        if eng.is_over(state):
            break
        acted = False
        for seat in eng.to_act(state):
            view, legal = eng.view(state, seat), eng.legal_actions(state, seat)
            memory = json.loads(stored[seat])
            kept = json.dumps(memory, sort_keys=True)
            move = decide(
                game, levels[seat], view, legal, rng=bot_rng(f"t{seed}", seat, version), memory=memory
            )
            again = decide(
                game, levels[seat], view, legal, rng=bot_rng(f"t{seed}", seat, version), memory=memory
            )
            assert again == move, (game, seat, version)
            assert json.dumps(memory, sort_keys=True) == kept  # the memory passed in is left alone
            assert json.loads(json.dumps(move.memory)) == move.memory  # JSON, exactly
            asks.append((seat, move, memory))
            stored[seat] = json.dumps(move.memory)
            if move.action is not None:
                assert move.action in legal
                state = eng.apply(state, seat, move.action)[0]
                acted = True
                break
        if not acted:
            timer = min(eng.timers(state), key=lambda t: t["seconds"])
            state = eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
    return asks


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_asked_twice_or_anew_decides_the_same(game: str) -> None:
    n, moves = SETUPS[game]
    for seed in range(3):
        levels = [LEVELS[(seed + s) % 3] for s in range(n)]
        first = live_table(game, levels, seed, moves)
        assert first == live_table(game, levels, seed, moves)  # a whole replay, in fresh bot instances


def test_memory_is_used_by_one_card_and_pika_and_empty_elsewhere() -> None:
    keys: dict[str, set[str]] = {}
    for game in GAMES:
        n, moves = SETUPS[game]
        levels = ["easy"] * n
        keys[game] = {
            k
            for seed in range(4)
            for _, move, _ in live_table(game, levels, seed, moves)
            for k in move.memory
        }
    assert keys["one_card"] == {"forgetting", "catch_plan"}
    assert keys["pika"] == {"forgetting"}
    assert keys["puteo"] == keys["skyjo"] == keys["guandan"] == set()


def test_a_forgetful_one_card_bot_keeps_its_decision_in_a_fresh_instance() -> None:
    """PF-50: the easy bot decides once per two-card episode; the decision travels in its memory, so a
    new instance (another process) with new dice neither re-rolls it nor forgets the catch plan."""
    from tests.bots.test_one_card_bots import table

    two_cards = table([["2H", "3S"], ["5D", "6D", "8D"]], "9H")
    eng = get_engine("one_card")
    view, legal = eng.view(two_cards, 0), eng.legal_actions(two_cards, 0)
    decisions = set()
    for seed in range(60):
        first = decide("one_card", "easy", view, legal, rng=random.Random(seed), memory=None)
        decisions.add(first.memory["forgetting"])
        for other in range(10):
            later = decide(
                "one_card", "easy", view, legal, rng=random.Random(1000 + other), memory=first.memory
            )
            assert later == first
    assert decisions == {True, False}  # both happen (20 % forgetting), and each sticks
    # a catch window: the plan for window id is made once
    window = table([["2S", "3S", "4S"], ["5D", "6D", "8D"], ["9C"]], "9H", windows=[(2, 1)], turn=1)
    view, legal = eng.view(window, 0), eng.legal_actions(window, 0)
    for seed in range(40):
        first = decide("one_card", "easy", view, legal, rng=random.Random(seed), memory={})
        assert set(first.memory["catch_plan"].values()) == {first.action is not None}
        stored = json.loads(json.dumps(first.memory))
        again = OneCardEasy().choose(view, legal, random.Random(seed + 1), stored)
        assert again == (first.action, first.memory)


def test_a_new_episode_forgets_the_old_decision() -> None:
    """Back above two cards, the forgetting decision is dropped: the next episode is rolled afresh."""
    from tests.bots.test_one_card_bots import table

    three = table([["2H", "3S", "4S"], ["5D", "6D", "8D"]], "9H")
    eng = get_engine("one_card")
    view, legal = eng.view(three, 0), eng.legal_actions(three, 0)
    move = decide("one_card", "easy", view, legal, rng=random.Random(0), memory={"forgetting": True})
    assert "forgetting" not in move.memory


@pytest.mark.parametrize("game", GAMES)
def test_bots_keep_nothing_on_the_instance(game: str) -> None:
    eng = get_engine(game)
    n, moves = SETUPS[game]
    table = BotTable.seated(game, [LEVELS[s % 3] for s in range(n)], seed=7)
    before = [dict(vars(bot)) for bot in table.bots]
    state = eng.new_game(n, seed=7, options={"turn_seconds": None})
    for _ in range(moves):
        if eng.is_over(state):
            break
        state = step(eng, state, table)
    assert [vars(bot) for bot in table.bots] == before


def test_bot_rng_is_one_stream_per_table_seat_and_version() -> None:
    draws = {(t, s, v): bot_rng(t, s, v).random() for t in ("7", 7, "8") for s in (0, 1) for v in (0, 1)}
    assert draws[("7", 0, 0)] == draws[(7, 0, 0)]  # a table id as int or str: the same table
    assert len({d for k, d in draws.items() if k[0] != 7}) == 8  # every other key its own stream
    assert bot_rng(41, 2, 9).getrandbits(64) == bot_rng(41, 2, 9).getrandbits(64)
    # pinned: the stream does not depend on the process (no hash randomisation, no global state)
    assert bot_rng("table-1", 3, 12).getrandbits(32) == 3206278411


def test_reaction_seconds_pf_50() -> None:
    catch = {"type": "catch", "target": 1}
    assert [reaction_seconds("one_card", lv, catch) for lv in LEVELS] == [3.5, 2.5, 1.2]
    assert reaction_seconds("one_card", "easy", {"type": "draw"}) == 0.0
    assert reaction_seconds("one_card", "hard", None) == 0.0
    assert reaction_seconds("pika", "easy", {"type": "call_pika"}) == 0.0
    for game in GAMES:
        assert reaction_seconds(game, "normal", {"type": "pass"}) == 0.0


def test_unknown_game_or_level_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        get_bot("chess", "easy")
    with pytest.raises(KeyError):
        decide("one_card", "expert", {}, [], rng=random.Random(0), memory=None)


def test_a_bot_that_returns_non_json_memory_is_refused() -> None:
    class Sloppy:
        def choose(self, view: Any, legal: Any, rng: Any, memory: Any) -> Any:
            return None, {"bad": float("nan")}

    from cardgames.bots import ask

    with pytest.raises(ValueError):
        ask(Sloppy(), {}, [], rng=random.Random(0), memory=None)
