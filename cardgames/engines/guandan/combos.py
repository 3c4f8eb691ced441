"""Guandan combinations: the classifier and the comparator (GD-13 … GD-23, GD-27, GD-31 … GD-33).

An interpretation ("interp") is what a play *is*: its kind and main rank, plus the
suit of a straight flush and the size of a bomb. Internally it is a tuple
``(kind, rank, suit, size)``; on the wire it is a small dict:

    {"kind": "single"|"pair"|"triple", "rank": R}          R = "2".."A", "black_joker", "red_joker"
    {"kind": "full_house", "rank": R}                        R = rank of the triple (GD-31)
    {"kind": "straight"|"tube"|"plate", "rank": R}           R = top natural rank ("5" for A-2-3-4-5)
    {"kind": "bomb", "rank": R, "size": n}                   n = 4 … 10
    {"kind": "straight_flush", "rank": R, "suit": "S"|"H"|"C"|"D"}
    {"kind": "joker_bomb"}

Which ordinary card a wildcard stands for is not part of the interpretation
(GD-67: plays that differ only in that are one action). A group made of
wildcards alone (a wildcard pair) reads as the level rank (GD-11, GD-T08); in a
sequence a wildcard may fill any position.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    ACE,
    BJ,
    BJ_RANK,
    NUM_CODES,
    RANK_INDEX,
    RANK_NAMES,
    RJ,
    RJ_RANK,
    SUITS,
    rank_power,
    wild_code,
)

SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, BOMB, STRAIGHT_FLUSH, JOKER_BOMB = range(10)
KIND_NAMES = (
    "single",
    "pair",
    "triple",
    "full_house",
    "straight",
    "tube",
    "plate",
    "bomb",
    "straight_flush",
    "joker_bomb",
)
KIND_INDEX = {n: i for i, n in enumerate(KIND_NAMES)}
#: fixed sizes of the non-bomb kinds (GD-13 … GD-19)
KIND_SIZE = {SINGLE: 1, PAIR: 2, TRIPLE: 3, FULL_HOUSE: 5, STRAIGHT: 5, TUBE: 6, PLATE: 6, STRAIGHT_FLUSH: 5}
#: a sequence kind -> (length in ranks, cards per rank); tops are natural values (A high = 14)
SEQUENCES = {STRAIGHT: (5, 1), TUBE: (3, 2), PLATE: (2, 3), STRAIGHT_FLUSH: (5, 1)}

Interp = tuple[int, int, int, int]  # (kind, rank, suit or -1, size)


def is_bomb(interp: Interp) -> bool:
    return interp[0] >= BOMB


def window_ranks(top_value: int, length: int) -> list[int]:
    """Rank indices of a sequence ending at natural value ``top_value`` (ace low = 1, GD-20)."""
    return [(v - 2) % 13 for v in range(top_value - length + 1, top_value + 1)]


def main_power(interp: Interp, level: int) -> int:
    """Main rank for comparing same-kind ordinary plays (GD-31)."""
    kind, rank = interp[0], interp[1]
    if kind in (STRAIGHT, TUBE, PLATE, STRAIGHT_FLUSH):
        return rank  # top natural rank; the ace-low sequences have a low top (GD-31)
    return rank_power(rank, level)


def bomb_strength(interp: Interp, level: int) -> int:
    """Total order of bombs (GD-32, GD-33): size first, the straight flush between 5 and 6."""
    kind = interp[0]
    if kind == JOKER_BOMB:
        return 11_000
    if kind == STRAIGHT_FLUSH:
        return 5_500 + interp[1]
    return interp[3] * 1_000 + rank_power(interp[1], level)


def beats(play: Interp, table: Interp, level: int) -> bool:
    """Does ``play`` beat ``table``? (GD-27, GD-31 … GD-33; equal never beats equal)."""
    if play[0] >= BOMB:
        if table[0] < BOMB:
            return True
        return bomb_strength(play, level) > bomb_strength(table, level)
    if table[0] != play[0]:
        return False
    return main_power(play, level) > main_power(table, level)


# -- the classifier -----------------------------------------------------------------------------
def classify(counts: list[int], level: int) -> set[Interp]:
    """Every interpretation of the cards ``counts`` (54 counts) at level ``level`` (GD-23)."""
    size = sum(counts)
    wc = wild_code(level)
    wilds = counts[wc]
    bj, rj = counts[BJ], counts[RJ]
    jokers = bj + rj
    # natural (non-wildcard) cards per rank
    c = counts
    nat = [c[i] + c[i + 1] + c[i + 2] + c[i + 3] for i in range(0, 52, 4)]
    nat[level] -= wilds
    present = [r for r in range(13) if nat[r]]
    out: set[Interp] = set()
    if size == 0:
        return out
    # joker groups (GD-14, GD-22): only identical jokers pair; four jokers bomb
    if jokers:
        if jokers == size and size <= 2 and (bj == 0 or rj == 0):
            rank = BJ_RANK if bj else RJ_RANK
            out.add(((SINGLE, PAIR)[size - 1], rank, -1, size))
        if bj == 2 and rj == 2 and size == 4:
            out.add((JOKER_BOMB, RJ_RANK, -1, 4))
        if size == 5 and (bj == 2 or rj == 2) and jokers == 2:
            _full_house_joker_pair(nat, present, wilds, level, out)
        return out
    # groups of one rank: single, pair, triple, bombs (wildcards alone are the level rank)
    if len(present) <= 1:
        rank = present[0] if present else level
        kind = {1: SINGLE, 2: PAIR, 3: TRIPLE}.get(size, BOMB)
        if size == 1 and wilds:
            rank = level  # GD-11: a lone wildcard keeps its level rank
        out.add((kind, rank, -1, size if kind == BOMB else KIND_SIZE[kind]))
    if size == 5:
        _full_houses(nat, present, wilds, level, out)
        if len(present) == 5 - wilds:  # a straight has five different ranks
            for ranks in _WINDOWS[STRAIGHT]:
                if _fits(nat, present, ranks, 1, wilds):
                    out.add((STRAIGHT, ranks[-1], -1, 5))
                    for suit in range(4):
                        if _flush_fits(counts, wc, ranks, suit, wilds):
                            out.add((STRAIGHT_FLUSH, ranks[-1], suit, 5))
    if size == 6:
        for kind in (TUBE, PLATE):
            length = SEQUENCES[kind][0]
            if len(present) > length:
                continue
            for ranks in _WINDOWS[kind]:
                if _fits(nat, present, ranks, SEQUENCES[kind][1], wilds):
                    out.add((kind, ranks[-1], -1, 6))
    return out


#: rank windows of each sequence kind, lowest first (ace low to ace high, GD-20)
_WINDOWS: dict[int, list[list[int]]] = {
    STRAIGHT: [window_ranks(top, 5) for top in range(5, 15)],
    TUBE: [window_ranks(top, 3) for top in range(3, 15)],
    PLATE: [window_ranks(top, 2) for top in range(2, 15)],
}


def _fits(nat: list[int], present: list[int], ranks: list[int], per: int, wilds: int) -> bool:
    """Do the naturals fit ``per`` cards on each of ``ranks``, the wildcards filling the rest?"""
    if any(r not in ranks for r in present):
        return False
    deficit = 0
    for r in ranks:
        if nat[r] > per:
            return False
        deficit += per - nat[r]
    return deficit == wilds


def _flush_fits(counts: list[int], wc: int, ranks: list[int], suit: int, wilds: int) -> bool:
    need = 0
    for r in ranks:
        card = r * 4 + suit
        have = 0 if card == wc else counts[card]
        if have > 1:
            return False
        need += 1 - have
    return need == wilds and sum(counts) == 5


def _full_houses(nat: list[int], present: list[int], wilds: int, level: int, out: set[Interp]) -> None:
    if len(present) > 2:
        return
    for t in range(13):
        if nat[t] == 0 or nat[t] > 3:
            continue  # a triple needs one natural card at least (two wildcards exist)
        rest = [r for r in present if r != t]
        if not rest and t == level:
            continue  # a wildcard-only pair reads as the level rank: no pair of the triple's rank
        pair_nat = nat[rest[0]] if rest else 0
        if pair_nat > 2 or (3 - nat[t]) + (2 - pair_nat) != wilds:
            continue
        out.add((FULL_HOUSE, t, -1, 5))


def _full_house_joker_pair(
    nat: list[int], present: list[int], wilds: int, level: int, out: set[Interp]
) -> None:
    # GD-16: two identical jokers may be the pair; the three other cards make the triple
    if len(present) == 1 and nat[present[0]] + wilds == 3:
        out.add((FULL_HOUSE, present[0], -1, 5))


# -- the wire form ------------------------------------------------------------------------------
_TO_WIRE: dict[Interp, dict[str, Any]] = {}


def interp_to_wire(interp: Interp) -> dict[str, Any]:
    """The JSON dict of an interpretation (a fresh copy every time)."""
    cached = _TO_WIRE.get(interp)
    if cached is None:
        kind, rank, suit, size = interp
        cached = {"kind": KIND_NAMES[kind]}
        if kind != JOKER_BOMB:
            cached["rank"] = RANK_NAMES[rank]
        if kind == BOMB:
            cached["size"] = size
        if kind == STRAIGHT_FLUSH:
            cached["suit"] = SUITS[suit]
        _TO_WIRE[interp] = cached
    return dict(cached)


def interp_from_wire(data: Any) -> Interp | None:
    """Parse a wire interpretation; None if malformed (the caller rejects it)."""
    if not isinstance(data, dict) or data.get("kind") not in KIND_INDEX:
        return None
    kind = KIND_INDEX[data["kind"]]
    if kind == JOKER_BOMB:
        return (JOKER_BOMB, RJ_RANK, -1, 4)
    rank = data.get("rank")
    if not isinstance(rank, str) or rank not in RANK_INDEX:
        return None
    r = RANK_INDEX[rank]
    if r > ACE and kind not in (SINGLE, PAIR):
        return None
    suit = -1
    size = KIND_SIZE.get(kind, 0)
    if kind == STRAIGHT_FLUSH:
        s = data.get("suit")
        if not isinstance(s, str) or len(s) != 1 or s not in SUITS:
            return None
        suit = SUITS.index(s)
    if kind == BOMB:
        n = data.get("size")
        if isinstance(n, bool) or not isinstance(n, int) or not 4 <= n <= 10:
            return None
        size = n
    return (kind, r, suit, size)


def hand_counts(cards: list[int]) -> list[int]:
    counts = [0] * NUM_CODES
    for c in cards:
        counts[c] += 1
    return counts
