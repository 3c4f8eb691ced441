"""Fast move generation for Guandan: every (cards, interpretation) a hand can play (GD-13 … GD-23, GD-67).

A play is ``(cards, interp)``: ``cards`` a sorted tuple of card indices (so two
copies of one code are interchangeable and nothing is listed twice), ``interp``
a ``combos.Interp``. Inside, plays come in blocks, one per interpretation:
``(power, interp, [cards, …])``, ``power`` being ``main_power`` (``bomb_strength``
for bombs), so no play needs a tuple of its own. The generator builds plays rank by rank from small cached
building blocks ("groups": k cards of one rank, j of them wildcards) and only
crosses them where a kind needs it (full houses, sequences), so following a
table only builds the kind that can answer plus the bombs (GD-27).

Uniqueness (GD-67): inside one kind and main rank the natural cards fix which
position each card fills, and wildcards fill the rest, so a card multiset is
produced at most once per interpretation. A group of wildcards alone is only
read as the level rank (combos module docstring).
"""

from __future__ import annotations

from collections.abc import Hashable

from .combos import (
    BOMB,
    FULL_HOUSE,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    TUBE,
    Interp,
    bomb_strength,
    main_power,
)
from .hand import Block, Hand, Play
from .shapes import GENERATORS, bombs

__all__ = ["LEAD", "Block", "Play", "blocks_of", "legal_plays"]

#: the hands asked about lately, by (counts as bytes, level): a seat's hand is asked about again
#: at each of its turns until it plays, so its bombs are found once (a small, bounded memo)
_HANDS: dict[tuple[bytes, int], Hand] = {}
_HANDS_LIMIT = 16
#: the last hand of each line (a caller's name for one seat in one deal): the next hand of the line
#: holds fewer cards, so its plays are filtered from the ones found for this one (bounded memo)
_LINES: dict[Hashable, Hand] = {}
_LINES_LIMIT = 64
LEAD = -1  # key of the lead plays in ``Hand.lists``


def forget_hands() -> None:
    """Drop the memos of recent hands (not the shared groups): the next call meets every hand cold."""
    _HANDS.clear()
    _LINES.clear()


def legal_plays(
    counts: list[int], level: int, table: Interp | None = None, raw: bytes | None = None
) -> list[Play]:
    """Every play of ``counts`` at ``level`` that may be led (table None) or that beats ``table``.

    ``raw``, if given, is ``bytes(counts)`` (the caller has it already)."""
    return [(cards, interp) for _, interp, block in blocks_of(counts, level, table, raw) for cards in block]


def blocks_of(
    counts: list[int], level: int, table: Interp | None, raw: bytes | None = None, line: Hashable = None
) -> list[Block]:
    """``legal_plays`` as blocks (module docstring), in the same order; blocks and their lists
    may be shared with the memos: never change them.

    ``line`` names the seat and deal the hand belongs to (None: unknown), so that a smaller
    hand of the same line filters the plays already found for the larger one."""
    key = (bytes(counts) if raw is None else raw, level)
    hand = _HANDS.get(key)
    if hand is None:
        if len(_HANDS) >= _HANDS_LIMIT:
            _HANDS.clear()
        hand = _HANDS[key] = Hand(key[0], level)
        if line is not None:
            earlier = _LINES.get(line)
            if earlier is not None:
                hand.inherit(earlier)
    if line is not None:
        if len(_LINES) >= _LINES_LIMIT and line not in _LINES:
            _LINES.clear()
        _LINES[line] = hand
    if table is None:
        out = hand.cached(LEAD)
        if out is None:
            out = []
            for kind in (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE):
                GENERATORS[kind](hand, -1, out)
            bombs(hand, -1, out)
            hand.lists[LEAD] = out
        return out
    kind = table[0]
    if kind <= TRIPLE:  # the commonest follows: every play of the kind once per hand, then filter
        above = main_power(table, level)
        blocks = hand.cached(kind)
        if blocks is None:
            blocks = hand.lists[kind] = []
            GENERATORS[kind](hand, -1, blocks)
        out = [b for b in blocks if b[0] > above]
        bombs(hand, -1, out)
    elif kind < BOMB:
        out = []
        GENERATORS[kind](hand, main_power(table, level), out)
        bombs(hand, -1, out)
    else:
        out = []
        bombs(hand, bomb_strength(table, level), out)
    return out
