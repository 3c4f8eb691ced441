"""The easy Skyjo bot: a beginner (docs/bots.md)."""

from __future__ import annotations

import random

from cardgames.bots.memoryless import Memoryless

from .board import (
    Action,
    Table,
    View,
    common_move,
    face_down,
    highest_face_up,
    occupied,
    pick,
)


class EasyBot(Memoryless):
    """A beginner: low cards in, high face-up cards out, everything else at random."""

    take_max = 2
    keep_max = 4
    blunder = 0.2

    def act(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = common_move(legal)
        if common is not None:
            return common
        if rng.random() < self.blunder or legal[0]["type"] == "reveal":
            return rng.choice(legal)
        t = Table(view)
        grid = t.mine
        if t.held is None:
            top = t.discard_top
            take = top is not None and top <= self.take_max
            return pick(legal, "take_discard" if take else "draw") or legal[0]
        x = t.held
        high = highest_face_up(grid)
        if high is not None and grid[high] > x:
            target = high
        else:
            downs = face_down(grid)
            target = rng.choice(downs) if downs else rng.choice(occupied(grid))
        if t.held_source == "draw" and x > self.keep_max:
            downs = face_down(grid)
            if downs:
                return pick(legal, "discard_and_reveal", rng.choice(downs)) or legal[0]
        return pick(legal, "swap", target) or legal[0]
