"""Guandan move generation speed: every legal play of a 27-card hand holding both wildcards, leading.

    .venv/bin/python -m bench.guandan_movegen [--hands 2000] [--seed 1]

Measures ``movegen.legal_plays`` (the hot path: plays as (cards, interp) tuples)
and ``GuandanEngine.legal_actions`` (the same plays as wire dicts) over random
hands at random levels, plus following a random table. Targets (docs/performance.md):
median ≤ 5 ms and worst ≤ 50 ms for the leading case.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cardgames.engines import get_engine
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time each hand this many times and keep the fastest (filters scheduler stalls)",
    )
    args = parser.parse_args()
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
