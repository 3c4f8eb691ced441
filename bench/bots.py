"""Bot tournaments: one bot of a level against three of another, with 95% confidence intervals.

    .venv/bin/python -m bench.bots [--games one_card pika] [--n 2000] [--budget-ms 150] [--seed0 0]

The tested bot rotates through the seats. ``--budget-ms``: the thinking time of the searching
(hard) bots per decision, as the server's ``BOT_HARD_BUDGET_SECONDS`` (omitted: their fixed-size
search, no clock). ``--pairings hard:normal`` runs only the pairings named. ``--paired`` plays every
seed twice, the searching bots without and with ``--budget-ms``, and prints the paired difference.
A win is a first place (shared firsts count as wins); for El Puteo the tested bot must be the *sole* survivor.
Guandan plays team against team: see bench/guandan_bots.py.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from cardgames.bots import Budget
from cardgames.bots.driver import play_game

PAIRINGS = [("hard", "easy"), ("normal", "easy"), ("hard", "normal")]
ONE_VS_THREE_GAMES = ("one_card", "pika", "puteo", "skyjo")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _one_game(args: tuple[str, str, str, int, float | None]) -> bool:
    game, tested, others, seed, budget = args
    seat = seed % 4
    levels = [others] * 4
    levels[seat] = tested
    timed = None if budget is None else Budget(budget, time.perf_counter)
    _, result = play_game(game, levels, seed=seed, budget=timed)
    if game == "puteo":
        return result["winners"] == [seat]
    return seat in result["winners"]


def tournament(
    game: str,
    tested: str,
    others: str,
    n: int,
    workers: int = 2,
    *,
    budget: float | None = None,
    seed0: int = 0,
) -> tuple[int, int]:
    jobs = [(game, tested, others, seed, budget) for seed in range(seed0, seed0 + n)]
    if workers <= 1:
        return sum(map(_one_game, jobs)), n
    with ProcessPoolExecutor(max_workers=workers) as pool:
        wins = sum(pool.map(_one_game, jobs, chunksize=25))
    return wins, n


def paired(game: str, tested: str, others: str, n: int, budget: float, seed0: int = 0) -> str:
    """Each seed without and with ``budget`` (one process): both win rates and their paired
    difference with a 95 % normal interval."""
    before = after = 0
    diffs: list[int] = []
    for seed in range(seed0, seed0 + n):
        a = _one_game((game, tested, others, seed, None))
        b = _one_game((game, tested, others, seed, budget))
        before, after = before + a, after + b
        diffs.append(int(b) - int(a))
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
    (lo_a, hi_a), (lo_b, hi_b) = wilson(before, n), wilson(after, n)
    return (
        f"{before / n:.1%} [{lo_a:.1%}, {hi_a:.1%}] -> {after / n:.1%} [{lo_b:.1%}, {hi_b:.1%}]"
        f"  paired {mean:+.1%} ± {1.96 * sd / math.sqrt(n):.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(ONE_VS_THREE_GAMES))
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--seed0", type=int, default=0)
    parser.add_argument("--pairings", nargs="*", default=[f"{a}:{b}" for a, b in PAIRINGS])
    parser.add_argument("--paired", action="store_true")
    args = parser.parse_args()
    budget = None if args.budget_ms is None else args.budget_ms / 1000
    pairings = [tuple(p.split(":")) for p in args.pairings]
    for game in args.games:
        for tested, others in pairings:
            if args.paired:
                if budget is None:
                    parser.error("--paired compares with --budget-ms")
                rates = paired(game, tested, others, args.n, budget, args.seed0)
                print(f"{game:<10} {tested:>6} vs 3x {others:<6} {rates}  n={args.n}")
                continue
            wins, n = tournament(game, tested, others, args.n, args.workers, budget=budget, seed0=args.seed0)
            lo, hi = wilson(wins, n)
            rate = f"{wins / n:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]"
            print(f"{game:<10} {tested:>6} vs 3x {others:<6} {rate}  n={n}")


if __name__ == "__main__":
    main()
