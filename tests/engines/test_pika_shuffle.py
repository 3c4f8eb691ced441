"""Pika's deal order (PK-5): ``_shuffled_deck`` is the stable argsort of 108 random 64-bit keys.

The engine sorts doubles made of each key's top 44 bits and the card's position, and falls back
to the exact argsort when two keys share those bits; these tests pin both paths to the plain
argsort of the keys, so the games dealt stay the same.
"""

from __future__ import annotations

import random
from array import array

import pytest

from cardgames.engines.pika.cards import DECK
from cardgames.engines.pika.engine import _shuffled_deck

N = len(DECK)
WORD = (1 << 64) - 1


def reference(bits: int) -> list[str]:
    """The order by key, equal keys by card position (a stable sort), card i's key the i-th word."""
    keys = array("Q", bits.to_bytes(8 * N, "little")).tolist()
    return [DECK[i] for i in sorted(range(N), key=keys.__getitem__)]


class FixedBits(random.Random):
    """A generator whose getrandbits returns given bits (the keys under test)."""

    def __init__(self, bits: int) -> None:
        super().__init__(0)
        self.bits = bits

    def getrandbits(self, k: int) -> int:
        assert k == 64 * N
        return self.bits


def with_key(bits: int, card: int, key: int) -> int:
    return (bits & ~(WORD << (64 * card))) | (key << (64 * card))


def test_pk_5_deal_is_the_argsort_of_the_generators_keys() -> None:
    for seed in range(300):
        bits = random.Random(seed).getrandbits(64 * N)
        assert _shuffled_deck(random.Random(seed)) == reference(bits)


@pytest.mark.parametrize("seed", range(40))
def test_pk_5_keys_sharing_their_top_bits_keep_the_keys_order(seed: int) -> None:
    # given two cards whose keys agree in the top 44 bits (what the fast sort sees) but not below
    rng = random.Random(seed)
    bits = rng.getrandbits(64 * N)
    a, b = rng.sample(range(N), 2)
    key_a = (bits >> (64 * a)) & WORD
    lower = rng.getrandbits(20)
    for low_a, low_b in ((lower, lower ^ 0xFFFFF), (0xFFFFF, 0), (0, 0xFFFFF)):
        bits = with_key(bits, a, (key_a & ~0xFFFFF) | low_a)
        bits = with_key(bits, b, (key_a & ~0xFFFFF) | low_b)
        # then the deal is still ordered by the whole keys
        assert _shuffled_deck(FixedBits(bits)) == reference(bits)
    # and two equal keys go by card position
    bits = with_key(bits, b, (bits >> (64 * a)) & WORD)
    assert _shuffled_deck(FixedBits(bits)) == reference(bits)


def test_pk_5_extreme_keys() -> None:
    for bits in (
        0,
        (1 << (64 * N)) - 1,
        sum(i << (64 * i) for i in range(N)),
        sum((N - i) << (64 * i) for i in range(N)),
    ):
        assert _shuffled_deck(FixedBits(bits)) == reference(bits)
