"""The hard Skyjo bot: expected values of every option (SK-18, SK-22; docs/bots.md)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardgames.bots.memoryless import Memoryless

from .board import (
    COLUMNS,
    DOWN,
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


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


class HardBot(Memoryless):
    """Expected-value decisions; see the module docstring."""

    tempo = 0.6  # the cost of a face-down card beyond its mean: it delays closing and is a risk
    rival_gain = 2.5  # how much a rival is expected to improve in its last turn
    future_rate = 0.45  # share of the turns left in which a pair could be completed

    def act(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = common_move(legal)
        if common is not None:
            return common
        t = Table(view)
        if legal[0]["type"] == "reveal":
            return self._initial_reveal(t, legal, rng)
        ev = _Evaluator(t, self)
        if t.rushing:
            return self._rush(t, ev, legal)
        if t.held is None:
            options: list[tuple[float, Action]] = []
            take = pick(legal, "take_discard")
            if take is not None and t.discard_top is not None:
                # a swap onto an equal face-up card changes nothing: two bots doing that to dodge a
                # closing would pass the same card back and forth for ever, so it does not count
                placed = ev.best_place(t.discard_top, skip_equal=True)
                if placed is not None:
                    options.append((placed[0], take))
            draw = pick(legal, "draw")
            if draw is not None:
                options.append((ev.draw_value() - 0.05, draw))
            return min(options, key=lambda o: o[0])[1]
        assert t.held is not None
        placed = ev.best_place(t.held, skip_equal=t.held_source == "discard") or ev.best_place(t.held)
        assert placed is not None  # a held card always has an occupied position to go to (SK-18)
        best_value, best_pos = placed
        if t.held_source == "draw" and pick(legal, "discard_and_reveal") is not None:
            reveal_value, reveal_pos = ev.best_reveal()
            if reveal_value < best_value:
                return pick(legal, "discard_and_reveal", reveal_pos) or legal[0]
        return pick(legal, "swap", best_pos) or legal[0]

    @staticmethod
    def _rush(t: Table, ev: _Evaluator, legal: list[Action]) -> Action:
        """Only moves that turn a face-down card up, the best of them (see PATIENCE)."""
        if t.held is None:
            return pick(legal, "draw") or legal[0]
        grid = t.mine
        downs = face_down(grid)
        options = [(ev.value_after(place(grid, p, t.held)), "swap", p) for p in downs]
        if t.held_source == "draw" and downs:
            value, p = ev.best_reveal()
            options.append((value, "discard_and_reveal", p))
        if not options:
            return pick(legal, "swap", highest_face_up(grid)) or legal[0]
        _, kind, pos = min(options)
        return pick(legal, kind, pos) or legal[0]

    @staticmethod
    def _initial_reveal(t: Table, legal: list[Action], rng: random.Random) -> Action:
        # two cards of one column: a pair there is the seed of a removal (SK-14)
        grid = t.mine
        ups = [p for p, c in enumerate(grid) if c < DOWN]
        if ups:
            col = COLUMNS[ups[0] % 4]
            for p in col:
                if grid[p] == DOWN:
                    return pick(legal, "reveal", p) or legal[0]
        return pick(legal, "reveal", rng.choice([0, 1, 2, 3])) or legal[0]


class _Evaluator:
    """Expected final round score of one's own grid under a hypothetical move (lower is better)."""

    def __init__(self, t: Table, bot: HardBot) -> None:
        self.t = t
        self.bot = bot
        self.last_turn = t.closer is not None  # SK-18: nobody plays again after this turn
        # turns left before someone can close: the fewest face-down cards on any board
        fewest = min(t.downs(s) for s in range(t.n))
        self.turns_left = 0.0 if self.last_turn else max(1.0, 1.3 * fewest)
        self.tempo = 0.0 if self.last_turn else bot.tempo
        self.rivals = [s for s in range(t.n) if s != t.seat]
        self._complete: dict[int, float] = {}

    def p_complete(self, value: int) -> float:
        """Chance to find a ``value`` for a pair in the turns left (0 on one's last turn)."""
        if value not in self._complete:
            if self.turns_left == 0:
                self._complete[value] = 0.0
            else:
                tries = self.turns_left * self.bot.future_rate * 2
                self._complete[value] = min(0.8, 1 - (1 - self.t.prob(value)) ** tries)
        return self._complete[value]

    def column(self, cells: Sequence[int]) -> float:
        ups = [c for c in cells if c < DOWN]
        downs = sum(1 for c in cells if c == DOWN)
        base = sum(ups) + downs * self.t.mean
        if len(ups) >= 2 and downs + len(ups) == 3:
            v = ups[0] if ups.count(ups[0]) >= 2 else ups[1] if ups.count(ups[1]) >= 2 else None
            if v is not None:
                p = self.p_complete(v)
                if downs == 1:
                    p = 1 - (1 - p) * (1 - self.t.prob(v))  # or at the final reveal (SK-19)
                base *= 1 - p if base > 0 else 1
        return base + downs * self.tempo

    def grid_value(self, grid: Sequence[int]) -> float:
        return sum(self.column([grid[p] for p in col]) for col in COLUMNS)

    def closing_value(self, score: float) -> float:
        """SK-22: one's score if one closes now with ``score``, doubling included by its chance."""
        if score <= 0:
            return score
        p_exclusive = 1.0
        t = self.t
        for s in self.rivals:
            grid = t.grids[s]
            mean = visible_sum(grid) + t.downs(s) * t.mean - self.bot.rival_gain
            sd = math.sqrt(t.downs(s) * t.var + 9.0)
            p_exclusive *= 1 - _phi((score + 0.5 - mean) / sd)
        return score * (2 - p_exclusive)

    def value_after(self, grid: list[int]) -> float:
        if not self.last_turn and would_close(grid):
            return self.closing_value(visible_sum(grid))
        return self.grid_value(grid)

    def best_place(self, x: int, skip_equal: bool = False) -> tuple[float, int] | None:
        grid = self.t.mine
        return min(
            (
                (self.value_after(place(grid, p, x)), p)
                for p in occupied(grid)
                if not (skip_equal and grid[p] == x)
            ),
            default=None,
        )

    def best_reveal(self) -> tuple[float, int]:
        grid = self.t.mine
        best: tuple[float, int] | None = None
        for p in face_down(grid):
            value = 0.0
            for v, count in self.t.pool.items():
                if count:
                    value += count * self.value_after(place(grid, p, v))
            value /= self.t.total
            if best is None or value < best[0]:
                best = (value, p)
        assert best is not None
        return best

    def draw_value(self) -> float:
        reveal = self.best_reveal()[0] if face_down(self.t.mine) else math.inf
        value = 0.0
        for v, count in self.t.pool.items():
            if count:
                placed = self.best_place(v)
                value += count * min(placed[0] if placed else math.inf, reveal)
        return value / self.t.total
