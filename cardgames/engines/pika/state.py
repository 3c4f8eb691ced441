"""The Pika game state: a small ``__slots__`` object of immutable parts.

``apply`` never mutates a state: it makes a shallow copy (eighteen slot
assignments) and replaces only the parts the action changes. Every part is
immutable (ints, strings, tuples), so two states safely share whatever did not
change: the stock in particular is a tuple read through a cursor (``sp``), so
drawing a card copies nothing.
"""

from __future__ import annotations

from typing import Any

from ..base import JSON
from .cards import CARD_CODES, COLOUR_BIT, COLOURS, VALUE

# Phases (PK-56). An int keeps comparisons in the hot loop cheap.
TURN, AFTER_DRAW, OVER = 0, 1, 2
PHASE_NAMES: tuple[str, ...] = ("turn", "after_draw", "over")


#: The discard pile as a persistent stack of cells ``(card, cell below or None, cards in the pile)``:
#: a play pushes one cell instead of copying the whole pile into a longer tuple. Never empty (the
#: card in play is on top).
Discard = tuple[str, "Discard | None", int]


def discard_cards(cell: Discard | None) -> list[str]:
    """The cards of a discard pile, bottom first (the top card, the card in play, last)."""
    out: list[str] = []
    while cell is not None:
        out.append(cell[0])
        cell = cell[1]
    out.reverse()
    return out


def discard_of(cards: tuple[str, ...] | list[str]) -> Discard | None:
    """The discard pile of ``cards`` (bottom first); None for no card."""
    cell: Discard | None = None
    for size, card in enumerate(cards, 1):
        cell = (card, cell, size)
    return cell


class PikaState:
    """One moment of a Pika round. Treat as immutable; build new ones with ``copy``."""

    # No __init__: PikaState() makes an empty record, ~470 instructions cheaper than
    # PikaState.__new__(PikaState) (which goes through a wrapper of object.__new__).

    __slots__ = (  # noqa: RUF023 (grouped by meaning, not sorted)
        "cfg",  # (the game's seed for rng_for, turn_seconds: None without turn timers, PK-47)
        "hands",  # tuple per seat of card codes, in the owner's order (PK-46)
        "pile",  # (stock: card codes, top first, cursor: the next card to draw, rng counter)
        "discard",  # (top card, the cell below or None, size): a persistent stack, see ``Discard``
        "match",  # active colour + top value, e.g. "R7", "GW+4" (see cards.match_key)
        "stack",  # cards owed by pending +2/+4 (PK-23), 0 if none
        "direction",  # +1 ascending seat order, -1 after an odd number of Reverses
        "turn",  # the seat whose turn it is (or was, once OVER)
        "phase",  # TURN, AFTER_DRAW or OVER
        "drawn",  # the drawn card awaiting PLAY or KEEP in AFTER_DRAW (PK-15, PK-16)
        "blocked",  # consecutive blocked passes (PK-42)
        "tserial",  # number of the current turn: the turn timer's id (PK-48)
        "pika",  # per seat, the serial of its running Pika countdown, 0 for none (PK-33)
        "pserial",  # serial of the last countdown started
        "drew_on",  # per seat, bitmask of colours it drew on and has not played since (PK-51)
    )

    cfg: tuple[int | str, int | float | None]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[tuple[str, ...], int, int]
    discard: Discard
    match: str
    stack: int
    direction: int
    turn: int
    phase: int
    drawn: str | None
    blocked: int
    tserial: int
    pika: tuple[int, ...]
    pserial: int
    drew_on: tuple[int, ...]

    def copy(self) -> PikaState:
        new = PikaState()
        new.cfg = self.cfg
        new.hands = self.hands
        new.pile = self.pile
        new.discard = self.discard
        new.match = self.match
        new.stack = self.stack
        new.direction = self.direction
        new.turn = self.turn
        new.phase = self.phase
        new.drawn = self.drawn
        new.blocked = self.blocked
        new.tserial = self.tserial
        new.pika = self.pika
        new.pserial = self.pserial
        new.drew_on = self.drew_on
        return new

    @property
    def colour(self) -> str:
        """The active colour (PK-12)."""
        return self.match[0]

    @property
    def seed(self) -> int | str:
        return self.cfg[0]

    @property
    def turn_seconds(self) -> int | float | None:
        return self.cfg[1]

    def stock_left(self) -> tuple[str, ...]:
        stock, sp, _ = self.pile
        return stock[sp:]

    def __repr__(self) -> str:
        return f"PikaState({dump_state(self)!r})"


def dump_state(st: PikaState) -> JSON:
    return {
        "seed": st.cfg[0],
        "turn_seconds": st.cfg[1],
        "hands": [list(hand) for hand in st.hands],
        "stock": list(st.stock_left()),
        "discard": discard_cards(st.discard),
        "colour": st.match[0],
        "stack": st.stack,
        "direction": st.direction,
        "turn": st.turn,
        "phase": PHASE_NAMES[st.phase],
        "drawn": st.drawn,
        "blocked": st.blocked,
        "rng": st.pile[2],
        "turn_serial": st.tserial,
        "pika": list(st.pika),
        "pika_serial": st.pserial,
        "drew_on": [colours_of(mask) for mask in st.drew_on],
    }


def colours_of(mask: int) -> str:
    """The colours of a bitmask, in the order R, Y, G, B ("RG")."""
    return "".join(colour for colour in COLOURS if mask & COLOUR_BIT[colour])


def mask_of(colours: str) -> int:
    if not isinstance(colours, str) or not set(colours) <= set(COLOURS):
        raise ValueError("colours are a string of R, Y, G, B")
    mask = 0
    for colour in colours:
        mask |= COLOUR_BIT[colour]
    return mask


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARD_CODES for c in value):
        raise ValueError(f"{what} must be a list of Pika card codes")
    return tuple(value)


def _int(data: JSON, key: str, low: int = 0) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{key} must be an integer >= {low}")
    return value


def load_state(data: JSON) -> PikaState:
    """The inverse of ``dump_state``; raises ValueError on data no dump could produce."""
    try:
        st = PikaState()
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError("seed must be an int or a string")
        turn_seconds = data["turn_seconds"]
        if turn_seconds is not None and (
            isinstance(turn_seconds, bool) or not isinstance(turn_seconds, (int, float)) or turn_seconds <= 0
        ):
            raise ValueError("turn_seconds must be a positive number or null")
        st.cfg = (seed, turn_seconds)
        st.hands = tuple(_cards(hand, "a hand") for hand in data["hands"])
        n = len(st.hands)
        if not 2 <= n <= 4:
            raise ValueError("Pika has 2 to 4 hands")
        stock = _cards(data["stock"], "stock")
        discard = discard_of(_cards(data["discard"], "discard"))
        if discard is None:
            raise ValueError("the discard pile always holds the card in play")
        st.discard = discard
        colour = data["colour"]
        if colour not in COLOURS:
            raise ValueError("colour must be one of R Y G B")
        st.match = colour + VALUE[discard[0]]
        st.stack = _int(data, "stack")
        st.direction = data["direction"]
        if st.direction not in (1, -1) or isinstance(st.direction, bool):
            raise ValueError("direction must be 1 or -1")
        st.turn = _int(data, "turn")
        if st.turn >= n:
            raise ValueError("turn must be a seat")
        st.phase = PHASE_NAMES.index(data["phase"])
        st.drawn = data["drawn"]
        if (st.phase == AFTER_DRAW) != (st.drawn is not None) or (
            st.drawn is not None and st.drawn not in st.hands[st.turn]
        ):
            raise ValueError("drawn is the turn player's card waiting in after_draw, else null")
        st.blocked = _int(data, "blocked")
        st.pile = (stock, 0, _int(data, "rng"))
        st.tserial = _int(data, "turn_serial")
        st.pserial = _int(data, "pika_serial")
        st.pika = tuple(data["pika"])
        if len(st.pika) != n or not all(type(k) is int and 0 <= k <= st.pserial for k in st.pika):
            raise ValueError("pika holds one countdown serial per seat (0: none), none above pika_serial")
        st.drew_on = tuple(mask_of(colours) for colours in data["drew_on"])
        if len(st.drew_on) != n:
            raise ValueError("drew_on holds one string of colours per seat")
    except (KeyError, TypeError, IndexError) as err:
        raise ValueError(f"not a Pika state: {err!r}") from err
    return st
