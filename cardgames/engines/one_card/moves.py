"""Pure helpers of the One Card phases: they only touch a fresh copy of a state, or read one."""

from __future__ import annotations

import random
from itertools import repeat, starmap
from operator import itemgetter, lt

from ..base import JSON, rng_for
from .actions import BIT
from .state import State


def sorted_windows(
    windows: tuple[tuple[int, int], ...], seat: int, number: int
) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((*(w for w in windows if w[0] != seat), (seat, number))))


def without(windows: tuple[tuple[int, int], ...], seat: int) -> tuple[tuple[int, int], ...]:
    """The windows but ``seat``'s (a function of its own: a generator inside a phase would make a
    cell of the seat on every call of that phase)."""
    return tuple(w for w in windows if w[0] != seat)


def take(new: State, amount: int, events: list[JSON]) -> list[str]:
    """Take up to ``amount`` cards from the stock of ``new`` (a fresh copy), reshuffling as OC-20/OC-21."""
    stock, spos, rng = new.stock
    if len(stock) - spos >= amount:  # the common case: no reshuffle
        new.stock = (stock, spos + amount, rng)
        return list(stock[spos : spos + amount])
    cards: list[str] = []
    while len(cards) < amount:
        avail = len(stock) - spos
        if not avail:
            if new.discard is None:
                break  # OC-21: the shortfall is forgiven
            pile = _shuffled(new.discard_list(), rng_for(new.cfg[0], rng))
            rng += 1
            stock = tuple(pile)
            spos = 0
            new.discard = None
            events.append({"type": "reshuffle", "count": len(pile)})
            continue
        k = min(amount - len(cards), avail)
        cards.extend(stock[spos : spos + k])
        spos += k
    new.stock = (stock, spos, rng)
    return cards


def _shuffled(cards: list[str], shuffler: random.Random) -> list[str]:
    """The cards sorted by one ``shuffler.random()`` key each, drawn in the cards' order, ties (equal
    keys) by card: a uniform shuffle, 3x faster than random.shuffle.

    The keys are drawn in C (``starmap``) and the positions sorted by key (a float sort, where
    sorting (key, card) pairs compared tuples); a tie, whose order the pairs would settle by card, is
    seen in the sorted keys (probability below 1e-13 for a few dozen 53-bit keys) and then the pairs
    are sorted as before. About 60k instructions for 38 cards instead of 76k (the seeding aside).
    """
    keys = list(starmap(shuffler.random, repeat((), len(cards))))
    if len(cards) < 2:
        return cards
    gather = itemgetter(*sorted(range(len(cards)), key=keys.__getitem__))
    ordered = gather(keys)
    if all(map(lt, ordered, ordered[1:])):  # all distinct
        return list(gather(cards))
    return [c for _, c in sorted(zip(keys, cards, strict=True))]


def grow(new: State, seat: int, cards: list[str]) -> None:
    """Add cards to a hand: OC-37 clears the call flag, OC-42 closes the seat's window."""
    hands = list(new.hands)
    hand = hands[seat]
    for c in cards:
        hand |= BIT[c]
    hands[seat] = hand
    new.hands = tuple(hands)
    if hand.bit_count() == 2:  # one card and one drawn
        new.twos |= 1 << seat
    else:
        new.twos &= ~(1 << seat)
    if new.called >> seat & 1:
        new.called &= ~(1 << seat)
    windows, number = new.win
    if windows:
        new.win = (without(windows, seat), number)
    new.set_busy()


def attack_cards_played(s: State) -> dict[str, int]:
    """How many Ks and As lie face up in the discard pile (since the last reshuffle)."""
    played = {"K": 0, "A": 0}
    top = s.sit.top
    if top[0] in played:
        played[top[0]] += 1
    cell = s.discard
    while cell is not None:
        rank = cell[0][0]
        if rank in played:
            played[rank] += 1
        cell = cell[1]
    return played


def public_event(event: JSON) -> JSON:
    """OC-52: draws show as counts (the drawer has the cards in its hand); the played card is the top."""
    if event["type"] in ("draw", "penalty", "play"):
        return {k: v for k, v in event.items() if k != "cards" and k != "card"}
    return dict(event)  # a copy: the state's event stays untouched by the viewer
