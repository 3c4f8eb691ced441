"""Skyjo constants, the state record and its JSON form (SK-2, SK-3, SK-4, SK-34).

The grid of every seat is stored flat: seat ``s``'s position ``p`` (0-11, reading
order, SK-34 / design.md) is index ``12*s + p`` of ``cards`` and ``up``. A removed
position (SK-14/SK-16) holds ``None``. Card values are ints inside the engine and
value strings ("-2" .. "12") on the wire. Piles keep their top card **last** so a
draw is a ``pop()``.
"""

from __future__ import annotations

from typing import Any

from ..base import JSON

VALUES: tuple[int, ...] = tuple(range(-2, 13))
#: SK-2: 5 x -2, 10 x -1, 15 x 0, 10 of each of 1..12 (150 cards, values summing to 760).
COUNTS: dict[int, int] = {v: (5 if v == -2 else 15 if v == 0 else 10) for v in VALUES}
FULL_DECK: tuple[int, ...] = tuple(v for v in VALUES for _ in range(COUNTS[v]))
CARD_CODES: frozenset[str] = frozenset(str(v) for v in VALUES)
CODE_OF: dict[int, str] = {v: str(v) for v in VALUES}
VALUE_OF: dict[str, int] = {str(v): v for v in VALUES}

GRID = 12
ROWS = 3
COLS = 4
#: the three positions of column c (0-based): c, c+4, c+8 (design.md: pos c-1, c+3, c+7 for c in 1..4)
COLUMN_POSITIONS: tuple[tuple[int, int, int], ...] = tuple((c, c + 4, c + 8) for c in range(COLS))
REVEALS = 2  # SK-5
SCORE_SCREEN_SECONDS = 8  # SK-32
DEFAULT_TURN_SECONDS = 30  # SK-30, SK-31

# phases (SK-34); ROUND_SCORING is instantaneous inside the engine, followed by the score screen
REVEAL = "reveal"
TURN = "turn"
SCORES = "scores"
OVER = "over"


class SkyjoState:
    """Everything a game needs; lists are copied on write so a copy is cheap (see ``copy``)."""

    __slots__ = (
        "cards",
        "closer",
        "counter",
        "current",
        "decks",
        "discard",
        "draw",
        "final_left",
        "held",
        "held_from",
        "history",
        "n",
        "next_starter",
        "phase",
        "ready",
        "round_no",
        "seed",
        "timer_seq",
        "totals",
        "turn_seconds",
        "turns",
        "up",
    )

    def __init__(self) -> None:
        self.n = 0
        self.seed: int | str = 0
        self.counter = 0  # next base.rng_for counter
        self.turn_seconds: int | None = DEFAULT_TURN_SECONDS
        self.round_no = 0
        self.phase = REVEAL
        self.cards: list[int | None] = []
        self.up: list[bool] = []
        self.draw: list[int] = []  # top last
        self.discard: list[int] = []  # top last
        self.current: int | None = None
        self.held: int | None = None
        self.held_from: str | None = None  # "draw" or "discard"
        self.closer: int | None = None
        self.final_left = 0  # SK-18: last turns still to play once someone closed
        self.next_starter: int | None = None  # SK-7/SK-20: the previous closer
        self.totals: list[int] = []
        self.history: list[JSON] = []  # scored rounds, never mutated once appended
        self.ready: list[bool] = []  # SK-32: who dismissed the score screen
        self.timer_seq = 0  # bumped whenever a deadline is set anew (timer ids)
        self.turns = 0  # turns finished in this round (public: anyone can count them)
        self.decks: list[list[int]] = []  # test option: fixed decks for the next rounds

    def copy(self) -> SkyjoState:
        """A copy whose lists may be mutated freely (history entries are shared: they never change)."""
        new = SkyjoState.__new__(SkyjoState)
        new.n = self.n
        new.seed = self.seed
        new.counter = self.counter
        new.turn_seconds = self.turn_seconds
        new.round_no = self.round_no
        new.phase = self.phase
        new.cards = self.cards.copy()
        new.up = self.up.copy()
        new.draw = self.draw.copy()
        new.discard = self.discard.copy()
        new.current = self.current
        new.held = self.held
        new.held_from = self.held_from
        new.closer = self.closer
        new.final_left = self.final_left
        new.next_starter = self.next_starter
        new.totals = self.totals.copy()
        new.history = self.history.copy()
        new.ready = self.ready.copy()
        new.timer_seq = self.timer_seq
        new.turns = self.turns
        new.decks = self.decks  # only ever replaced, never mutated
        return new

    # -- JSON round trip ---------------------------------------------------------------------------
    def dump(self) -> JSON:
        return {
            "n": self.n,
            "seed": self.seed,
            "counter": self.counter,
            "turn_seconds": self.turn_seconds,
            "round": self.round_no,
            "phase": self.phase,
            "cards": list(self.cards),
            "up": list(self.up),
            "draw": list(self.draw),
            "discard": list(self.discard),
            "current": self.current,
            "held": self.held,
            "held_from": self.held_from,
            "closer": self.closer,
            "final_left": self.final_left,
            "next_starter": self.next_starter,
            "totals": list(self.totals),
            "history": [dict(h) for h in self.history],
            "ready": list(self.ready),
            "timer_seq": self.timer_seq,
            "turns": self.turns,
            "decks": [list(d) for d in self.decks],
        }

    @classmethod
    def load(cls, data: JSON) -> SkyjoState:
        s = cls()
        s.n = int(data["n"])
        s.seed = data["seed"]
        s.counter = int(data["counter"])
        s.turn_seconds = data["turn_seconds"]
        s.round_no = int(data["round"])
        s.phase = str(data["phase"])
        s.cards = list(data["cards"])
        s.up = [bool(u) for u in data["up"]]
        s.draw = list(data["draw"])
        s.discard = list(data["discard"])
        s.current = data["current"]
        s.held = data["held"]
        s.held_from = data["held_from"]
        s.closer = data["closer"]
        s.final_left = int(data["final_left"])
        s.next_starter = data["next_starter"]
        s.totals = list(data["totals"])
        s.history = [_history_entry(h) for h in data["history"]]
        s.ready = [bool(r) for r in data["ready"]]
        s.timer_seq = int(data["timer_seq"])
        s.turns = int(data.get("turns", 0))
        s.decks = [list(d) for d in data["decks"]]
        return s


def _history_entry(h: Any) -> JSON:
    return {
        "round": h["round"],
        "raw": list(h["raw"]),
        "scores": list(h["scores"]),
        "closer": h["closer"],
        "doubled": bool(h["doubled"]),
    }


# -- pure helpers ------------------------------------------------------------------------------------
def face_down_positions(state: SkyjoState, seat: int) -> list[int]:
    """Positions of ``seat`` still face down, in reading order (SK-31 uses the first)."""
    base = GRID * seat
    cards, up = state.cards, state.up
    return [p for p in range(GRID) if cards[base + p] is not None and not up[base + p]]


def occupied_positions(state: SkyjoState, seat: int) -> list[int]:
    """Positions of ``seat`` not removed by a column (SK-16), in reading order."""
    base = GRID * seat
    cards = state.cards
    return [p for p in range(GRID) if cards[base + p] is not None]


def face_up_count(state: SkyjoState, seat: int) -> int:
    base = GRID * seat
    cards, up = state.cards, state.up
    return sum(1 for p in range(base, base + GRID) if up[p] and cards[p] is not None)


def all_face_up(state: SkyjoState, seat: int) -> bool:
    """SK-18: every remaining card face up (an emptied grid counts too)."""
    base = GRID * seat
    cards, up = state.cards, state.up
    return all(up[p] or cards[p] is None for p in range(base, base + GRID))
