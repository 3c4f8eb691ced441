"""Guandan cards: codes, indices, the level order and wildcards (GD-4 … GD-12).

A card is an index 0..53 into ``CODES``: ordinary cards are ``rank * 4 + suit``
with ranks 0..12 for 2..A and suits in the tie-break order ♠ ♥ ♣ ♦ (GD-51), then
the black joker (52) and the red joker (53). Two decks make 108 cards, so a hand
is a list of 54 counts (0..2). Sorting card indices sorts a play canonically.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
#: suit order = tie-break order of GD-51 (♠, ♥, ♣, ♦); ♥ is index 1
SUITS = "SHCD"
HEART = 1
BJ = 52  # black joker, the small one
RJ = 53  # red joker, the big one
NUM_CODES = 54
CODES: tuple[str, ...] = (*tuple(r + s for r in RANKS for s in SUITS), "BJ", "RJ")
INDEX: dict[str, int] = {c: i for i, c in enumerate(CODES)}
#: the 108-card pack of GD-4: every code twice
FULL_DECK: tuple[str, ...] = tuple(c for c in CODES for _ in range(2))
ACE = 12
#: rank indices 13/14 stand for the black/red joker where a "rank" is needed (GD-14)
BJ_RANK = 13
RJ_RANK = 14
RANK_NAMES: tuple[str, ...] = (*RANKS, "black_joker", "red_joker")
#: rank names used on the wire (interp "rank", level names); jokers are not card codes on purpose,
#: so an interpretation never looks like a card to the leak check
RANK_INDEX: dict[str, int] = {n: i for i, n in enumerate(RANK_NAMES)}
RANK_INDEX["10"] = 8


def rank_of(card: int) -> int:
    """Rank index 0..12, or 13/14 for the black/red joker."""
    return card >> 2 if card < BJ else card - BJ + BJ_RANK


def suit_of(card: int) -> int:
    return card & 3


def wild_code(level: int) -> int:
    """The wildcard of a deal at level rank ``level``: the heart of that rank (GD-10)."""
    return level * 4 + HEART


def rank_power(rank: int, level: int) -> int:
    """Single power (GD-8): 2 < … < A < level rank < black joker < red joker."""
    if rank == level:
        return 13
    if rank >= BJ_RANK:
        return rank + 1
    return rank


def card_power(card: int, level: int) -> int:
    return rank_power(rank_of(card), level)


def counts_of(codes: Iterable[str]) -> list[int]:
    counts = [0] * NUM_CODES
    for c in codes:
        counts[INDEX[c]] += 1
    return counts


def codes_of(counts: list[int]) -> list[str]:
    """The codes of a count vector, in canonical (sorted) order."""
    out: list[str] = []
    for i, n in enumerate(counts):
        if n:
            out.extend([CODES[i]] * n)
    return out


def parse_level(value: object) -> int:
    """A level given as "2".."10"/"T", "J", "Q", "K", "A", or as 2..14."""
    if isinstance(value, bool):
        raise ValueError(f"bad level {value!r}")
    if isinstance(value, int) and 2 <= value <= 14:
        return value - 2
    if isinstance(value, str) and value.upper() in RANK_INDEX and RANK_INDEX[value.upper()] <= ACE:
        return RANK_INDEX[value.upper()]
    raise ValueError(f"bad level {value!r}")


def level_number(level: int) -> int:
    """Level index 0..12 as the number players use: 2..10, J=11, Q=12, K=13, A=14."""
    return level + 2
