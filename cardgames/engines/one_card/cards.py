"""Cards, ranks and pure helpers of One Card (OC-2, OC-3, OC-55).

Cards stay as their wire codes ("7H", "TD") everywhere: indexing a two-letter
string is as fast as unpacking an int, and nothing has to be translated for
dumps, views or events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: OC-55 hand order: suits ♠, ♥, ♦, ♣, then ranks A, 2…10, J, Q, K.
SUITS = "SHDC"
HAND_RANKS = "A23456789TJQK"
CARD_CODES: frozenset[str] = frozenset(r + s for r in HAND_RANKS for s in SUITS)
ORDER: dict[str, int] = {r + s: 13 * SUITS.index(s) + HAND_RANKS.index(r) for r in HAND_RANKS for s in SUITS}
#: a fresh deck in hand order (the shuffle starts from here so seeds are stable)
DECK: tuple[str, ...] = tuple(sorted(CARD_CODES, key=ORDER.__getitem__))

#: OC-3/OC-7: the normal number cards, the only possible starters.
NORMAL_RANKS = frozenset("2345689T")
#: OC-25/OC-26: attack ranks and what each adds.
ATTACK_AMOUNT: dict[str, int] = {"K": 2, "A": 3}
#: OC-39: the catch window, fixed (OC-59).
CATCH_SECONDS = 5
#: OC-46: the online turn limit.
TURN_SECONDS = 30
#: OC-6
HAND_SIZE = 7
#: OC-38/OC-45: penalty of a caught player.
PENALTY = 2


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """A hand in OC-55 order."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def playable(hand: Sequence[str], top: str, suit: str, attack: int) -> list[str]:
    """Cards of ``hand`` that may be played now, in hand order.

    OC-15: under an attack only the attack's rank (the top card's rank); else
    OC-11/OC-14: the active suit or the top card's rank.
    """
    rank = top[0]
    if attack:
        return [c for c in hand if c[0] == rank]
    return [c for c in hand if c[1] == suit or c[0] == rank]


def has_playable(hand: tuple[str, ...], top: str, suit: str, attack: int) -> bool:
    rank = top[0]
    # plain loops: a generator inside any() costs more than the whole scan of a hand
    if attack:
        for c in hand:  # noqa: SIM110
            if c[0] == rank:
                return True
        return False
    for c in hand:  # noqa: SIM110
        if c[1] == suit or c[0] == rank:
            return True
    return False


def after_play(seat: int, card: str, attack: int, direction: int, n: int) -> tuple[int, int, int]:
    """(next seat, pending attack, direction) once ``seat`` has played ``card`` (OC-23 – OC-27).

    OC-23/OC-62: a J skips the next player (with two players, the same player again); OC-24: a Q
    reverses (no change with two players); OC-25 – OC-27: a K or an A adds to the attack.
    """
    rank = card[0]
    step = 1
    if rank == "J":
        step = 0 if n == 2 else 2
    elif rank == "Q":
        if n > 2:
            direction = -direction
    elif rank in ATTACK_AMOUNT:
        attack += ATTACK_AMOUNT[rank]
    return (seat + step * direction) % n, attack, direction


def most_held_suit(cards: Iterable[str]) -> str:
    """OC-48: the suit held most; ties (or no cards) broken ♠, ♥, ♦, ♣."""
    counts = dict.fromkeys(SUITS, 0)
    for c in cards:
        counts[c[1]] += 1
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))
