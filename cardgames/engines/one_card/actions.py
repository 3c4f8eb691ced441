"""Precomputed tables of One Card: card bits, the table's situations, the listed actions and events.

A hand is an int with one bit per card, bit ``ORDER[card]`` (so the bits run in OC-55 hand order),
and the state packs the hands of all seats into one int, seat ``k`` at bit ``64 * k``
(``SEAT_SHIFT``): a play is one ``^``, a draw one ``|``.

A ``Situation`` is what the top card, the active suit and a pending attack allow: ``ok`` is the mask
of the cards that may be played on it (OC-11 – OC-15). Situations without an attack are built once
here; those under an attack are built on first use and kept (``situation``).

Every listed action is a ``Play`` (a ``base.ReadOnlyAction``, a ``dict`` that refuses changes):
the engine hands the same objects to every caller (docs/engines.md), and a play's ``apply`` reads
what it needs from the object's slots (its bit, the situation it leaves, its events) instead of
working it out again. Events built here are read-only and shared too.
"""

from __future__ import annotations

from ..base import JSON, ReadOnlyAction
from .cards import ATTACK_AMOUNT, DECK, HAND_RANKS, ORDER, SUITS

MAX_PLAYERS = 4
#: seat k's hand sits at bit 64 * k of the packed hands
SEAT_SHIFT: tuple[int, ...] = tuple(64 * seat for seat in range(MAX_PLAYERS))
HAND_MASK = (1 << 52) - 1
BIT: dict[str, int] = {c: 1 << ORDER[c] for c in DECK}
#: lowest bit -> card code
CODE: dict[int, str] = {b: c for c, b in BIT.items()}
SUIT_MASK: dict[str, int] = {x: sum(BIT[c] for c in DECK if c[1] == x) for x in SUITS}
RANK_MASK: dict[str, int] = {r: sum(BIT[c] for c in DECK if c[0] == r) for r in HAND_RANKS}

#: what a played card does to the turn: 0 nothing, 1 skip (J), 2 reverse (Q), 3 attack (K, A)
NORMAL, SKIP, REVERSE, ATTACK = 0, 1, 2, 3
EFFECT: dict[str, int] = {"J": SKIP, "Q": REVERSE, "K": ATTACK, "A": ATTACK}


def cards_of(mask: int) -> list[str]:
    """The cards of a hand mask, in hand order (OC-55)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CODE[low])
        mask ^= low
    return out


def mask_of(cards: tuple[str, ...] | list[str]) -> int:
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


class Situation:
    """The top card, the active suit, the pending attack and the cards playable on them (read-only)."""

    __slots__ = ("attack", "ok", "suit", "top")

    top: str
    suit: str
    attack: int
    ok: int

    def __init__(self, top: str, suit: str, attack: int) -> None:
        self.top = top
        self.suit = suit
        self.attack = attack
        rank = RANK_MASK[top[0]]
        # OC-15: under an attack only its rank; else OC-11/OC-14: the active suit or the top's rank
        self.ok = rank if attack else rank | SUIT_MASK.get(suit, 0)


_SITUATIONS: dict[tuple[str, str, int], Situation] = {
    (c, x, 0): Situation(c, x, 0) for c in DECK for x in SUITS
}


def situation(top: str, suit: str, attack: int, keep: bool = True) -> Situation:
    """The shared situation of ``top`` with ``suit`` active and ``attack`` pending (``keep``: a new
    one is kept for the next caller; ``State.load`` does not keep what a dump from elsewhere holds)."""
    key = (top, suit, attack)
    found = _SITUATIONS.get(key)
    if found is None:
        found = Situation(top, suit, attack)
        if keep:
            _SITUATIONS[key] = found
    return found


class Play(ReadOnlyAction):
    """A listed ``{"type": "play", "card", ["suit"]}`` and what ``apply`` needs to know about it.

    ``more_ok`` / ``last_ok``: whether the action is well formed when the card is not / is the
    player's last (OC-22, OC-32: a 7 declares a suit unless it is the last card). ``after``: the
    situation the play leaves when it starts no attack. ``events``: per seat, the play event;
    ``lasts``: per seat, the 1-tuple of it.
    """

    __slots__ = (
        "after",
        "amount",
        "bit",
        "code",
        "effect",
        "events",
        "last_ok",
        "lasts",
        "more_ok",
        "own_suit",
    )

    bit: int
    code: str
    more_ok: bool
    last_ok: bool
    own_suit: str
    effect: int
    amount: int
    after: Situation
    events: tuple[JSON, ...]
    lasts: tuple[tuple[JSON, ...], ...]


def make_play(card: str, suit: str | None) -> Play:
    """The play of ``card`` (declaring ``suit`` for a 7); an odd suit gets an object of its own."""
    act = Play(type="play", card=card) if suit is None else Play(type="play", card=card, suit=suit)
    act.bit = BIT[card]
    act.code = card
    seven = card[0] == "7"
    act.more_ok = not seven or suit is not None
    act.last_ok = not seven or suit is None
    act.own_suit = card[1]
    act.effect = EFFECT.get(card[0], NORMAL)
    act.amount = ATTACK_AMOUNT.get(card[0], 0)
    declared = card[1] if suit is None else suit
    act.after = situation(card, declared, 0)
    if suit is None:
        events = tuple(ReadOnlyAction(type="play", seat=seat, card=card) for seat in range(MAX_PLAYERS))
    else:
        events = tuple(
            ReadOnlyAction(type="play", seat=seat, card=card, suit=suit) for seat in range(MAX_PLAYERS)
        )
    act.events = events
    act.lasts = tuple((e,) for e in events)
    return act


PLAY: dict[str, Play] = {c: make_play(c, None) for c in DECK}
PLAY_SEVEN: dict[str, dict[str, Play]] = {c: {x: make_play(c, x) for x in SUITS} for c in DECK if c[0] == "7"}
#: lowest bit -> the plays listed for that card (a 7 once per suit, OC-22)
LISTED: dict[int, tuple[JSON, ...]] = {
    BIT[c]: tuple(PLAY_SEVEN[c].values()) if c[0] == "7" else (PLAY[c],) for c in DECK
}
#: lowest bit -> the play of that card alone (OC-32: a last 7 names no suit)
PLAY_BIT: dict[int, Play] = {BIT[c]: PLAY[c] for c in DECK}
DRAW: JSON = ReadOnlyAction(type="draw")
CALL: JSON = ReadOnlyAction(type="call_one_card")
CATCH: tuple[JSON, ...] = tuple(ReadOnlyAction(type="catch", target=seat) for seat in range(MAX_PLAYERS))
#: per seat, the event of a call (shared read-only), and the 1-tuple of it a state keeps as ``last``
CALL_EVENTS: tuple[JSON, ...] = tuple(
    ReadOnlyAction(type="call_one_card", seat=seat) for seat in range(MAX_PLAYERS)
)
CALL_LASTS: tuple[tuple[JSON, ...], ...] = tuple((e,) for e in CALL_EVENTS)
WIN_EVENT: tuple[JSON, ...] = tuple(
    ReadOnlyAction(type="game_over", winner=seat) for seat in range(MAX_PLAYERS)
)

LISTS: dict[int, tuple[JSON, ...]] = {}


def listed(playable: int) -> tuple[JSON, ...]:
    """The listed plays of the cards of a mask, in hand order; kept per mask (a pure function)."""
    found = LISTS.get(playable)
    if found is None:
        out: list[JSON] = []
        mask = playable
        while mask:
            low = mask & -mask
            out += LISTED[low]
            mask ^= low
        found = tuple(out)
        if len(LISTS) >= 1 << 16:  # a bound on the memory: start again
            LISTS.clear()
        LISTS[playable] = found
    return found
