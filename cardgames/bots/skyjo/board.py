"""Reading a Skyjo view for the bots: the grids, the unseen cards, the actions (SK-2, SK-14)."""

from __future__ import annotations

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


def pick(legal: list[Action], kind: str, pos: int | None = None) -> Action | None:
    for action in legal:
        if action["type"] == kind and (pos is None or action.get("pos") == pos):
            return action
    return None


def common_move(legal: list[Action]) -> Action | None:
    """The moments with nothing to think about: dismissing the score screen (SK-32)."""
    if len(legal) == 1 and legal[0]["type"] == "ready":
        return legal[0]
    return None
