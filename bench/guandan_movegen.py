"""Guandan move generation speed: every legal play of a 27-card hand holding both wildcards, leading.

    .venv/bin/python -m bench.guandan_movegen [--hands 2000] [--seed 1] [--repeat 3] [--playouts 2]

Measures ``movegen.legal_plays`` (the hot path: plays as (cards, interp) tuples)
and ``GuandanEngine.legal_actions`` (the same plays as wire dicts) over random
hands at random levels, plus following a random table. Targets (docs/performance.md):
median ≤ 5 ms and worst ≤ 50 ms for the leading case.

``--playouts SECONDS`` also runs bench.engines' random-playout loop for Guandan
and RLCard's Dou Dizhu game interleaved run by run in one process (the same
comparison as ``bench.engines --games guandan``, steadier on a loaded machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from cardgames.engines import get_engine
from cardgames.engines.guandan import movegen
from cardgames.engines.guandan.cards import CODES, FULL_DECK, INDEX, RANKS
from cardgames.engines.guandan.movegen import legal_plays


def random_hand(rng: random.Random, level: int) -> list[int]:
    """27 cards from the 108-card pack, both hearts of the level rank among them (GD-10)."""
    wc = level * 4 + 1
    deck = [INDEX[c] for c in FULL_DECK]
    deck.remove(wc)
    deck.remove(wc)
    return [*rng.sample(deck, 25), wc, wc]


def counts(cards: list[int]) -> list[int]:
    out = [0] * 54
    for c in cards:
        out[c] += 1
    return out


def summary(label: str, times: list[float], sizes: list[int]) -> None:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[int(len(ms) * 0.99) - 1]
    print(
        f"{label:<34} median {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  max {ms[-1]:6.2f} ms"
        f"  plays median {statistics.median(sizes):.0f} max {max(sizes)}"
    )


def rlcard_doudizhu_loop(seconds: float) -> Callable[[int], tuple[int, int]]:
    """RLCard's raw Dou Dizhu game, random legal actions (rlcard 1.2.0 API)."""
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    def run(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        games = actions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            game = DoudizhuGame()
            game.np_random = np.random.RandomState(rng.randrange(2**31))
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(state["actions"]))
                actions += 1
            games += 1
        return games, actions

    return run


def playouts(seconds: float, runs: int = 5) -> None:
    """Guandan and RLCard Dou Dizhu runs interleaved (the machine's load hits both alike)."""
    from bench.engines import engine_loop

    loops = {
        "guandan": engine_loop("guandan", 4, seconds, {"turn_seconds": None}),
        "doudizhu": rlcard_doudizhu_loop(seconds),
    }
    rates: dict[str, list[float]] = {name: [] for name in loops}
    cpu_rates: dict[str, list[float]] = {name: [] for name in loops}
    for r in range(runs):
        for name, loop in loops.items():
            start, cpu = time.perf_counter(), time.process_time()
            _, actions = loop(r)
            rates[name].append(actions / (time.perf_counter() - start))
            cpu_rates[name].append(actions / (time.process_time() - cpu))
    print(f"random playouts (median of {runs} interleaved runs of {seconds:g} s)")
    for label, table in (("wall", rates), ("cpu", cpu_rates)):
        ours, theirs = statistics.median(table["guandan"]), statistics.median(table["doudizhu"])
        ratios = sorted(a / b for a, b in zip(table["guandan"], table["doudizhu"], strict=True))
        print(
            f"  {label:<4} guandan {ours:8.0f} actions/s   RLCard Dou Dizhu {theirs:8.0f} actions/s"
            f"   ratio {ours / theirs:.2f}x (per-run {ratios[0]:.2f}–{ratios[-1]:.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time each hand this many times, cold each time, and keep the fastest (filters stalls)",
    )
    parser.add_argument("--playouts", type=float, default=0.0, help="seconds per playout run (0: skip)")
    args = parser.parse_args()
    if args.playouts:
        playouts(args.playouts)
    rng = random.Random(args.seed)
    eng = get_engine("guandan")
    # warm the group memo the way a running server has it warm
    for _ in range(50):
        level = rng.randrange(13)
        legal_plays(counts(random_hand(rng, level)), level)
    lead_t, lead_n, wire_t, wire_n, follow_t, follow_n = [], [], [], [], [], []
    for _ in range(args.hands):
        level = rng.randrange(13)
        hand = random_hand(rng, level)
        c = counts(hand)
        best = float("inf")
        for _ in range(args.repeat):
            # a hand the engine has not seen (its memo of recent hands would answer a repeat at
            # once); the group memo stays warm, as on a running server
            movegen.forget_hands()
            start = time.perf_counter()
            plays = legal_plays(c, level)
            best = min(best, time.perf_counter() - start)
        lead_t.append(best)
        lead_n.append(len(plays))
        table = rng.choice(plays)[1]
        start = time.perf_counter()
        follows = legal_plays(c, level, table)
        follow_t.append(time.perf_counter() - start)
        follow_n.append(len(follows))
        if len(wire_t) < args.hands // 4:
            rest = [INDEX[x] for x in FULL_DECK]
            for card in hand:
                rest.remove(card)
            others = [[CODES[i] for i in rest[k * 27 : (k + 1) * 27]] for k in range(3)]
            state = eng.new_game(
                4,
                seed=0,
                options={
                    "hands": [[CODES[i] for i in hand], *others],
                    "level": RANKS[level],
                    "levels": [RANKS[level], RANKS[level]],
                    "first_leader": 0,
                },
            )
            start = time.perf_counter()
            actions = eng.legal_actions(state, 0)
            wire_t.append(time.perf_counter() - start)
            wire_n.append(len(actions))
    print(
        f"{args.hands} random 27-card hands with both wildcards, random levels"
        f" (seed {args.seed}, leading: best of {args.repeat} per hand)"
    )
    summary("legal_plays, leading", lead_t, lead_n)
    summary("legal_plays, following a random play", follow_t, follow_n)
    summary("legal_actions (wire dicts), leading", wire_t, wire_n)


if __name__ == "__main__":
    main()
