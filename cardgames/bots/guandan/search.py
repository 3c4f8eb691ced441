"""Endgame search of the hard Guandan bot: sample the hidden hands, play each lead out.

When few cards are left and every other hand's size is public (GD-60: counts of
10 or fewer are shown), the unseen cards (108 minus our hand, the discards and
the current trick) are dealt at random to the other active players, and each
candidate lead is played out in every sample with a fast greedy policy. The
lead with the best average finishing score for our team wins. Sample and
candidate counts are fixed (no clock: a bot must be deterministic), sized to
stay far below 200 ms per move.
"""

from __future__ import annotations

import random

from cardgames.engines.guandan.combos import BOMB, Interp, beats, bomb_strength, main_power
from cardgames.engines.guandan.movegen import legal_plays

from .common import Ctx, Move, distinct

MAX_HAND = 6  # search only when our hand is this small …
MAX_UNSEEN = 24  # … and the hidden cards are few
CANDIDATES = 4
SAMPLES = 6


def endgame_choice(ctx: Ctx, rng: random.Random) -> Move | None:
    """The best lead, or (following) the best answer where None = pass; None also when no search."""
    choice = endgame_search(ctx, rng)
    return choice[0] if choice else None


def endgame_search(ctx: Ctx, rng: random.Random) -> tuple[Move | None] | None:
    """(move,) with move None for a pass, or None when the position is not searched."""
    if sum(ctx.hand) > MAX_HAND:
        return None
    others = [s for s in range(4) if s != ctx.seat and s not in ctx.finished]
    sizes = [ctx.counts[s] for s in others]
    if any(n is None for n in sizes):
        return None
    from .policies import unseen_counts

    unseen = unseen_counts(ctx)
    pool = [c for c, n in enumerate(unseen) for _ in range(n)]
    known = [n for n in sizes if n is not None]
    if len(pool) != sum(known) or len(pool) > MAX_UNSEEN:
        return None  # the view does not pin the hidden cards down (should not happen)
    moves = sorted(distinct(ctx.moves, ctx.level), key=lambda m: (m.bomb, -len(m.cards), ctx.power(m)))
    if ctx.table is not None:  # following: the cheapest answers, the weakest bomb, or a pass
        plain = sorted((m for m in moves if not m.bomb), key=ctx.power)[: CANDIDATES - 2]
        bombs = sorted((m for m in moves if m.bomb), key=lambda m: bomb_strength(m.interp, ctx.level))[:1]
        candidates: list[Move | None] = [None, *plain, *bombs]
    else:
        candidates = list(moves[:CANDIDATES])
    if len(candidates) <= 1:
        return (candidates[0],) if candidates else None
    samples = []
    for _ in range(SAMPLES):
        rng.shuffle(pool)
        hands = [[0] * 54 for _ in range(4)]
        hands[ctx.seat] = list(ctx.hand)
        start = 0
        for seat, n in zip(others, known, strict=True):
            for c in pool[start : start + n]:
                hands[seat][c] += 1
            start += n
        samples.append(hands)
    passes = 0
    for entry in reversed(ctx.view.get("trick") or []):
        if "cards" in entry:
            break
        passes += 1
    best: tuple[float, Move | None] | None = None
    for move in candidates:
        total = 0.0
        for hands in samples:
            total += _rollout(ctx, [list(h) for h in hands], move, passes)
        if best is None or total > best[0]:
            best = (total, move)
    return (best[1],) if best else None


def _rollout(ctx: Ctx, hands: list[list[int]], first: Move | None, passes: int) -> float:
    """Play the deal out greedily after our move (None: a pass); our team's score from the places."""
    level = ctx.level
    finished = list(ctx.finished)
    seat = ctx.seat
    table: Interp | None = ctx.table
    owner = ctx.table_seat if ctx.table_seat is not None else seat
    move_cards: tuple[int, ...] = first.cards if first is not None else ()
    move_interp: Interp = first.interp if first is not None else (0, 0, -1, 0)
    for _ in range(200):
        if move_cards:
            for c in move_cards:
                hands[seat][c] -= 1
            table, owner, passes = move_interp, seat, 0
            if not any(hands[seat]):
                finished.append(seat)
                if len(finished) >= 3:
                    break
        else:
            passes += 1
        active = [s for s in range(4) if s not in finished]
        need = len(active) - (0 if owner in finished else 1)
        if passes >= need and table is not None and not move_cards:
            # trick over: the owner leads, or its partner / the next player (GD-28, GD-29)
            table = None
            passes = 0
            if owner not in finished:
                seat = owner
            elif (owner + 2) % 4 not in finished:
                seat = (owner + 2) % 4
            else:
                seat = next(s for s in ((owner + k) % 4 for k in range(1, 4)) if s not in finished)
        else:
            seat = next(s for s in ((seat + k) % 4 for k in range(1, 4)) if s not in finished)
        move_cards, move_interp = _greedy(hands[seat], level, table, owner, seat, hands)
    remaining = [s for s in range(4) if s not in finished]
    places = finished + remaining
    team = ctx.seat & 1
    score = 0.0
    for place, s in enumerate(places):
        if s & 1 == team:
            score += (4 - place) ** 2
    return score


def _greedy(
    hand: list[int], level: int, table: Interp | None, owner: int, seat: int, hands: list[list[int]]
) -> tuple[tuple[int, ...], Interp]:
    """Rollout policy: lead the biggest weakest play; answer opponents cheaply; bomb the nearly-out."""
    plays = legal_plays(hand, level, table)
    if table is None:
        plain = [p for p in plays if p[1][0] < BOMB] or plays
        cards, interp = min(plain, key=lambda p: (-len(p[0]), main_power(p[1], level)))
        return cards, interp
    if (owner - seat) % 2 == 0:
        return (), table  # partner's trick
    plain = [p for p in plays if p[1][0] < BOMB and beats(p[1], table, level)]
    if plain:
        return min(plain, key=lambda p: main_power(p[1], level))
    if sum(hands[owner]) <= 3:
        bombs = [p for p in plays if p[1][0] >= BOMB]
        if bombs:
            return min(bombs, key=lambda p: bomb_strength(p[1], level))
    return (), table
