"""Play-outs for the hard Guandan bot's search: a deal finished by the normal policy for all four seats.

A play-out runs on plain count vectors (no engine state, no views): each seat's move is normal's
``lead`` / ``follow`` on a ``Ctx`` built from that seat's sampled hand, with the exact counts of the
others (normal reads them only for its bomb timing). The trick rules are the engine's (GD-24 …
GD-30: a trick ends when every other active seat passed; a finished owner's partner takes the
lead). The score is our team's result in the levels the deal gives (GD-38, GD-39).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardgames.engines.guandan.combos import Interp
from cardgames.engines.guandan.movegen import legal_plays

from .common import Ctx, Move

#: a play-out longer than this is cut (a deal of 108 cards never needs as many moves)
MAX_MOVES = 400
_NO_RNG = random.Random(0)  # normal's policy never rolls its dice


def normal_move(
    hands: list[list[int]],
    seat: int,
    level: int,
    table: Interp | None,
    owner: int | None,
    finished: list[int],
) -> Move | None:
    """Normal's move for ``seat`` holding ``hands[seat]`` (None: a pass)."""
    from .policies import NormalBot

    hand = hands[seat]
    plays = legal_plays(hand, level, table)
    moves = [Move({}, cards, interp) for cards, interp in plays]
    counts: list[int | None] = [sum(h) for h in hands]
    ctx = Ctx({}, seat, level, hand, table, owner, counts, finished, moves, table is not None)
    if not moves:
        return None
    bot = NormalBot()
    return bot.lead(ctx, _NO_RNG) if table is None else bot.follow(ctx, _NO_RNG)


def play_out(
    hands: list[list[int]],
    level: int,
    seat: int,
    first: Move | None,
    table: Interp | None,
    owner: int | None,
    passes: int,
    finished: list[int],
    stop: Callable[[], bool] | None = None,
) -> float | None:
    """Our team's score once ``seat`` has made ``first`` (None: a pass) and normal plays the deal out.

    ``hands`` are changed (pass copies). ``table``/``owner``/``passes``: the trick before the move.
    ``stop`` is looked at every few moves: when it says so the play-out is abandoned (None)."""
    me = seat
    finished = list(finished)
    move = first
    for step in range(MAX_MOVES):
        if move is not None:
            hand = hands[seat]
            for c in move.cards:
                hand[c] -= 1
            table, owner, passes = move.interp, seat, 0
            if not any(hand):
                finished.append(seat)
                if len(finished) >= 3:
                    break
            seat = _next(seat, finished)
        else:
            passes += 1
            assert owner is not None
            others = 4 - len(finished) - (owner not in finished)
            if passes >= others:
                table, passes = None, 0
                if owner not in finished:
                    seat = owner
                elif (owner + 2) % 4 not in finished:
                    seat = (owner + 2) % 4  # GD-29: the partner takes the lead
                else:
                    seat = _next(owner, finished)
            else:
                seat = _next(seat, finished)
        if stop is not None and step % 8 == 7 and stop():
            return None
        move = normal_move(hands, seat, level, table, owner, finished)
    else:
        return None
    return score(finished, me)


def score(finished: list[int], me: int) -> float:
    """Levels our team gains (+) or concedes (−) with these places: 3, 2 or 1 by the winner's
    partner's place (GD-38, GD-39), plus 2 for the deal itself (the bench's and the players'
    first measure is deals won)."""
    places = finished + [s for s in range(4) if s not in finished]
    winner = places[0]
    gain = 2 + 4 - places.index(winner ^ 2)
    return float(gain if winner & 1 == me & 1 else -gain)


def _next(seat: int, finished: list[int]) -> int:
    for k in range(1, 5):
        s = (seat + k) % 4
        if s not in finished:
            return s
    return seat
