"""Guandan states where a seat may act, for the packed plays' tests (no tests here): real deals
played by bots, and hands made for the rare readings (two wildcards, bombs up to ten cards,
straight flushes, the joker bomb, a tribute's return)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardgames.bots.driver import BotTable, step
from cardgames.engines import get_engine
from tests.engines.test_guandan_helpers import game, play

ENG = get_engine("guandan")


def bot_states(seed: int, *, every: int = 1) -> Iterator[tuple[Any, int]]:
    """(state, seat) for each seat that may act along a whole match of normal bots (every
    ``every``-th): leads, follows, tribute returns, the pause between deals."""
    table = BotTable.seated("guandan", ["normal"] * 4, seed, paced=False)
    state = ENG.new_game(4, seed=seed, options={"turn_seconds": None})
    count = 0
    while not ENG.is_over(state):
        for seat in ENG.to_act(state):
            if count % every == 0:
                yield state, seat
            count += 1
        state = step(ENG, state, table)


def _cards(text: str) -> list[str]:
    return text.split()


#: hands for the rare readings; seat 0 leads (level 5: the wildcard is 5H)
RARE_HANDS: dict[str, list[str]] = {
    # two wildcards, runs of every suit: straights, tubes, plates, straight flushes by the hundred
    "two_wilds_runs": _cards("5H 5H 2S 3S 4S 6S 7S 2H 3H 4H 6H 7H 2C 3C 4C 6C AD AD KD QD JD TD 9D 8D"),
    # bombs of four to ten cards (eight naturals and two wildcards), the joker bomb
    "bombs_and_jokers": _cards("5H 5H 4S 4S 4H 4H 4C 4C 4D 4D BJ BJ RJ RJ 3S 3D JD"),
    # straight flushes in one suit with the level rank's natural cards and both wildcards
    "flush_and_level": _cards("5H 5H 5S 5S 5C 5D 2D 3D 4D 6D 7D 8D 9D TD JD QD KD AD"),
    # full houses with a joker pair or a wildcard pair, plates and tubes through the ace
    "full_houses": _cards("5H 5H BJ BJ RJ RJ KS KS KC AS AH AC QS QD JS JD 2S 2C 3S 3D"),
}


def rare_states() -> Iterator[tuple[str, Any, int]]:
    """(name, state, seat): each rare hand led, and followed after a single, a pair, a straight and
    a bomb; then a tribute's return (GD-53: the receiver's return cards and confirm)."""
    for name, hand in RARE_HANDS.items():
        others = [_cards("6S 7S 8S 9S TS JC"), _cards("6C 7C 8C 9C TC QC"), _cards("QH QH KH")]
        state = game([hand, *others], level="5", pad=0, first_leader=0)
        yield f"{name}:lead", state, 0
        # seat 3 leads, seat 0 answers the table
        for label, cards, kind, rank in (
            ("single", ["KH"], "single", "K"),
            ("pair", ["QH", "QH"], "pair", "Q"),
        ):
            followed = game([hand, *others], level="5", pad=0, first_leader=3)
            followed = play(followed, 3, cards, kind, rank)
            yield f"{name}:after_{label}", followed, 0
        straight = game([hand, *others], level="5", pad=0, first_leader=1)
        straight = play(straight, 1, ["6S", "7S", "8S", "9S", "TS"], "straight_flush", "T", suit="S")
        straight = ENG.apply(straight, 2, {"type": "pass"})[0]
        straight = ENG.apply(straight, 3, {"type": "pass"})[0]
        yield f"{name}:after_straight_flush", straight, 0
        plain = game([hand, *others], level="5", pad=0, first_leader=2)
        plain = play(plain, 2, ["6C", "7C", "8C", "9C", "TC"], "straight_flush", "T", suit="C")
        plain = ENG.apply(plain, 3, {"type": "pass"})[0]
        yield f"{name}:after_flush_two_passes", plain, 0
    # a deal that starts with tribute: the receivers pick a card to return (GD-53, GD-54)
    state = ENG.new_game(4, seed=11, options={"turn_seconds": None, "previous_places": [0, 2, 1, 3]})
    for seat in ENG.to_act(state):
        yield f"return:{seat}", state, seat
