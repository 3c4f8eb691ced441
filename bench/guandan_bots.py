"""Guandan bot strength, team against team: deals and matches won, with 95% Wilson intervals.

    .venv/bin/python -m bench.guandan_bots [--deals 1000] [--workers 2] [--pairings hard:easy hard:normal]
        [--budget-ms 150] [--seed0 0]

A team of two bots of one level (partners, opposite seats) plays whole matches
against a team of another level through ``cardgames.bots.driver.step``; the
tested team takes seats 0+2 in even matches and 1+3 in odd ones. Every deal of
every match counts (its winner is the team of the first finisher, GD-2), and
matches are added until at least ``--deals`` deals were played. Matches are
also counted whole (won at A, GD-42). Also reported: the slowest bot move and
the 99th percentile of move times (bot thinking only, engine calls excluded), as
wall-clock time and as process CPU time (the latter ignores time spent waiting
for a core on a loaded machine). ``--budget-ms``: the searching (hard) bots' thinking time per
decision, as the server's ``BOT_HARD_BUDGET_SECONDS`` (omitted: their fixed-size search, no
clock). ``--seed0``: the first match seed, so that two runs can share their seeds (paired).
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.bots import wilson
from cardgames.bots import Budget, get_bot
from cardgames.engines import get_engine

MAX_STEPS = 200_000


def play_match(job: tuple[str, str, int, float | None]) -> dict[str, Any]:
    """One match; the deals' winners from the tested team's point of view, and bot move times."""
    tested, other, seed, budget = job
    team = seed % 2
    levels = [tested if s % 2 == team else other for s in range(4)]
    eng = get_engine("guandan")
    timed = None if budget is None else Budget(budget, time.perf_counter)
    bots = [get_bot("guandan", lv, budget=timed) for lv in levels]
    rngs = [random.Random(f"{seed}:{s}") for s in range(4)]
    state = eng.new_game(4, seed=seed, options={"turn_seconds": None})
    deals: list[bool] = []
    times: list[float] = []
    cpus: list[float] = []
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            break
        phase = eng.view(state, None)["phase"]
        acted = False
        for seat in eng.to_act(state):
            view, legal = eng.view(state, seat), eng.legal_actions(state, seat)
            start, cpu = time.perf_counter(), time.process_time()
            action, _ = bots[seat].choose(view, legal, rngs[seat], {})  # Guandan bots keep no memory
            if levels[seat] == tested:
                times.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
            if action is not None:
                state = eng.apply(state, seat, action)[0]
                acted = True
                break
        if not acted:
            timer = min(eng.timers(state), key=lambda t: t["seconds"])
            state = eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
        after = eng.view(state, None)
        if phase == "play" and after["phase"] in ("between", "over"):
            deals.append(after["previous_places"][0] % 2 == team)
    else:
        raise RuntimeError(f"match {seed} did not end")
    won = eng.result(state)["winners"][0] % 2 == team
    return {"deals": deals, "match": won, "times": times, "cpus": cpus}


def pairing(
    tested: str, other: str, deals: int, workers: int, first_seed: int = 0, budget: float | None = None
) -> dict[str, Any]:
    won_deals = total_deals = won_matches = matches = 0
    times: list[float] = []
    cpus: list[float] = []
    seed = first_seed
    # one worker: in this process (no pool), so a run at nice 19 is one busy core at most
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    mapper = map if pool is None else pool.map
    try:
        while total_deals < deals:
            batch = [(tested, other, s, budget) for s in range(seed, seed + 2 * workers)]
            seed += len(batch)
            for out in mapper(play_match, batch):
                won_deals += sum(out["deals"])
                total_deals += len(out["deals"])
                won_matches += out["match"]
                matches += 1
                times.extend(out["times"])
                cpus.extend(out["cpus"])
    finally:
        if pool is not None:
            pool.shutdown()
    times.sort()
    cpus.sort()
    return {
        "cpu_max_ms": cpus[-1] * 1000,
        "cpu_p99_ms": cpus[int(len(cpus) * 0.99)] * 1000,
        "deals": (won_deals, total_deals),
        "matches": (won_matches, matches),
        "max_ms": times[-1] * 1000,
        "p99_ms": times[int(len(times) * 0.99)] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pairings", nargs="*", default=["hard:easy", "hard:normal", "normal:easy"])
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--seed0", type=int, default=0)
    args = parser.parse_args()
    budget = None if args.budget_ms is None else args.budget_ms / 1000
    for item in args.pairings:
        tested, other = item.split(":")
        start = time.perf_counter()
        out = pairing(tested, other, args.deals, args.workers, args.seed0, budget)
        (wd, nd), (wm, nm) = out["deals"], out["matches"]
        dlo, dhi = wilson(wd, nd)
        mlo, mhi = wilson(wm, nm)
        print(
            f"2x {tested:<6} vs 2x {other:<6} deals {wd / nd:6.1%} [{dlo:.1%}, {dhi:.1%}] n={nd}   "
            f"matches {wm / nm:6.1%} [{mlo:.1%}, {mhi:.1%}] n={nm}   "
            f"{tested} move wall p99 {out['p99_ms']:.0f} ms max {out['max_ms']:.0f} ms,"
            f" cpu p99 {out['cpu_p99_ms']:.0f} ms max {out['cpu_max_ms']:.0f} ms"
            f"   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
