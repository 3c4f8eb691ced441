"""Pika cards: codes, the 108-card deck (PK-3) and the precomputed matching tables.

A card code is colour + value: colours ``R Y G B``, values ``0``-``9``, ``S``
(Skip, "Bloqueo"), ``R`` (Reverse, "Cambio de sentido") and ``+2``; the black
cards are ``W`` (Wild, "Comodín") and ``W+4``. So ``"RR"`` is the red Reverse
and ``"BS"`` the blue Skip.

Matching never looks at the top card directly but at a *match key*: the active
colour followed by the top card's value (``"R7"``, ``"G+2"``, ``"GW+4"`` for a
+4 whose player chose green). Every legality question is then one lookup in a
frozenset built here once, which keeps the engine's hot loop short.
"""

from __future__ import annotations

from collections import Counter

COLOURS: tuple[str, ...] = ("R", "Y", "G", "B")
NUMBERS: tuple[str, ...] = tuple(str(i) for i in range(10))
SKIP, REVERSE, DRAW2 = "S", "R", "+2"
WILD, WILD4 = "W", "W+4"
BLACK: frozenset[str] = frozenset((WILD, WILD4))
#: a bit per colour, for sets of colours kept as ints
COLOUR_BIT: dict[str, int] = {colour: 1 << i for i, colour in enumerate(COLOURS)}


def _deck() -> tuple[str, ...]:
    """PK-3: per colour one 0 and two each of 1-9, Skip, Reverse, +2; four W and four W+4."""
    cards: list[str] = []
    for colour in COLOURS:
        cards.append(colour + "0")
        for value in (*NUMBERS[1:], SKIP, REVERSE, DRAW2):
            cards += [colour + value] * 2
    cards += [WILD] * 4 + [WILD4] * 4
    return tuple(cards)


DECK: tuple[str, ...] = _deck()
DECK_COUNTS: Counter[str] = Counter(DECK)
CARD_CODES: frozenset[str] = frozenset(DECK)

#: the value part of a code ("R+2" -> "+2", "W+4" -> "W+4")
VALUE: dict[str, str] = {c: c if c in BLACK else c[1:] for c in CARD_CODES}
#: the printed colour of a code ("" for black cards)
COLOUR: dict[str, str] = {c: "" if c in BLACK else c[0] for c in CARD_CODES}
#: number cards, the only legal starters (PK-6)
NUMBER_CARDS: frozenset[str] = frozenset(c for c in CARD_CODES if VALUE[c] in NUMBERS)
#: cards that add to the stack, and by how much (PK-22, PK-23)
DRAW_AMOUNT: dict[str, int] = {c: 4 if c == WILD4 else 2 for c in CARD_CODES if VALUE[c] in (DRAW2, WILD4)}


def match_key(card: str, colour: str) -> str:
    """The key a new top ``card`` leaves behind; ``colour`` is the chosen one for black cards."""
    return colour + VALUE[card]


def _playable(key: str) -> frozenset[str]:
    """PK-8 - PK-10: colour, number or symbol match; black cards always (no stack pending)."""
    colour, value = key[0], key[1:]
    return frozenset(c for c in CARD_CODES if c in BLACK or COLOUR[c] == colour or VALUE[c] == value)


def _chainable(key: str) -> frozenset[str]:
    """PK-24 - PK-27: what may be chained on a pending stack whose top left ``key``."""
    if key[1:] == WILD4:  # PK-24: a +2 of the chosen colour, or any +4
        return frozenset((key[0] + DRAW2, WILD4))
    if key[1:] == DRAW2:  # PK-25, PK-26: any +2, or a +4
        return frozenset([c + DRAW2 for c in COLOURS] + [WILD4])
    return frozenset()  # a stack is only ever pending on a +2 or +4 top


_KEYS = [colour + value for colour in COLOURS for value in sorted({*VALUE.values()})]
#: match key -> cards playable on it with no stack pending
PLAYABLE: dict[str, frozenset[str]] = {key: _playable(key) for key in _KEYS}
#: match key -> cards that may chain on it while a stack is pending
CHAINABLE: dict[str, frozenset[str]] = {key: _chainable(key) for key in _KEYS}


def most_held_colour(hand: tuple[str, ...] | list[str]) -> str:
    """PK-49: the colour the hand holds most of; ties go to red, yellow, green, blue in that order."""
    counts = dict.fromkeys(COLOURS, 0)
    for card in hand:
        colour = COLOUR[card]
        if colour:
            counts[colour] += 1
    return max(COLOURS, key=counts.__getitem__)  # max() keeps the first of equal counts
