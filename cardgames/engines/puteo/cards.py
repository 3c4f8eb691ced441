"""El Puteo cards: codes, strength order and hand order (PT-6, PT-7, PT-43).

Internally a card is an ``int`` ``4 * strength + suit``: strength 0 (the 2) to 9 (the As),
suit 0..3 for oros, copas, espadas, bastos. Sorting these ints gives the hand order of PT-43
(weakest first; equal ranks ordered O, C, E, B), and ``card >> 2`` is the strength (PT-7).
In big mode the two copies of a card share the same int (PT-3, PT-8).
"""

from __future__ import annotations

from collections.abc import Iterable
from math import prod

#: numbers from weakest to strongest (PT-7): 2 … 7, Sota (10), Caballo (11), Rey (12), As (1)
NUMBERS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "10", "11", "12", "1")
SUITS: str = "OCEB"
#: CODES[card] is the wire code ("1O", "12E") of the internal card number
CODES: tuple[str, ...] = tuple(num + suit for num in NUMBERS for suit in SUITS)
CODE_TO_ID: dict[str, int] = {code: i for i, code in enumerate(CODES)}
CARD_CODES: frozenset[str] = frozenset(CODES)

#: cards dealt to each player in rounds 1..9 (PT-9); index 0 is unused
CARDS_PER_ROUND: tuple[int, ...] = (0, 5, 4, 3, 2, 1, 2, 3, 4, 5)
ROUNDS = 9
BLIND_ROUND = 5  # PT-13: the only one-card round


def strength(card: int) -> int:
    """0 for a 2 … 9 for an As (PT-7); suits do not matter."""
    return card >> 2


_DECKS: dict[str, tuple[int, ...]] = {
    "classic": tuple(range(40)),
    "big": tuple(card for card in range(40) for _ in range(2)),
}
#: random bits drawn per round: far more than log2(80!) ≈ 396, so the modulo bias is negligible
BITS_PER_ROUND = 512


def full_deck(mode: str) -> tuple[int, ...]:
    """The 40-card deck (classic) or two decks mixed together (big), PT-2, PT-3."""
    return _DECKS[mode]


def shuffled(deck: tuple[int, ...], bits: int, need: int) -> list[int]:
    """``deck`` with its first ``need`` places filled uniformly at random (PT-12).

    A partial Fisher–Yates shuffle whose random draws are the digits of ``bits`` in a mixed
    radix (one big random integer instead of many generator calls, for speed). Only the first
    ``need`` cards are dealt; the rest (the unused stock, PT-12) keeps a partly shuffled order.
    The draws only depend on ``bits`` modulo the product of the radices, so ``bits`` is reduced
    to that first (the digits stay the same, the divisions get cheaper).
    """
    order = [*deck]
    plan = _PLANS.get(len(deck) << 8 | need)
    if plan is None:
        plan = _plan(len(deck), need)
    steps, period = plan
    bits %= period
    for i, radix in steps:  # a draw of 0 swaps a card with itself: cheaper than testing for it
        bits, r = divmod(bits, radix)
        r += i
        order[i], order[r] = order[r], order[i]
    return order


def _plan(size: int, need: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The draws of ``shuffled``: (place, radix) for each dealt place, and their product."""
    steps = tuple((i, size - i) for i in range(min(need, size - 1)))
    plan = _PLANS[size << 8 | need] = (steps, prod(radix for _, radix in steps))
    return plan


#: (deck size << 8 | cards needed) -> the draws (place, radix) and the product of the radices
_PLANS: dict[int, tuple[tuple[tuple[int, int], ...], int]] = {}


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def trick_winner(trick: tuple[tuple[int, int], ...]) -> int:
    """The seat that wins a trick of (seat, card) pairs in play order (PT-8, PT-28).

    The highest strength wins whatever the suit; of equal cards, the one played first
    (only a strictly stronger later card takes the trick over).
    """
    best_seat, best_card = trick[0]
    best = best_card >> 2
    for seat, card in trick[1:]:
        if card >> 2 > best:
            best_seat, best = seat, card >> 2
    return best_seat
