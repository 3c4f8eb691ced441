"""Skyjo bots at three levels (rules: /work/shared/rules/skyjo.md; docs/bots.md, "## Skyjo").

A bot sees only ``view(state, seat)`` and the legal actions. Everything in Skyjo
is public except face-down values (SK-27/SK-28), so the unseen-card distribution
is the 150-card deck (SK-2) minus every card the view shows (face-up grid cards,
the discard's top, a held card). The discard pile below its top is not
browsable (SK-29), so those cards stay in the "unseen" pool: a small bias that
a stateless bot accepts.

- easy: a beginner. Keeps low cards (drawn: up to 4, discard: up to 2), puts
  them over its highest face-up card or a random face-down one, reveals at
  random, and sometimes (20 %) does something arbitrary. Blind to columns and
  to the closer doubling.
- normal: thresholds plus column building (SK-14) and a guard against closing
  a round it would not win (SK-22).
- hard: expected values. Each option (take the discard, draw, where to swap,
  what to reveal) is scored by the expected value of its own grid, where a
  face-down card is worth the mean of the unseen cards, a column with a pair
  is discounted by the chance to complete it (at the final reveal or in the
  turns left), and closing the round is weighed against the chance of the
  doubling given the rivals' visible boards (SK-18, SK-22). It also decides
  between the discard and a draw by the expected value over the unseen cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

Action = dict[str, Any]
View = dict[str, Any]

VALUES: tuple[int, ...] = tuple(range(-2, 13))
COUNTS: dict[int, int] = {v: (5 if v == -2 else 15 if v == 0 else 10) for v in VALUES}  # SK-2
COLUMNS: tuple[tuple[int, int, int], ...] = tuple((c, c + 4, c + 8) for c in range(4))
#: turns per player after which normal and hard bots only make moves that turn a face-down card up,
#: so that bots that each avoid closing into a doubling (SK-22) cannot keep a round going for ever
PATIENCE = 25
DOWN = 100  # a face-down cell in a parsed grid
GONE = 101  # a removed cell (SK-14/SK-16)


# -- reading a view ----------------------------------------------------------------------------------
def parse_grid(cells: Sequence[str]) -> list[int]:
    return [DOWN if c == "hidden" else GONE if c == "removed" else int(c) for c in cells]


class Table:
    """What a bot extracts from a view: grids, the unseen-card distribution, who is where."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.grids = [parse_grid(g) for g in view["grids"]]
        self.n = len(self.grids)
        pool = dict(COUNTS)
        shown = [c for g in self.grids for c in g if c < DOWN]
        if view.get("discard_top") is not None:
            shown.append(int(view["discard_top"]))
        held = view.get("held")
        if held:
            shown.append(int(held["card"]))
        for v in shown:
            pool[v] = max(0, pool[v] - 1)
        total = sum(pool.values())
        if total == 0:  # a short fixed deck may show every card: fall back to the full deck's shape
            pool, total = dict(COUNTS), sum(COUNTS.values())
        self.pool = pool
        self.total = total
        self.mean = sum(v * c for v, c in pool.items()) / total
        self.var = sum(c * (v - self.mean) ** 2 for v, c in pool.items()) / total
        self.closer: int | None = view.get("closer")
        self.totals: list[int] = list(view.get("totals") or [0] * self.n)
        self.discard_top: int | None = None if view.get("discard_top") is None else int(view["discard_top"])
        self.held: int | None = int(held["card"]) if held else None
        self.held_source: str | None = held["source"] if held else None
        self.turns_played: int = int(view.get("turns_played") or 0)

    @property
    def rushing(self) -> bool:
        """A round that drags on (bots dodging a doubled close) is brought to an end: see PATIENCE."""
        return self.closer is None and self.turns_played >= PATIENCE * self.n

    @property
    def mine(self) -> list[int]:
        return self.grids[self.seat]

    def downs(self, seat: int) -> int:
        return sum(1 for c in self.grids[seat] if c == DOWN)

    def prob(self, value: int) -> float:
        return self.pool.get(value, 0) / self.total


def face_down(grid: Sequence[int]) -> list[int]:
    return [p for p, c in enumerate(grid) if c == DOWN]


def occupied(grid: Sequence[int]) -> list[int]:
    return [p for p, c in enumerate(grid) if c != GONE]


def place(grid: Sequence[int], pos: int, value: int) -> list[int]:
    """The grid after ``value`` lands face up at ``pos``, with a completed column removed (SK-14)."""
    new = list(grid)
    new[pos] = value
    col = COLUMNS[pos % 4]
    a, b, c = (new[p] for p in col)
    if a == b == c and a < DOWN:
        for p in col:
            new[p] = GONE
    return new


def visible_sum(grid: Sequence[int]) -> int:
    return sum(c for c in grid if c < DOWN)


def would_close(grid: Sequence[int]) -> bool:
    return all(c != DOWN for c in grid)


def highest_face_up(grid: Sequence[int]) -> int | None:
    ups = [p for p, c in enumerate(grid) if c < DOWN]
    return max(ups, key=lambda p: grid[p]) if ups else None


def _pick(legal: list[Action], kind: str, pos: int | None = None) -> Action | None:
    for action in legal:
        if action["type"] == kind and (pos is None or action.get("pos") == pos):
            return action
    return None


def _common(legal: list[Action]) -> Action | None:
    """The moments with nothing to think about: dismissing the score screen (SK-32)."""
    if len(legal) == 1 and legal[0]["type"] == "ready":
        return legal[0]
    return None


# -- easy -----------------------------------------------------------------------------------------------
class EasyBot:
    """A beginner: low cards in, high face-up cards out, everything else at random."""

    take_max = 2
    keep_max = 4
    blunder = 0.2

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = _common(legal)
        if common is not None:
            return common
        if rng.random() < self.blunder or legal[0]["type"] == "reveal":
            return rng.choice(legal)
        t = Table(view)
        grid = t.mine
        if t.held is None:
            top = t.discard_top
            take = top is not None and top <= self.take_max
            return _pick(legal, "take_discard" if take else "draw") or legal[0]
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
                return _pick(legal, "discard_and_reveal", rng.choice(downs)) or legal[0]
        return _pick(legal, "swap", target) or legal[0]


# -- normal ---------------------------------------------------------------------------------------------
class NormalBot:
    """Thresholds, column building and a guard against a losing close."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = _common(legal)
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
                    return _pick(legal, "take_discard") or legal[0]
            return _pick(legal, "draw") or legal[0]
        x = t.held
        target = self._target(t, x, from_discard=t.held_source == "discard")
        downs = face_down(grid)
        if target is None:
            if t.held_source == "draw" and downs:
                reveal = self._reveal_choice(t, rng)
                if not (self._closes(t, grid, reveal) and self._bad_close(t, visible_sum(grid) + t.mean)):
                    return _pick(legal, "discard_and_reveal", reveal) or legal[0]
            target = self._least_bad(t, x)
        after = place(grid, target, x)
        if t.closer is None and would_close(after) and self._bad_close(t, visible_sum(after)):
            safe = [p for p in occupied(grid) if grid[p] != DOWN]
            if safe:
                target = min(safe, key=lambda p: visible_sum(place(grid, p, x)))
        return _pick(legal, "swap", target) or legal[0]

    @staticmethod
    def _rush(t: Table, legal: list[Action], rng: random.Random) -> Action:
        """Draw; keep a low card on a face-down slot, else discard it and reveal (see PATIENCE)."""
        if t.held is None:
            return _pick(legal, "draw") or legal[0]
        downs = face_down(t.mine)
        if not downs:
            return _pick(legal, "swap", highest_face_up(t.mine)) or legal[0]
        if t.held <= 4 or t.held_source == "discard":
            return _pick(legal, "swap", downs[0]) or legal[0]
        return _pick(legal, "discard_and_reveal", rng.choice(downs)) or legal[0]

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


# -- hard -----------------------------------------------------------------------------------------------
def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


class HardBot:
    """Expected-value decisions; see the module docstring."""

    tempo = 0.6  # the cost of a face-down card beyond its mean: it delays closing and is a risk
    rival_gain = 2.5  # how much a rival is expected to improve in its last turn
    future_rate = 0.45  # share of the turns left in which a pair could be completed

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        common = _common(legal)
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
            take = _pick(legal, "take_discard")
            if take is not None and t.discard_top is not None:
                # a swap onto an equal face-up card changes nothing: two bots doing that to dodge a
                # closing would pass the same card back and forth for ever, so it does not count
                placed = ev.best_place(t.discard_top, skip_equal=True)
                if placed is not None:
                    options.append((placed[0], take))
            draw = _pick(legal, "draw")
            if draw is not None:
                options.append((ev.draw_value() - 0.05, draw))
            return min(options, key=lambda o: o[0])[1]
        assert t.held is not None
        placed = ev.best_place(t.held, skip_equal=t.held_source == "discard") or ev.best_place(t.held)
        assert placed is not None  # a held card always has an occupied position to go to (SK-18)
        best_value, best_pos = placed
        if t.held_source == "draw" and _pick(legal, "discard_and_reveal") is not None:
            reveal_value, reveal_pos = ev.best_reveal()
            if reveal_value < best_value:
                return _pick(legal, "discard_and_reveal", reveal_pos) or legal[0]
        return _pick(legal, "swap", best_pos) or legal[0]

    @staticmethod
    def _rush(t: Table, ev: _Evaluator, legal: list[Action]) -> Action:
        """Only moves that turn a face-down card up, the best of them (see PATIENCE)."""
        if t.held is None:
            return _pick(legal, "draw") or legal[0]
        grid = t.mine
        downs = face_down(grid)
        options = [(ev.value_after(place(grid, p, t.held)), "swap", p) for p in downs]
        if t.held_source == "draw" and downs:
            value, p = ev.best_reveal()
            options.append((value, "discard_and_reveal", p))
        if not options:
            return _pick(legal, "swap", highest_face_up(grid)) or legal[0]
        _, kind, pos = min(options)
        return _pick(legal, kind, pos) or legal[0]

    @staticmethod
    def _initial_reveal(t: Table, legal: list[Action], rng: random.Random) -> Action:
        # two cards of one column: a pair there is the seed of a removal (SK-14)
        grid = t.mine
        ups = [p for p, c in enumerate(grid) if c < DOWN]
        if ups:
            col = COLUMNS[ups[0] % 4]
            for p in col:
                if grid[p] == DOWN:
                    return _pick(legal, "reveal", p) or legal[0]
        return _pick(legal, "reveal", rng.choice([0, 1, 2, 3])) or legal[0]


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


BOTS: dict[str, type[EasyBot] | type[NormalBot] | type[HardBot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot"]
