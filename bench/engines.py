"""Random-playout speed and state size of every engine, beside the anchors named in the issues.

    .venv/bin/pip install -r bench/requirements.txt   # rlcard and open-spiel, benchmark only
    .venv/bin/python -m bench.engines [--games one_card pika] [--seconds 3] [--runs 5] [--clock cpu]

Our loop is the one a site or a bot runs: ``legal_actions`` for a seat that must
act, a seeded random choice, ``apply``. Each anchor runs its own natural loop, the
way its own code and examples use it (see ``rlcard_loop`` and ``openspiel_loop``):
RLCard's UNO game (vs One Card and Pika), OpenSpiel's ``oh_hell`` (vs El Puteo),
RLCard's Dou Dizhu game (vs Guandan). Ours and the anchor's alternate, ``--runs``
pairs in one process; the ratio is the median of the pairs' ratios (each pair's
ratio is printed too), the other figures are medians of each side. ``--clock cpu`` times each run
by this process's CPU time (``time.process_time``) instead of the wall clock: on a machine shared
with other jobs the time a loop waits for a core then counts on neither side.
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
#: how a run is timed (``--clock``): the wall clock, or the process's CPU time
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def _more(seconds: float, max_games: int) -> Callable[[int], bool]:
    """Whether to start another game: until ``seconds`` have passed, or, if ``max_games`` is set,
    until that many games are done (``bench.instructions`` counts a fixed number of games)."""
    if max_games:
        return lambda done: done < max_games
    deadline = time.perf_counter() + seconds
    return lambda done: time.perf_counter() < deadline


def engine_loop(
    game: str, players: int, seconds: float, options: dict[str, Any] | None = None, max_games: int = 0
) -> Loop:
    eng = get_engine(game)

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        games = actions = 0
        more = _more(seconds, max_games)
        while more(games):
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


def rlcard_loop(name: str, players: int, seconds: float, max_games: int = 0) -> Loop:
    """RLCard's raw game object, used as its own code uses it (not the env, whose feature
    encoding would slow it down).

    One game object and one seeded ``RandomState`` per run, as ``rlcard.envs.Env`` does
    (``Env.seed`` sets ``game.np_random`` once; ``Env.reset`` calls ``init_game`` on the same game).
    ``init_game`` and ``step`` return the next player's state, whose legal actions are already
    computed (UNO: ``state["legal_actions"]``, Dou Dizhu: ``state["actions"]``): asking the game
    again (``get_legal_actions``) would compute them twice and slow the anchor down.
    ``tests/bench/test_bench_loops.py`` checks each of these points.
    """
    import numpy as np

    if name == "uno":
        from rlcard.games.uno.game import UnoGame

        def make() -> Any:
            return UnoGame(num_players=players)

        key = "legal_actions"
    else:
        from rlcard.games.doudizhu.game import DoudizhuGame

        def make() -> Any:
            return DoudizhuGame()  # always 3 players

        key = "actions"

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        game = make()
        game.np_random = np.random.RandomState(seed)
        init_game, step, is_over, choice = game.init_game, game.step, game.is_over, rng.choice
        games = actions = 0
        more = _more(seconds, max_games)
        while more(games):
            state, _ = init_game()
            while not is_over():
                state, _ = step(choice(state[key]))
                actions += 1
            games += 1
        return games, actions

    return run


def openspiel_loop(name: str, players: int, seconds: float, max_games: int = 0) -> Loop:
    """OpenSpiel driven from Python the way its ``examples/benchmark_games.py`` does.

    One loaded game, ``new_initial_state`` per game, ``random.choice(state.legal_actions())`` at
    every node: at a chance node ``legal_actions`` lists the chance outcomes (for ``oh_hell`` all
    equally likely, and in ``chance_outcomes`` order, so this samples exactly what drawing from
    ``chance_outcomes()`` would, without building its (action, probability) pairs). Chance
    outcomes (the deal) are not counted as actions: our engines deal inside ``new_game``.
    """
    import pyspiel

    game = pyspiel.load_game(name, {"players": players})

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        choice = rng.choice
        games = actions = 0
        more = _more(seconds, max_games)
        while more(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.legal_actions()))
                    continue
                state.apply_action(choice(state.legal_actions()))
                actions += 1
            games += 1
        return games, actions

    return run


def measure(
    loop: Loop, seconds: float, runs: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    games_s, actions_s = [], []
    for r in range(runs):
        start = clock()
        games, actions = loop(r)
        elapsed = clock() - start
        games_s.append(games / elapsed)
        actions_s.append(actions / elapsed)
    return {"games_s": statistics.median(games_s), "actions_s": statistics.median(actions_s)}


def measure_pair(
    ours: Loop, theirs: Loop, runs: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[dict[str, float], dict[str, float], list[float]]:
    """Our loop and the anchor's alternately, ``runs`` pairs in one process (the one who goes
    first alternates too): medians of each side and the ratio of each pair, since the load of a
    shared machine moves both sides between pairs more than within one."""
    rates: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    for r in range(runs):
        order = [("ours", ours), ("theirs", theirs)]
        if r % 2:
            order.reverse()
        for side, loop in order:
            start = clock()
            games, actions = loop(r)
            elapsed = clock() - start
            rates[side].append((games / elapsed, actions / elapsed))
    ratios = [o[1] / t[1] for o, t in zip(rates["ours"], rates["theirs"], strict=True)]

    def med(side: str) -> dict[str, float]:
        return {
            "games_s": statistics.median(g for g, _ in rates[side]),
            "actions_s": statistics.median(a for _, a in rates[side]),
        }

    return med("ours"), med("theirs"), ratios


#: game -> (anchor's label, its loop from (players, seconds, max_games))
ANCHORS: dict[str, tuple[str, Callable[[int, float, int], Loop]]] = {
    "one_card": ("RLCard UNO", lambda n, s, g=0: rlcard_loop("uno", n, s, g)),
    "pika": ("RLCard UNO", lambda n, s, g=0: rlcard_loop("uno", n, s, g)),
    "puteo": ("OpenSpiel oh_hell", lambda n, s, g=0: openspiel_loop("oh_hell", n, s, g)),
    "guandan": ("RLCard Dou Dizhu", lambda n, s, g=0: rlcard_loop("doudizhu", 3, s, g)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="time runs by wall or CPU time"
    )
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    print(f"{'game':<28}{'games/s':>12}{'actions/s':>14}{'KB/state':>10}{'vs anchor':>11}  pairs")
    for game in args.games:
        eng = get_engine(game)
        players = min(max(args.players, eng.min_players), eng.max_players)
        options = {"turn_seconds": None}
        ours_loop = engine_loop(game, players, args.seconds, options)
        kb = state_bytes(game, players, options) / 1024
        ratio = pairs = ""
        anchor_row = None
        try:
            label, make = ANCHORS[game]
            ours, theirs, ratios = measure_pair(ours_loop, make(players, args.seconds, 0), args.runs, clock)
            ratio = f"{statistics.median(ratios):.2f}x"
            pairs = " ".join(f"{r:.2f}" for r in ratios)
            anchor_row = (label, theirs)
        except KeyError:  # no anchor for this game
            ours = measure(ours_loop, args.seconds, args.runs, clock)
        except ImportError as err:
            ours = measure(ours_loop, args.seconds, args.runs, clock)
            ratio = f"({err.name} missing)"
        label = f"{game} ({players}p)"
        print(f"{label:<28}{ours['games_s']:>12.1f}{ours['actions_s']:>14.0f}{kb:>10.1f}{ratio:>11}  {pairs}")
        if anchor_row:
            label, theirs = anchor_row
            print(f"{'  ' + label:<28}{theirs['games_s']:>12.1f}{theirs['actions_s']:>14.0f}")


if __name__ == "__main__":
    main()
