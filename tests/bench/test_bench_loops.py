"""The anchors' loops in bench/engines.py run each anchor the way its own code does (issue 14).

A loop that slows the anchor down (a new game object per game, legal actions computed twice)
makes every ratio in docs/performance.md worthless, so each call of those loops is pinned here.
Nothing is timed: each loop runs for a few hundredths of a second. Skipped without the bench
requirements (``pip install -r bench/requirements.txt``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.engines import openspiel_loop, rlcard_loop


def _count_games_and_steps(monkeypatch: pytest.MonkeyPatch, game_class: type) -> dict[str, Any]:
    seen: dict[str, Any] = {"made": [], "steps": 0, "off_list": 0}
    init, step = game_class.__init__, game_class.step

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        seen["made"].append(kwargs)
        init(self, *args, **kwargs)

    def checking_step(self: Any, action: Any) -> Any:
        # the loop picks from the state the previous init_game/step returned
        listed = self.get_state(self.round.current_player)
        key = "legal_actions" if "legal_actions" in listed else "actions"
        seen["off_list"] += action not in listed[key]
        seen["steps"] += 1
        return step(self, action)

    monkeypatch.setattr(game_class, "__init__", counting_init)
    monkeypatch.setattr(game_class, "step", checking_step)
    return seen


def test_rlcard_uno_reuses_one_game_and_reads_legal_actions_from_the_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("rlcard")
    from rlcard.games.uno.game import UnoGame

    seen = _count_games_and_steps(monkeypatch, UnoGame)

    def recomputed(self: Any) -> Any:
        raise AssertionError("step() already returned the legal actions in the next state")

    monkeypatch.setattr(UnoGame, "get_legal_actions", recomputed)
    games, actions = rlcard_loop("uno", 4, 0.05)(0)
    assert games >= 1
    assert seen["made"] == [{"num_players": 4}]  # one game object for the whole run, 4 players
    assert seen["steps"] == actions and seen["off_list"] == 0


def test_rlcard_doudizhu_reuses_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rlcard")
    from rlcard.games.doudizhu.game import DoudizhuGame

    seen = _count_games_and_steps(monkeypatch, DoudizhuGame)
    games, actions = rlcard_loop("doudizhu", 3, 0.05)(0)
    assert games >= 1
    assert seen["made"] == [{}]
    assert seen["steps"] == actions and seen["off_list"] == 0


def test_rlcard_loop_seeds_the_game_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rlcard")
    import numpy as np

    made = []
    real = np.random.RandomState

    def counting(*args: Any) -> Any:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(np.random, "RandomState", counting)
    games, _ = rlcard_loop("uno", 4, 0.05)(7)
    assert games >= 1
    # UnoGame.__init__ makes an unseeded one; the loop replaces it once with a seeded one
    assert made == [(), (7,)]


def test_openspiel_chance_nodes_sample_what_chance_outcomes_would() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                # legal_actions at a chance node: the outcomes in the same order, all equally likely,
                # so choice(legal_actions()) is choice(chance_outcomes())[0] without the pairs
                assert state.legal_actions() == [a for a, _ in outcomes]
                assert max(p for _, p in outcomes) - min(p for _, p in outcomes) < 1e-12
            state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_loop_counts_decisions_only() -> None:
    pytest.importorskip("pyspiel")
    games, actions = openspiel_loop("oh_hell", 4, 0.05)(0)
    assert games >= 1
    assert actions >= 8 * games  # at least 4 bids and one trick a game, the deal not counted


def test_measure_pair_times_both_sides_by_the_clock_given() -> None:
    """``--clock cpu`` times ours and the anchor by the same clock, run by run, alternating who goes
    first; each pair's ratio is ours over theirs in actions per clock second."""
    from bench.engines import CLOCKS, measure_pair

    ticks = iter(range(0, 1000, 1))  # a fake clock: every reading one second later
    order: list[str] = []

    def ours(seed: int) -> tuple[int, int]:
        order.append("ours")
        return 1, 30  # 30 actions in the 1 s between two readings

    def theirs(seed: int) -> tuple[int, int]:
        order.append("theirs")
        return 1, 10

    mine, anchor, ratios = measure_pair(ours, theirs, 3, lambda: float(next(ticks)))
    assert ratios == [3.0, 3.0, 3.0] and mine["actions_s"] == 30 and anchor["actions_s"] == 10
    assert order == ["ours", "theirs", "theirs", "ours", "ours", "theirs"]
    assert set(CLOCKS) == {"wall", "cpu"}
