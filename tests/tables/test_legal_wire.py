"""Guandan's plays travel packed by reading and unpack exactly to the engine's list (issue 26, item 13;
docs/protocol.md, "Guandan's plays"; GD-13 … GD-23, GD-53, GD-67)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings

from cardgames.engines import get_engine
from cardgames.engines.guandan.cards import CODES
from cardgames.engines.guandan.combos import interp_to_wire
from cardgames.engines.guandan.movegen import legal_plays
from cardgames.tables import legal_wire
from tests.engines.test_guandan_combos import counts_of, hands
from tests.tables.guandan_states import bot_states, rare_states

ENG = get_engine("guandan")


def canon(actions: list[dict[str, Any]]) -> Counter[str]:
    return Counter(json.dumps(a, sort_keys=True) for a in actions)


def round_trip(state: Any, seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """(the engine's legal actions, what a client unpacks from the envelope's JSON, that JSON)."""
    legal = ENG.legal_actions(state, seat)
    listed, plays = legal_wire.pack("guandan", legal)
    wire = json.loads(json.dumps({"legal": listed, "plays": plays, "view": ENG.view(state, seat)}))
    return legal, legal_wire.actions(wire), wire


def test_gd_packed_plays_unpack_to_the_engine_list_over_whole_bot_matches() -> None:
    checked = Counter[str]()
    for seed in (3, 8):
        for state, seat in bot_states(seed, every=2):
            legal, unpacked, wire = round_trip(state, seat)
            assert canon(unpacked) == canon(legal), (seed, ENG.view(state, seat)["phase"])
            assert not any(a["type"] == "play" for a in wire["legal"])
            checked[ENG.view(state, seat)["phase"]] += 1
            checked["plays"] += len(legal)
    assert checked["play"] > 300 and checked["return"] and checked["between"], checked
    assert checked["plays"] > 20_000, checked


@pytest.mark.parametrize("name,state,seat", [pytest.param(*s, id=s[0]) for s in rare_states()])
def test_gd_rare_readings_wildcards_bombs_straight_flushes_and_returns_unpack_exactly(
    name: str, state: Any, seat: int
) -> None:
    legal, unpacked, wire = round_trip(state, seat)
    assert canon(unpacked) == canon(legal)
    kinds = {k for k in (wire["plays"] or {})}
    if name == "two_wilds_runs:lead":
        assert {"straight", "tube", "plate", "straight_flush", "full_house"} <= kinds
        assert len(legal) > 2_000 and len(json.dumps(wire["plays"])) < 2_000
    if name == "bombs_and_jokers:lead":
        assert {("4", 4), ("4", 10)} <= {(v[0], v[1]) for v in wire["plays"]["bomb"]}
        assert wire["plays"]["joker_bomb"] == [[]]
    if name.endswith("after_straight_flush"):
        assert kinds <= {"bomb", "straight_flush", "joker_bomb"} and wire["legal"] == [{"type": "pass"}]
    if name.startswith("return:"):
        assert wire["plays"] is None and {a["type"] for a in wire["legal"]} == {"return"}


@settings(max_examples=300, deadline=None)
@given(hands(max_size=14), hands(max_size=6))
def test_gd_any_hand_led_or_following_any_play_unpacks_exactly(hand: Any, other: Any) -> None:
    """Hypothesis: hands of up to 14 cards at any level (often two wildcards), led and answering
    a play of another hand; the engine's list is movegen's (GD-67)."""
    cards, level = hand
    counts = counts_of(cards)
    tables = [None, *[interp for _, interp in legal_plays(counts_of(other[0]), level)[:40:7]]]
    for table in tables:
        engine = [
            {"type": "play", "cards": [CODES[c] for c in played], "interp": interp_to_wire(interp)}
            for played, interp in legal_plays(counts, level, table)
        ]
        _, plays = legal_wire.pack("guandan", engine)
        hand_codes = sorted(CODES[c] for c in cards)
        wire = json.loads(json.dumps(plays or {}))
        unpacked = legal_wire.unpack_plays(wire, hand_codes, "23456789TJQKA"[level])
        assert canon(unpacked) == canon(engine)


def test_other_games_travel_whole() -> None:
    legal = [{"type": "draw"}, {"type": "play", "card": "7H"}]
    assert legal_wire.pack("one_card", legal) == (legal, None)
    assert legal_wire.actions({"legal": legal, "plays": None, "view": {}}) == legal
