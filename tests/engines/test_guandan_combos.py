"""Guandan classifier, comparator and move generator: properties (GD-13 … GD-23, GD-27, GD-31 … GD-33, GD-67).

Hypothesis draws small hands, levels and tables; the move generator must agree
exactly with a brute force over every sub-multiset run through the classifier,
and every play it offers on a table must beat that table.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engines.guandan import movegen
from cardgames.engines.guandan.cards import CODES, FULL_DECK, INDEX, rank_power
from cardgames.engines.guandan.combos import (
    BOMB,
    JOKER_BOMB,
    STRAIGHT_FLUSH,
    beats,
    bomb_strength,
    classify,
    interp_from_wire,
    interp_to_wire,
)
from cardgames.engines.guandan.movegen import legal_plays

DECK = [INDEX[c] for c in FULL_DECK]


def counts_of(cards: list[int]) -> list[int]:
    counts = [0] * 54
    for c in cards:
        counts[c] += 1
    return counts


@st.composite
def hands(draw: st.DrawFn, max_size: int = 9) -> tuple[list[int], int]:
    """A hand of up to ``max_size`` cards from the 108-card pack, often holding wildcards."""
    level = draw(st.integers(0, 12))
    wc = level * 4 + 1
    size = draw(st.integers(1, max_size))
    if draw(st.booleans()):
        # clustered: neighbouring ranks (ace low or high) and jokers, so sequences and bombs show up
        low = draw(st.integers(0, 9))
        pool = [c for c in DECK if c >= 52 or low <= (c >> 2) <= low + 4 or (low == 0 and c >> 2 == 12)]
    else:
        pool = DECK
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    cards = [pool[i] for i in picks]
    wilds = draw(st.integers(0, 2))
    cards = [c for c in cards if c != wc][: max(0, size - wilds)] + [wc] * wilds
    return cards, level


def brute_force(counts: list[int], level: int) -> set[tuple[tuple[int, ...], tuple[int, int, int, int]]]:
    cards = [c for c in range(54) for _ in range(counts[c])]
    out = set()
    for k in range(1, min(len(cards), 10) + 1):
        for combo in set(itertools.combinations(cards, k)):
            for interp in classify(counts_of(list(combo)), level):
                out.add((combo, interp))
    return out


@settings(max_examples=120, deadline=None)
@given(hands())
def test_movegen_lists_exactly_the_classified_sub_multisets_once(hand: tuple[list[int], int]) -> None:
    """GD-67: every (cards, interp) once; GD-13 … GD-22: nothing else."""
    cards, level = hand
    counts = counts_of(cards)
    plays = legal_plays(counts, level)
    assert len(plays) == len(set(plays))
    assert all(list(c) == sorted(c) for c, _ in plays)
    assert set(plays) == brute_force(counts, level)


@settings(max_examples=120, deadline=None)
@given(hands(), hands())
def test_any_legal_follow_beats_the_table(hand: tuple[list[int], int], other: tuple[list[int], int]) -> None:
    """GD-27: a follow offered by the generator beats the table; nothing that beats it is missing."""
    cards, level = hand
    table_cards = other[0]
    readings = sorted(classify(counts_of(table_cards), level))
    if not readings:
        return
    table = readings[0]
    counts = counts_of(cards)
    follows = set(legal_plays(counts, level, table))
    assert all(beats(interp, table, level) for _, interp in follows)
    expected = {p for p in brute_force(counts, level) if beats(p[1], table, level)}
    assert follows == expected


def _all_bombs() -> list[tuple[int, int, int, int]]:
    out = [(BOMB, r, -1, n) for r in range(13) for n in range(4, 11)]
    out += [(STRAIGHT_FLUSH, top, s, 5) for top in range(3, 13) for s in range(4)]
    out.append((JOKER_BOMB, 14, -1, 4))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.data())
def test_bomb_order_is_total_and_matches_the_ladder(level: int, data: st.DataObject) -> None:
    """GD-32, GD-33: size before rank; straight flush between 5 and 6; four jokers on top."""
    bombs = _all_bombs()
    a = data.draw(st.sampled_from(bombs))
    b = data.draw(st.sampled_from(bombs))
    sa, sb = bomb_strength(a, level), bomb_strength(b, level)
    # totality and antisymmetry: exactly one of a>b, b>a, or equal strength
    assert [beats(a, b, level), beats(b, a, level), sa == sb].count(True) == 1

    def ladder(x: tuple[int, int, int, int]) -> tuple[float, int]:
        kind, rank, _, size = x
        if kind == JOKER_BOMB:
            return (11.0, 0)
        if kind == STRAIGHT_FLUSH:
            return (5.5, rank)
        return (float(size), rank_power(rank, level))

    assert (sa > sb) == (ladder(a) > ladder(b))
    # equal strength only between equal bombs up to a straight flush's suit (GD-33)
    if sa == sb:
        assert a[:2] == b[:2] and a[3] == b[3]


@settings(max_examples=60, deadline=None)
@given(hands(max_size=10))
def test_bombs_beat_every_ordinary_play_and_only_bombs_beat_bombs(hand: tuple[list[int], int]) -> None:
    """GD-27: any bomb answers any non-bomb; a non-bomb never answers a bomb."""
    cards, level = hand
    for interp in classify(counts_of(cards), level):
        for bomb in (_all_bombs()[0], _all_bombs()[-1]):
            if interp[0] < BOMB:
                assert beats(bomb, interp, level)
                assert not beats(interp, bomb, level)


def test_wire_round_trip_of_every_interpretation() -> None:
    """The interp dicts (combos docstring) parse back to the same interpretation."""
    counts = counts_of([INDEX[c] for c in ["2H", "2H", "3S", "4S", "5S", "6S", "7S", "7D", "7C", "RJ", "RJ"]])
    seen = Counter()
    for _, interp in legal_plays(counts, 0):
        assert interp_from_wire(interp_to_wire(interp)) == interp
        seen[interp_to_wire(interp)["kind"]] += 1
    assert {"single", "pair", "triple", "full_house", "straight", "bomb", "straight_flush"} <= set(seen)
    assert interp_from_wire({"kind": "single", "rank": "Z"}) is None
    assert interp_from_wire({"kind": "bomb", "rank": "9", "size": 3}) is None
    assert interp_from_wire({"kind": "triple", "rank": "red_joker"}) is None
    assert interp_from_wire({"kind": "straight_flush", "rank": "9", "suit": "X"}) is None


def test_movegen_is_fast_enough_for_a_full_hand_with_two_wildcards() -> None:
    """Smoke check only (timing is measured in bench/guandan_movegen.py): the counts stay sane."""
    hand = ["2H", "2H", *[r + s for r in "3456789TJQKA" for s in "SD"][:23], "RJ", "BJ"]
    plays = legal_plays(counts_of([INDEX[c] for c in hand]), 0)
    assert len(plays) == len(set(plays)) > 1000
    assert all(CODES[c] for cards, _ in plays for c in cards)


def test_movegen_answers_the_same_for_a_hand_it_remembers_and_one_it_meets_cold() -> None:
    """The memos of recent hands only save time (GD-67 lists are the same, order included)."""
    rng = random.Random(3)
    deck = [INDEX[code] for code in FULL_DECK]
    for _ in range(20):
        counts = [0] * len(CODES)
        for card in rng.sample(deck, 27):
            counts[card] += 1
        level = rng.randrange(13)
        warm = movegen.legal_plays(counts, level)
        assert movegen.legal_plays(counts, level) == warm
        movegen.forget_hands()
        assert movegen.legal_plays(counts, level) == warm
