"""Decision time of every bot: p50, p99 and worst, per game and level.

    .venv/bin/python -m bench.bot_latency [--games one_card pika] [--games-per-level 40] [--budget-ms 150]

Each level plays whole 4-player games (Guandan: 4 bots of the level) through
``cardgames.bots.driver``; every call to ``choose`` is timed with a wall clock.
The budget is 200 ms at p99 (design.md); searching (hard) bots get ``--budget-ms`` per decision,
the server's default ``BOT_HARD_BUDGET_SECONDS`` (150 ms) unless told otherwise. Run it on an
idle machine: wall time includes whatever else the machine does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from cardgames.bots import LEVELS, Bot, Budget, get_bot
from cardgames.bots.driver import MAX_STEPS
from cardgames.engines import GAMES, get_engine


class Timed:
    """Wrap a bot and record how long each decision takes (wall clock; ``cpu``: process time)."""

    def __init__(self, bot: Bot, sink: list[float], cpu: list[float] | None = None) -> None:
        self.bot, self.sink, self.cpu = bot, sink, cpu

    def choose(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, memory: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            return self.bot.choose(view, legal, rng, memory)
        finally:
            self.sink.append(time.perf_counter() - start)
            if self.cpu is not None:
                self.cpu.append(time.process_time() - start_cpu)


def play(
    game: str,
    level: str,
    seed: int,
    sink: list[float],
    budget: float | None = None,
    cpu: list[float] | None = None,
) -> None:
    from cardgames.bots.driver import BotTable, step

    eng = get_engine(game)
    timed = None if budget is None else Budget(budget, time.perf_counter)
    bots: list[Bot] = [Timed(get_bot(game, level, budget=timed), sink, cpu) for _ in range(4)]
    table = BotTable(bots, [random.Random(f"{seed}:{seat}") for seat in range(4)], paced=False)
    state = eng.new_game(4, seed=seed, options={"turn_seconds": None})
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return
        state = step(eng, state, table)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--games-per-level", type=int, default=40)
    parser.add_argument("--levels", nargs="*", default=list(LEVELS))
    parser.add_argument("--budget-ms", type=float, default=150.0)
    args = parser.parse_args()
    print(
        f"{'game':<10}{'level':<8}{'decisions':>10}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}"
        f"{'cpu p99':>10}{'cpu max':>10}"
    )
    for game in args.games:
        for level in args.levels:
            sink: list[float] = []
            cpu: list[float] = []
            for seed in range(args.games_per_level):
                play(game, level, seed, sink, args.budget_ms / 1000, cpu)
            ms = [t * 1000 for t in sink]
            cpu_ms = [t * 1000 for t in cpu]
            print(
                f"{game:<10}{level:<8}{len(ms):>10}{statistics.median(ms):>10.3f}"
                f"{percentile(ms, 0.99):>10.2f}{max(ms):>10.1f}"
                f"{percentile(cpu_ms, 0.99):>10.2f}{max(cpu_ms):>10.1f}"
            )


if __name__ == "__main__":
    main()
