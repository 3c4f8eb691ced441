"""The normal Skyjo bot: thresholds, columns and a guard against a bad close (SK-14, SK-22)."""

from __future__ import annotations

import random

from cardgames.bots.memoryless import Memoryless

from .board import (
    COLUMNS,
    DOWN,
    GONE,
    Action,
    Table,
    View,
    common_move,
    face_down,
    highest_face_up,
    occupied,
    pick,
    place,
    visible_sum,
    would_close,
)


class NormalBot(Memoryless):
    """Thresholds, column building and a guard against a losing close."""

    def act(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = common_move(legal)
        if common is not None:
            return common
        t = Table(view)
        grid = t.mine
        if legal[0]["type"] == "reveal":
            return rng.choice(legal)
        if t.rushing:
            return self._rush(t, legal, rng)
        if t.held is None:
            top = t.discard_top
            target = None if top is None else self._target(t, top, from_discard=True)
            if top is not None and target is None and top <= 3:
                target = self._least_bad(t, top)
            if top is not None and target is not None and grid[target] != top:
                after = place(grid, target, top)
                if not (t.closer is None and would_close(after) and self._bad_close(t, visible_sum(after))):
                    return pick(legal, "take_discard") or legal[0]
            return pick(legal, "draw") or legal[0]
        x = t.held
        target = self._target(t, x, from_discard=t.held_source == "discard")
        downs = face_down(grid)
        if target is None:
            if t.held_source == "draw" and downs:
                reveal = self._reveal_choice(t, rng)
                if not (self._closes(t, grid, reveal) and self._bad_close(t, visible_sum(grid) + t.mean)):
                    return pick(legal, "discard_and_reveal", reveal) or legal[0]
            target = self._least_bad(t, x)
        after = place(grid, target, x)
        if t.closer is None and would_close(after) and self._bad_close(t, visible_sum(after)):
            safe = [p for p in occupied(grid) if grid[p] != DOWN]
            if safe:
                target = min(safe, key=lambda p: visible_sum(place(grid, p, x)))
        return pick(legal, "swap", target) or legal[0]

    @staticmethod
    def _rush(t: Table, legal: list[Action], rng: random.Random) -> Action:
        """Draw; keep a low card on a face-down slot, else discard it and reveal (see PATIENCE)."""
        if t.held is None:
            return pick(legal, "draw") or legal[0]
        downs = face_down(t.mine)
        if not downs:
            return pick(legal, "swap", highest_face_up(t.mine)) or legal[0]
        if t.held <= 4 or t.held_source == "discard":
            return pick(legal, "swap", downs[0]) or legal[0]
        return pick(legal, "discard_and_reveal", rng.choice(downs)) or legal[0]

    def _target(self, t: Table, x: int, from_discard: bool) -> int | None:
        """A good home for ``x``: completing a column, else over a much higher card, else a face-down slot."""
        grid = t.mine
        for col in COLUMNS:
            cells = [grid[p] for p in col]
            if cells.count(x) == 2:
                for p in col:
                    if grid[p] != x and grid[p] != GONE:
                        return p
        high = highest_face_up(grid)
        if high is not None and grid[high] - x >= (1 if from_discard else 3):
            return high
        if x <= 4:
            downs = face_down(grid)
            if downs:
                # prefer a column already showing x, else a column with no high card
                return min(downs, key=lambda p: (0 if x in [grid[q] for q in COLUMNS[p % 4]] else 1, p))
        return None

    def _least_bad(self, t: Table, x: int) -> int:
        grid = t.mine
        # nothing good: give up the card that hurts most (a face-down card counts as the mean)
        return max(occupied(grid), key=lambda p: grid[p] if grid[p] < DOWN else t.mean)

    def _reveal_choice(self, t: Table, rng: random.Random) -> int:
        grid = t.mine
        downs = face_down(grid)
        return rng.choice(downs)

    @staticmethod
    def _closes(t: Table, grid: list[int], reveal_pos: int) -> bool:
        return t.closer is None and [p for p in face_down(grid) if p != reveal_pos] == []

    @staticmethod
    def _bad_close(t: Table, score: float) -> bool:
        if score <= 0:
            return False
        rivals = [visible_sum(t.grids[s]) + t.downs(s) * t.mean for s in range(t.n) if s != t.seat]
        return score >= min(rivals) - 2
