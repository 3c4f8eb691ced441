"""The One Card state: a ``__slots__`` record built for cheap copies.

``apply`` builds a new record field by field (seventeen pointer copies) and replaces
only the fields it changes. The hands of all seats are one int (``actions.SEAT_SHIFT``: a
bit per card, seat ``k`` at bit ``64 * k``), so a play is one ``^`` and a draw one ``|``;
the top card, the active suit, a pending attack and the cards they let be played are one
shared ``actions.Situation``; the stock is a shared tuple read through a cursor (a draw
moves the cursor, it never copies the pile) and the discard under the top card is a
persistent linked list ``(card, rest, size)`` (a play pushes one cell). Nothing is ever
mutated in place, so every old state stays valid. ``dump``, ``load`` and the views
convert at the boundary: their JSON is unchanged.
"""

from __future__ import annotations

from typing import Any

from ..base import JSON
from .actions import Situation, cards_of, mask_of, situation

# A persistent stack: None, or (card, rest, size of the stack).
Pile = tuple[str, "Pile", int] | None


class State:
    # No __init__: State() makes an empty record, ~470 instructions cheaper than
    # State.__new__(State) (which goes through a wrapper of object.__new__).
    __slots__ = (
        "busy",
        "called",
        "cfg",
        "direction",
        "discard",
        "hands",
        "idle",
        "lacks",
        "last",
        "n",
        "over",
        "sit",
        "stock",
        "turn",
        "turn_no",
        "twos",
        "win",
    )

    n: int
    cfg: tuple[int | str, float | None]  # (seed, turn_seconds): never changes
    hands: tuple[int, ...]  # per seat, the hand as a mask (actions.BIT), in hand order
    stock: tuple[tuple[str, ...], int, int]  # (draw pile top card first, cursor, rng counter)
    discard: Pile  # the cards under the top card, uppermost first
    sit: Situation  # top card, active suit (OC-13), pending attack (OC-27), playable mask
    direction: int  # +1 ascending seats, -1 after a Q (OC-24)
    turn: int
    turn_no: int  # counts turn starts: the turn timer's id
    called: int  # bit per seat: the One Card flag (OC-37)
    twos: int  # bit per seat: holds exactly two cards (so may pre-call, OC-36)
    win: tuple[tuple[tuple[int, int], ...], int]  # (open catch windows (seat, number) by seat, last number)
    idle: int  # consecutive turns without a play or a drawn card (OC-66)
    lacks: tuple[str, ...]  # per seat: the active suit it last had to draw on ("" once it follows it)
    over: bool
    last: tuple[JSON, ...]  # the last apply's events (read-only), for views
    # derived: true when the game is over, a window is open or a seat may pre-call (to_act and
    # legal_actions then take their long way)
    busy: int

    def copy(self) -> State:
        new = State()
        new.busy = self.busy
        new.called = self.called
        new.cfg = self.cfg
        new.direction = self.direction
        new.discard = self.discard
        new.hands = self.hands
        new.idle = self.idle
        new.lacks = self.lacks
        new.last = self.last
        new.n = self.n
        new.over = self.over
        new.sit = self.sit
        new.stock = self.stock
        new.turn = self.turn
        new.turn_no = self.turn_no
        new.twos = self.twos
        new.win = self.win
        return new

    # -- read helpers (never on the hot path) ----------------------------
    @property
    def seed(self) -> int | str:
        return self.cfg[0]

    @property
    def turn_seconds(self) -> float | None:
        return self.cfg[1]

    @property
    def windows(self) -> tuple[tuple[int, int], ...]:
        return self.win[0]

    @property
    def window_no(self) -> int:
        return self.win[1]

    @property
    def top(self) -> str:
        return self.sit.top

    @property
    def suit(self) -> str:
        return self.sit.suit

    @property
    def attack(self) -> int:
        return self.sit.attack

    @property
    def dsize(self) -> int:
        return 0 if self.discard is None else self.discard[2]

    def hand(self, seat: int) -> int:
        return self.hands[seat]

    def hand_cards(self, seat: int) -> list[str]:
        return cards_of(self.hands[seat])

    def hand_sizes(self) -> list[int]:
        return [hand.bit_count() for hand in self.hands]

    def stock_cards(self) -> tuple[str, ...]:
        cards, pos, _ = self.stock
        return cards[pos:]

    def stock_size(self) -> int:
        cards, pos, _ = self.stock
        return len(cards) - pos

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
        for owner, number in self.win[0]:
            if owner == seat:
                return number
        return None

    def set_busy(self) -> None:
        """``busy`` from the fields it sums up (after a change of ``over``, ``win``, ``twos``, ``called``)."""
        self.busy = 1 if self.over or self.win[0] else self.twos & ~self.called

    # -- JSON ------------------------------------------------------------
    def dump(self) -> JSON:
        sit = self.sit
        return {
            "n": self.n,
            "seed": self.cfg[0],
            "hands": [self.hand_cards(seat) for seat in range(self.n)],
            "stock": list(self.stock_cards()),
            "discard": self.discard_list(),
            "top": sit.top,
            "suit": sit.suit,
            "attack": sit.attack,
            "direction": self.direction,
            "turn": self.turn,
            "turn_no": self.turn_no,
            "called": [self.has_called(s) for s in range(self.n)],
            "windows": [[s, k] for s, k in self.win[0]],
            "window_no": self.win[1],
            "rng": self.stock[2],
            "idle": self.idle,
            "lacks": list(self.lacks),
            "over": self.over,
            "turn_seconds": self.cfg[1],
            "last": [{k: list(v) if isinstance(v, list) else v for k, v in e.items()} for e in self.last],
        }

    @staticmethod
    def load(data: JSON) -> State:
        s = State()
        s.n = int(data["n"])
        s.cfg = (data["seed"], data["turn_seconds"])
        s.hands = tuple(mask_of(h) for h in data["hands"])
        s.stock = (tuple(data["stock"]), 0, int(data["rng"]))
        pile: Pile = None
        for size, card in enumerate(data["discard"], 1):
            pile = (card, pile, size)
        s.discard = pile
        s.sit = situation(data["top"], data["suit"], int(data["attack"]), keep=False)
        s.direction = int(data["direction"])
        s.turn = int(data["turn"])
        s.turn_no = int(data["turn_no"])
        s.called = sum(1 << i for i, flag in enumerate(data["called"]) if flag)
        s.win = (tuple((int(w[0]), int(w[1])) for w in data["windows"]), int(data["window_no"]))
        s.idle = int(data["idle"])
        s.lacks = tuple(data.get("lacks") or [""] * s.n)
        s.over = bool(data["over"])
        s.last = tuple(dict(e) for e in data.get("last", ()))
        s.twos = twos_of(s)
        s.set_busy()
        return s


def twos_of(s: State) -> int:
    """The bit mask of the seats holding exactly two cards (``State.twos``)."""
    return sum(1 << seat for seat, size in enumerate(s.hand_sizes()) if size == 2)


def as_state(obj: Any) -> State:
    if not isinstance(obj, State):
        raise TypeError(f"not a One Card state: {type(obj).__name__}")
    return obj
