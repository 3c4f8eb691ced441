"""The hard Guandan bot's determinized search: deal the hidden cards, play each candidate out.

Only the seat's information is used: the unseen cards are 108 minus its hand, the discards and
the current trick (all public, GD-58), dealt at random to the other active seats by their
counts (public at 10 or fewer, GD-60; larger hands share what is left evenly). Each candidate
(hard's heuristic move, the lowest play of every other kind its plan holds, or when following:
a pass, the cheapest answers and the weakest bomb) is played out on the same sampled deals
with the normal policy for all four seats (``rollout``), and scored by the levels the deal
gives our team. The search overrules hard's heuristic move only when a candidate's mean paired
difference against it is ``GATE`` standard errors above zero: with few play-outs the best mean
is mostly noise, and hard's heuristics already beat normal.

Without a budget the search plays ``FIXED_ROWS`` sampled deals and only in small positions,
so the bot stays deterministic and fast (tests, fingerprints); with one it samples until its
deadline (``cardgames.bots.budget``), abandoning a play-out that runs past it.
"""

from __future__ import annotations

import math
import random

from cardgames.bots.budget import Deadline
from cardgames.engines.guandan.combos import bomb_strength

from .common import Ctx, Move, distinct, signature
from .rollout import play_out

#: sampled deals per decision without a budget, and the positions searched then (cards still held
#: by the active seats): small enough that a bot with no clock stays fast (CPU p99 ≈ 30 ms)
FIXED_ROWS = 6
FIXED_MAX_CARDS = 40
#: sampled deals at most with a budget (a clock that never runs out must not loop for ever)
MAX_ROWS = 400
MIN_ROWS = 4
#: standard errors by which a candidate's paired mean must beat hard's move to overrule it (0, 1
#: and 2 measured at 20–30 ms a decision: 1 did best, docs/bots.md)
GATE = 1.0
MAX_CANDIDATES = 5


def search(ctx: Ctx, default: Move | None, rng: random.Random, deadline: Deadline) -> Move | None:
    """The move to make: ``default`` (hard's heuristic move, None = pass) unless the search finds
    a candidate clearly better on the sampled deals."""
    if not deadline.timed and _cards_held(ctx) > FIXED_MAX_CARDS:
        return default
    candidates = _candidates(ctx, default)
    if len(candidates) <= 1:
        return default
    others = [s for s in range(4) if s != ctx.seat and s not in ctx.finished]
    sizes = _hidden_sizes(ctx, others)
    if sizes is None:
        return default
    pool = [c for c, n in enumerate(_unseen(ctx)) for _ in range(n)]
    passes = _passes(ctx)
    stop = deadline.passed if deadline.timed else None
    rows: list[list[float]] = []
    for _ in range(MAX_ROWS if deadline.timed else FIXED_ROWS):
        if deadline.passed():
            break
        hands = _deal(ctx, others, sizes, pool, rng)
        row: list[float] = []
        for move in candidates:
            value = play_out(
                [list(h) for h in hands],
                ctx.level,
                ctx.seat,
                move,
                ctx.table,
                ctx.table_seat,
                passes,
                ctx.finished,
                stop,
            )
            if value is None:
                break
            row.append(value)
        if len(row) < len(candidates):
            break  # the deadline came mid-row: the row is not a paired comparison, drop it
        rows.append(row)
    return _gated(candidates, rows)


def _gated(candidates: list[Move | None], rows: list[list[float]]) -> Move | None:
    """The candidate whose mean paired difference against ``candidates[0]`` (the default) is the
    largest, if it clears ``GATE`` standard errors; else the default."""
    n = len(rows)
    if n < MIN_ROWS:
        return candidates[0]
    best, best_mean = 0, 0.0
    for i in range(1, len(candidates)):
        diffs = [row[i] - row[0] for row in rows]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        se = math.sqrt(var / n)
        if mean > GATE * se and mean > best_mean:
            best, best_mean = i, mean
    return candidates[best]


def _candidates(ctx: Ctx, default: Move | None) -> list[Move | None]:
    """Hard's move first, then the alternatives worth a play-out (distinct up to suits)."""
    out: list[Move | None] = [default]
    seen = {None if default is None else signature(default, ctx.level)}

    def add(move: Move | None) -> None:
        key = None if move is None else signature(move, ctx.level)
        if key not in seen and len(out) < MAX_CANDIDATES:
            seen.add(key)
            out.append(move)

    plain = [m for m in distinct(ctx.moves, ctx.level) if not m.bomb]
    bombs = sorted(
        (m for m in ctx.moves if m.bomb), key=lambda m: (bomb_strength(m.interp, ctx.level), m.cards)
    )
    if ctx.table is not None:
        add(None)
        for m in sorted(plain, key=lambda m: (ctx.cost_after(m), ctx.power(m)))[:2]:
            add(m)
        if bombs:
            add(bombs[0])
        return out
    from .policies import best_fit, planned_interps

    by_kind: dict[int, list[Move]] = {}
    for key in planned_interps(ctx):
        for m in plain:
            if (m.interp[0], m.interp[1]) == key:
                by_kind.setdefault(key[0], []).append(m)
    for kind in sorted(by_kind, key=lambda k: -len(by_kind[k])):
        add(best_fit(ctx, [min(by_kind[kind], key=ctx.power)]))
    if not by_kind and bombs:
        add(bombs[0])
    return out


def _unseen(ctx: Ctx) -> list[int]:
    from .policies import unseen_counts

    return unseen_counts(ctx)


def _cards_held(ctx: Ctx) -> int:
    """Cards still held by the active seats (ours counted exactly, hidden ones by the pool)."""
    return sum(_unseen(ctx)) + sum(ctx.hand)


def _hidden_sizes(ctx: Ctx, others: list[int]) -> list[int] | None:
    """Each other active seat's hand size: public at 10 or fewer (GD-60); the unseen cards left
    are shared evenly by the larger hands. None when the counts do not add up."""
    total = sum(_unseen(ctx))
    known = [ctx.counts[s] for s in others]
    rest = total - sum(n for n in known if n is not None)
    unknown = [i for i, n in enumerate(known) if n is None]
    if rest < 0 or (not unknown and rest != 0):
        return None
    sizes = [n or 0 for n in known]
    for j, i in enumerate(unknown):
        sizes[i] = rest // len(unknown) + (j < rest % len(unknown))
    return sizes


def _deal(
    ctx: Ctx, others: list[int], sizes: list[int], pool: list[int], rng: random.Random
) -> list[list[int]]:
    rng.shuffle(pool)
    hands = [[0] * 54 for _ in range(4)]
    hands[ctx.seat] = list(ctx.hand)
    start = 0
    for seat, n in zip(others, sizes, strict=True):
        hand = hands[seat]
        for c in pool[start : start + n]:
            hand[c] += 1
        start += n
    return hands


def _passes(ctx: Ctx) -> int:
    """Passes since the table's play (the trick's last entries)."""
    passes = 0
    for entry in reversed(ctx.view.get("trick") or []):
        if "cards" in entry:
            break
        passes += 1
    return passes
