"""The One Card state: a ``__slots__`` record built for cheap copies.

``apply`` copies the record (about twenty pointer copies) and then replaces
only the fields it changes: hands are tuples (one is rebuilt per play), the
stock is a shared tuple read through a cursor (a draw moves the cursor, it
never copies the pile) and the discard under the top card is a persistent
linked list ``(card, rest)`` (a play pushes one cell). Nothing is ever mutated
in place, so every old state stays valid.
"""

from __future__ import annotations

from typing import Any

from ..base import JSON

# A persistent stack: None, or (card, rest).
Pile = tuple[str, "Pile"] | None


class State:
    __slots__ = (
        "attack",
        "called",
        "direction",
        "discard",
        "dsize",
        "hands",
        "idle",
        "lacks",
        "last",
        "n",
        "over",
        "rng",
        "seed",
        "spos",
        "stock",
        "suit",
        "top",
        "turn",
        "turn_no",
        "turn_seconds",
        "window_no",
        "windows",
    )

    n: int
    seed: int | str
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # the draw pile, top card first, read from ``spos``
    spos: int
    discard: Pile  # the cards under the top card, uppermost first
    dsize: int
    top: str
    suit: str  # the active suit (OC-13)
    attack: int  # pending attack amount; its rank is the top card's (OC-27)
    direction: int  # +1 ascending seats, -1 after a Q (OC-24)
    turn: int
    turn_no: int  # counts turn starts: the turn timer's id
    called: int  # bit per seat: the One Card flag (OC-37)
    windows: tuple[tuple[int, int], ...]  # open catch windows (seat, number), by seat
    window_no: int
    rng: int  # counter for base.rng_for (reshuffles)
    idle: int  # consecutive turns without a play or a drawn card (OC-66)
    lacks: tuple[str, ...]  # per seat: the active suit it last had to draw on ("" once it follows it)
    over: bool
    turn_seconds: float | None
    last: tuple[JSON, ...]  # the last apply's events (read-only), for views

    def copy(self) -> State:
        # spelled out: a loop over __slots__ with getattr/setattr is 3x slower
        new = State.__new__(State)
        new.attack = self.attack
        new.called = self.called
        new.direction = self.direction
        new.discard = self.discard
        new.dsize = self.dsize
        new.hands = self.hands
        new.idle = self.idle
        new.lacks = self.lacks
        new.last = self.last
        new.n = self.n
        new.over = self.over
        new.rng = self.rng
        new.seed = self.seed
        new.spos = self.spos
        new.stock = self.stock
        new.suit = self.suit
        new.top = self.top
        new.turn = self.turn
        new.turn_no = self.turn_no
        new.turn_seconds = self.turn_seconds
        new.window_no = self.window_no
        new.windows = self.windows
        return new

    # -- helpers ---------------------------------------------------------
    def stock_size(self) -> int:
        return len(self.stock) - self.spos

    def discard_list(self) -> list[str]:
        """The cards under the top card, bottom first."""
        out: list[str] = []
        cell = self.discard
        while cell is not None:
            out.append(cell[0])
            cell = cell[1]
        out.reverse()
        return out

    def has_called(self, seat: int) -> bool:
        return bool(self.called >> seat & 1)

    def window_of(self, seat: int) -> int | None:
        for owner, number in self.windows:
            if owner == seat:
                return number
        return None

    # -- JSON ------------------------------------------------------------
    def dump(self) -> JSON:
        return {
            "n": self.n,
            "seed": self.seed,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock[self.spos :]),
            "discard": self.discard_list(),
            "top": self.top,
            "suit": self.suit,
            "attack": self.attack,
            "direction": self.direction,
            "turn": self.turn,
            "turn_no": self.turn_no,
            "called": [self.has_called(s) for s in range(self.n)],
            "windows": [[s, k] for s, k in self.windows],
            "window_no": self.window_no,
            "rng": self.rng,
            "idle": self.idle,
            "lacks": list(self.lacks),
            "over": self.over,
            "turn_seconds": self.turn_seconds,
            "last": [{k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in self.last],
        }

    @staticmethod
    def load(data: JSON) -> State:
        s = State.__new__(State)
        s.n = int(data["n"])
        s.seed = data["seed"]
        s.hands = tuple(tuple(h) for h in data["hands"])
        s.stock = tuple(data["stock"])
        s.spos = 0
        pile: Pile = None
        for card in data["discard"]:
            pile = (card, pile)
        s.discard = pile
        s.dsize = len(data["discard"])
        s.top = data["top"]
        s.suit = data["suit"]
        s.attack = int(data["attack"])
        s.direction = int(data["direction"])
        s.turn = int(data["turn"])
        s.turn_no = int(data["turn_no"])
        s.called = sum(1 << i for i, flag in enumerate(data["called"]) if flag)
        s.windows = tuple((int(w[0]), int(w[1])) for w in data["windows"])
        s.window_no = int(data["window_no"])
        s.rng = int(data["rng"])
        s.idle = int(data["idle"])
        s.lacks = tuple(data.get("lacks") or [""] * s.n)
        s.over = bool(data["over"])
        s.turn_seconds = data["turn_seconds"]
        s.last = tuple(dict(e) for e in data.get("last", ()))
        return s


def as_state(obj: Any) -> State:
    if not isinstance(obj, State):
        raise TypeError(f"not a One Card state: {type(obj).__name__}")
    return obj
