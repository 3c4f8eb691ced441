"""El Puteo bot metrics beyond the win rate: sole survival, lives lost per round, decision time.

    .venv/bin/python -m bench.puteo_bots [--n 2000] [--workers 2] [--pairings hard:easy normal:easy]

One tested bot against three of another level, the tested bot rotating through the seats
(seed % 4), exactly as ``bench.bots``. For each pairing it reports, with 95% intervals:

- **sole survivor**: the tested bot is the only winner (``result["winners"] == [seat]``);
- **lives lost per round**: lives lost per round played while alive, tested bot vs the others;
- **p99 decision time** of the tested bot (ms, every ``choose`` call that had a real choice).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.bots import wilson
from cardgames.bots import get_bot
from cardgames.engines import get_engine

PLAYERS = 4


def one_game(args: tuple[str, str, int]) -> dict[str, Any]:
    """Play one game; count the tested seat's lives lost and rounds alive, and time its choices."""
    tested, others, seed = args
    eng = get_engine("puteo")
    seat = seed % PLAYERS
    levels = [others] * PLAYERS
    levels[seat] = tested
    bots = [get_bot("puteo", level) for level in levels]
    rngs = [random.Random(f"{seed}:{s}") for s in range(PLAYERS)]
    state = eng.new_game(PLAYERS, seed=seed, options={"turn_seconds": None})
    lost = [0] * PLAYERS
    rounds = [0] * PLAYERS
    times: list[float] = []
    while not eng.is_over(state):
        acted = False
        for s in eng.to_act(state):
            legal = eng.legal_actions(state, s)
            view = eng.view(state, s)
            start = time.perf_counter()
            action, _ = bots[s].choose(view, legal, rngs[s], {})  # El Puteo bots keep no memory
            if s == seat and len(legal) > 1:
                times.append(time.perf_counter() - start)
            if action is not None:
                state, events = eng.apply(state, s, action)
                acted = True
                break
        if not acted:
            timer = min(eng.timers(state), key=lambda t: t["seconds"])
            state, events = eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})
        for event in events:
            if event["type"] == "round_end":
                view = eng.view(state, None)
                played = view["last_round"] or view  # in the pause, or the game's last round
                for s, b in enumerate(played["bids"]):
                    rounds[s] += b is not None
                for s in event["lost_life"]:
                    lost[s] += 1
    result = eng.result(state)
    others_seats = [s for s in range(PLAYERS) if s != seat]
    return {
        "sole": result["winners"] == [seat],
        "lost": lost[seat],
        "rounds": rounds[seat],
        "others_lost": sum(lost[s] for s in others_seats),
        "others_rounds": sum(rounds[s] for s in others_seats),
        "times": times,
    }


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def pairing(tested: str, others: str, n: int, workers: int) -> dict[str, Any]:
    jobs = [(tested, others, seed) for seed in range(n)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        games = list(pool.map(one_game, jobs, chunksize=20))
    sole = sum(1 for g in games if g["sole"])
    # lives lost per round alive, per game (a ratio estimator would hide the game-to-game spread)
    mine = [g["lost"] / g["rounds"] for g in games if g["rounds"]]
    theirs = [g["others_lost"] / g["others_rounds"] for g in games if g["others_rounds"]]
    times = sorted(t for g in games for t in g["times"])
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000 if times else 0.0
    return {
        "sole": (sole, n, *wilson(sole, n)),
        "mine": mean_ci(mine),
        "theirs": mean_ci(theirs),
        "p99_ms": p99,
        "max_ms": times[-1] * 1000 if times else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pairings", nargs="*", default=["hard:easy", "normal:easy", "hard:normal"])
    args = parser.parse_args()
    for spec in args.pairings:
        tested, others = spec.split(":")
        r = pairing(tested, others, args.n, args.workers)
        sole, n, lo, hi = r["sole"]
        (m, mh), (o, oh) = r["mine"], r["theirs"]
        print(
            f"puteo {tested:>6} vs 3x {others:<6} sole survivor {sole / n:6.1%} [{lo:.1%}, {hi:.1%}]  "
            f"lives lost/round {m:.3f}±{mh:.3f} vs others {o:.3f}±{oh:.3f}  "
            f"p99 {r['p99_ms']:.2f} ms (max {r['max_ms']:.1f})  n={n}"
        )


if __name__ == "__main__":
    main()
