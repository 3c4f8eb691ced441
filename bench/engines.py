"""Random-playout speed and state size of every engine, beside the anchors named in the issues.

    .venv/bin/pip install -r bench/requirements.txt   # rlcard and open-spiel, benchmark only
    .venv/bin/python -m bench.engines [--games one_card pika] [--seconds 3] [--runs 5]

The loop is the one a site or a bot runs: ``legal_actions`` for a seat that must
act, a seeded random choice, ``apply``. Figures: median of ``--runs`` runs.
Anchors (same loop, on the same machine, in the same run):
RLCard's UNO game (vs One Card and Pika), OpenSpiel's ``oh_hell`` (vs El Puteo),
RLCard's Dou Dizhu game (vs Guandan).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from cardgames.engines import GAMES, get_engine

Loop = Callable[[int], tuple[int, int]]  # seed -> (games, actions) within one timed run


def engine_loop(game: str, players: int, seconds: float, options: dict[str, Any] | None = None) -> Loop:
    eng = get_engine(game)

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        games = actions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = eng.new_game(players, seed=rng.randrange(2**31), options=dict(options or {}))
            while not eng.is_over(state):
                seat = rng.choice(eng.to_act(state))
                state, _ = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
                actions += 1
            games += 1
        return games, actions

    return run


def state_bytes(game: str, players: int, options: dict[str, Any] | None = None, samples: int = 20) -> int:
    """Peak bytes one live mid-game state holds (tracemalloc over a fresh load)."""
    eng = get_engine(game)
    rng = random.Random(1)
    sizes = []
    for i in range(samples):
        state = eng.new_game(players, seed=i, options=dict(options or {}))
        for _ in range(rng.randrange(5, 60)):
            if eng.is_over(state):
                break
            seat = rng.choice(eng.to_act(state))
            state, _ = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
        data = json.loads(json.dumps(eng.dump(state)))
        tracemalloc.start()
        loaded = eng.load(data)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del loaded
        sizes.append(peak)
    return max(sizes)


def rlcard_loop(name: str, players: int, seconds: float) -> Loop:
    """RLCard's raw game object (not the env, whose feature encoding would slow it down)."""
    if name == "uno":
        from rlcard.games.uno.game import UnoGame as Game
    else:
        from rlcard.games.doudizhu.game import DoudizhuGame as Game
    import numpy as np

    def legal_actions(game: Any) -> list[Any]:
        # UNO lists them on demand; Dou Dizhu computes them into game.state at each step.
        if name == "uno":
            return list(game.get_legal_actions())
        return list(game.state["actions"])

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        games = actions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            game = Game()
            if name == "uno":
                game.configure({"game_num_players": players})
            game.np_random = np.random.RandomState(rng.randrange(2**31))
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(legal_actions(game)))
                actions += 1
            games += 1
        return games, actions

    return run


def openspiel_loop(name: str, players: int, seconds: float) -> Loop:
    """OpenSpiel driven from Python; chance outcomes (the deal) are sampled but not counted as actions."""
    import pyspiel

    game = pyspiel.load_game(name, {"players": players})

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        games = actions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                    continue
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
            games += 1
        return games, actions

    return run


def measure(loop: Loop, seconds: float, runs: int) -> dict[str, float]:
    games_s, actions_s = [], []
    for r in range(runs):
        start = time.perf_counter()
        games, actions = loop(r)
        elapsed = time.perf_counter() - start
        games_s.append(games / elapsed)
        actions_s.append(actions / elapsed)
    return {"games_s": statistics.median(games_s), "actions_s": statistics.median(actions_s)}


ANCHORS: dict[str, tuple[str, Callable[[int, float], Loop]]] = {
    "one_card": ("RLCard UNO", lambda n, s: rlcard_loop("uno", n, s)),
    "pika": ("RLCard UNO", lambda n, s: rlcard_loop("uno", n, s)),
    "puteo": ("OpenSpiel oh_hell", lambda n, s: openspiel_loop("oh_hell", n, s)),
    "guandan": ("RLCard Dou Dizhu", lambda n, s: rlcard_loop("doudizhu", 3, s)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'game':<28}{'games/s':>12}{'actions/s':>14}{'KB/state':>10}{'vs anchor':>11}")
    for game in args.games:
        eng = get_engine(game)
        players = min(max(args.players, eng.min_players), eng.max_players)
        options = {"turn_seconds": None}
        ours = measure(engine_loop(game, players, args.seconds, options), args.seconds, args.runs)
        kb = state_bytes(game, players, options) / 1024
        ratio = ""
        anchor_row = None
        if game in ANCHORS:
            label, make = ANCHORS[game]
            try:
                theirs = measure(make(players, args.seconds), args.seconds, args.runs)
                ratio = f"{ours['actions_s'] / theirs['actions_s']:.2f}x"
                anchor_row = (label, theirs)
            except ImportError as err:
                ratio = f"({err.name} missing)"
        label = f"{game} ({players}p)"
        print(f"{label:<28}{ours['games_s']:>12.1f}{ours['actions_s']:>14.0f}{kb:>10.1f}{ratio:>11}")
        if anchor_row:
            label, theirs = anchor_row
            print(f"{'  ' + label:<28}{theirs['games_s']:>12.1f}{theirs['actions_s']:>14.0f}")


if __name__ == "__main__":
    main()
