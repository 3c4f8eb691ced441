"""Pure helpers of the One Card phases: they only touch a fresh copy of a state, or read one."""

from __future__ import annotations

from bisect import insort

from ..base import JSON, rng_for
from .cards import ORDER
from .state import State


def sorted_windows(
    windows: tuple[tuple[int, int], ...], seat: int, number: int
) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((*(w for w in windows if w[0] != seat), (seat, number))))


def take(new: State, amount: int, events: list[JSON]) -> list[str]:
    """Take up to ``amount`` cards from the stock of ``new`` (a fresh copy), reshuffling as OC-20/OC-21."""
    spos = new.spos
    if len(new.stock) - spos >= amount:  # the common case: no reshuffle
        new.spos = spos + amount
        return list(new.stock[spos : spos + amount])
    cards: list[str] = []
    while len(cards) < amount:
        avail = len(new.stock) - new.spos
        if not avail:
            if not new.dsize:
                break  # OC-21: the shortfall is forgiven
            rng = rng_for(new.seed, new.rng)
            new.rng += 1
            # sorting by random keys: a uniform shuffle, 3x faster than random.shuffle
            pile = [c for _, c in sorted([(rng.random(), c) for c in new.discard_list()])]
            new.stock = tuple(pile)
            new.spos = 0
            new.discard = None
            new.dsize = 0
            events.append({"type": "reshuffle", "count": len(pile)})
            continue
        k = min(amount - len(cards), avail)
        cards.extend(new.stock[new.spos : new.spos + k])
        new.spos += k
    return cards


def grow(new: State, seat: int, cards: list[str]) -> None:
    """Add cards to a hand: OC-37 clears the call flag, OC-42 closes the seat's window."""
    hands = list(new.hands)
    if len(cards) == 1:  # the common draw: a C-level insertion instead of a sort
        hand = list(hands[seat])
        insort(hand, cards[0], key=ORDER.__getitem__)
        hands[seat] = tuple(hand)
    else:
        hands[seat] = tuple(sorted(hands[seat] + tuple(cards), key=ORDER.__getitem__))
    new.hands = tuple(hands)
    if new.called >> seat & 1:
        new.called &= ~(1 << seat)
    if new.windows:
        new.windows = tuple(w for w in new.windows if w[0] != seat)


def attack_cards_played(s: State) -> dict[str, int]:
    """How many Ks and As lie face up in the discard pile (since the last reshuffle)."""
    played = {"K": 0, "A": 0}
    if s.top[0] in played:
        played[s.top[0]] += 1
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
