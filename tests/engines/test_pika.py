"""Pika engine: the scenarios PK-T01..PK-T28 and every rule they leave out (../shared/rules/pika.md).

Tests drive the real engine through the contract only: ``new_game`` with a
stacked ``options["deck"]`` (dealt in blocks, see ``deal``) or ``load`` of a
hand-written state (see ``table``) for positions a deal cannot reach quickly.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.pika.cards import DECK
from tests.engines.harness import json_round_trip, leaked, rejects

ENG = get_engine("pika")
COLOURS = ("R", "Y", "G", "B")
FILLER = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"]


# -- helpers -----------------------------------------------------------------------
def deal(
    hands: list[list[str]], starter: str, stock: list[str] | None = None, first: int = 0, **opts: Any
) -> Any:
    """A new game whose deck deals exactly ``hands``, then ``starter``, then ``stock``."""
    deck = [card for hand in hands for card in hand] + [starter] + list(stock or [])
    options = {
        "deck": deck,
        "hand_size": [len(h) for h in hands],
        "first_player": first,
        "turn_seconds": None,
    }
    options.update(opts)
    return ENG.new_game(len(hands), seed=1, options=options)


def table(
    hands: list[list[str]],
    top: str,
    *,
    colour: str | None = None,
    below: list[str] | None = None,
    stock: list[str] | None = None,
    turn: int = 0,
    stack: int = 0,
    direction: int = 1,
    blocked: int = 0,
    turn_seconds: int | None = None,
    pika: list[int] | None = None,
) -> Any:
    """A mid-round position, loaded through the contract's ``load``."""
    pika = pika or [0] * len(hands)
    return ENG.load(
        {
            "seed": 1,
            "turn_seconds": turn_seconds,
            "hands": hands,
            "stock": stock or [],
            "discard": [*(below or []), top],
            "colour": colour or top[0],
            "stack": stack,
            "direction": direction,
            "turn": turn,
            "phase": "turn",
            "drawn": None,
            "blocked": blocked,
            "rng": 1,
            "turn_serial": 1,
            "pika": pika,
            "pika_serial": max(pika),
            "drew_on": [""] * len(hands),
        }
    )


def act(state: Any, seat: int, kind: str, **fields: Any) -> Any:
    new, _events = ENG.apply(state, seat, {"type": kind, **fields})
    return new


def play(state: Any, seat: int, card: str, colour: str | None = None) -> Any:
    return act(state, seat, "play", card=card, **({"colour": colour} if colour else {}))


def plays(state: Any, seat: int) -> set[str]:
    """The card codes ``seat`` may play now."""
    return {a["card"] for a in ENG.legal_actions(state, seat) if a["type"] == "play"}


def hand(state: Any, seat: int) -> list[str]:
    return ENG.view(state, seat)["hand"]


def code(state: Any, seat: int, action: dict[str, Any]) -> str:
    return rejects(ENG, state, seat, action).code


def timer(state: Any, name: str) -> dict[str, Any] | None:
    return next((t for t in ENG.timers(state) if t["name"] == name), None)


# -- 1-3 players, deck, setup ----------------------------------------------------------
def test_pk_1_pk_53_two_to_four_players() -> None:
    """PK-1, PK-53: tables of 2, 3 or 4; every seat plays for itself."""
    assert (ENG.min_players, ENG.max_players) == (2, 4)
    for n in (2, 3, 4):
        assert len(ENG.result(_finished(n))["placements"]) == n
    for n in (0, 1, 5):
        with pytest.raises(ValueError):
            ENG.new_game(n, seed=1)


def _finished(n: int) -> Any:
    """A round seat 0 has just won with R5; the others hold two cards each."""
    state = deal([["R5"], ["G1", "G2"], ["B1", "B2"], ["Y1", "Y2"]][:n], "R1")
    return play(state, 0, "R5")


def test_pk_3_the_108_card_deck() -> None:
    """PK-3: per colour one 0 and two each of 1-9, Skip, Reverse, +2; four W and four W+4."""
    counts = Counter(DECK)
    assert len(DECK) == 108 and set(counts) == ENG.card_codes
    for colour in COLOURS:
        assert counts[colour + "0"] == 1
        for value in [*"123456789", "S", "R", "+2"]:
            assert counts[colour + value] == 2
    assert counts["W"] == counts["W+4"] == 4
    state = ENG.new_game(4, seed=3)
    assert ENG.all_cards(state) == counts


def test_pk_5_seven_cards_each_hands_private() -> None:
    """PK-5, PK-50: 7 cards each; a seat sees its own hand and only counts of the others."""
    state = ENG.new_game(3, seed=11)
    view = ENG.view(state, 1)
    assert view["hand_counts"] == [7, 7, 7] and len(view["hand"]) == 7
    assert ENG.view(state, None)["hand"] is None
    assert view["stock_count"] == 108 - 21 - 1


def test_pk_6_starter_is_first_number_card() -> None:
    """PK-6: non-number cards go back into the stock at random; the first number card starts."""
    # given a deck whose top card after the deal is a Wild, then a Skip, then G4
    state = deal([["R1"], ["R2"]], "W", ["BS", "G4", "Y9"])
    view = ENG.view(state, None)
    assert view["top"] == "G4" and view["colour"] == "G"
    assert view["stock_count"] == 3  # W and BS went back into the stock
    assert ENG.all_cards(state) == Counter(["R1", "R2", "W", "BS", "G4", "Y9"])
    for seed in range(30):  # and over random deals the starter is always a number card
        top = ENG.view(ENG.new_game(2, seed=seed), None)["top"]
        assert top[1:].isdigit() and len(top) == 2


def test_pk_6_a_deck_without_a_number_starter_is_refused() -> None:
    """PK-6: a test deck must leave a number card to start with."""
    with pytest.raises(ValueError):
        deal([["R1"], ["R2"]], "W", ["BS"])


def test_pk_7_random_first_seat_ascending_direction() -> None:
    """PK-7: the first player is a uniformly random seat; the direction starts ascending."""
    firsts = Counter(ENG.view(ENG.new_game(4, seed=seed), None)["turn"] for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 25
    assert ENG.view(ENG.new_game(4, seed=1), None)["direction"] == 1


def test_same_seed_same_deal_and_reshuffles() -> None:
    """Determinism: the same seed and options give the same game, including reshuffles (PK-17)."""
    a = ENG.new_game(3, seed="abc")
    b = ENG.new_game(3, seed="abc")
    assert ENG.dump(a) == ENG.dump(b)
    assert ENG.dump(ENG.new_game(3, seed="abd")) != ENG.dump(a)


# -- 4 matching --------------------------------------------------------------------------
def test_pk_t01_colour_and_number_match() -> None:
    """PK-T01 (PK-8, PK-10, PK-14): R2 and G7 match R7, W always; B5 does not; no draw."""
    state = deal([["R2", "G7", "B5", "W"], FILLER[:4]], "R7")
    assert plays(state, 0) == {"R2", "G7", "W"}
    assert {a.get("colour") for a in ENG.legal_actions(state, 0) if a["card"] == "W"} == set(COLOURS)
    assert {"type": "draw"} not in ENG.legal_actions(state, 0)
    assert code(state, 0, {"type": "play", "card": "B5"}) == "illegal_card"
    assert code(state, 0, {"type": "draw"}) == "must_play"


def test_pk_t02_symbol_match() -> None:
    """PK-T02 (PK-9): a Skip goes on a Skip of any colour; a Reverse does not."""
    state = table([["GS", "GR", "B1"], ["Y1"]], "RS")
    assert plays(state, 0) == {"GS"}
    assert code(state, 0, {"type": "play", "card": "GR"}) == "illegal_card"


def test_pk_t03_black_card_always_playable() -> None:
    """PK-T03 (PK-4, PK-10): W+4 on B9 with any colour, no +4 challenge."""
    state = deal([["R1", "W+4"], FILLER[:2]], "B9")
    assert ENG.legal_actions(state, 0) == [
        {"type": "play", "card": "W+4", "colour": colour} for colour in COLOURS
    ]
    assert code(state, 0, {"type": "play", "card": "R1"}) == "illegal_card"


def test_pk_12_after_a_wild_match_the_chosen_colour() -> None:
    """PK-12, PK-22: after a Wild naming green, green or black; nobody draws."""
    state = deal([["W", "R2"], ["G5", "R3", "B+2", "W+4"]], "R7")
    state = play(state, 0, "W", "G")
    view = ENG.view(state, 1)
    assert (view["colour"], view["stack"], view["turn"]) == ("G", 0, 1)
    assert plays(state, 1) == {"G5", "W+4"}
    assert view["hand_counts"] == [1, 4]


def test_pk_22_a_black_card_needs_one_valid_colour() -> None:
    """PK-22: the colour is part of the play; only black cards take one; 'color' is an alias."""
    state = deal([["W", "R2", "R4"], FILLER[:3]], "R7")
    assert code(state, 0, {"type": "play", "card": "W"}) == "bad_action"
    assert code(state, 0, {"type": "play", "card": "W", "colour": "P"}) == "bad_action"
    assert code(state, 0, {"type": "play", "card": "W", "colour": ["R"]}) == "bad_action"
    assert code(state, 0, {"type": "play", "card": "R2", "colour": "G"}) == "bad_action"
    assert code(state, 0, {"type": "play", "card": "W", "colour": "R", "color": "G"}) == "bad_action"
    assert ENG.view(play(state, 0, "W", "B"), None)["colour"] == "B"
    new, events = ENG.apply(state, 0, {"type": "play", "card": "W", "color": "Y"})
    assert ENG.view(new, None)["colour"] == "Y" and events[0]["colour"] == "Y"


# -- 5 drawing -----------------------------------------------------------------------------
def test_pk_t04_draw_and_play_at_once() -> None:
    """PK-T04 (PK-13, PK-15, PK-16, PK-48): only DRAW; a playable G9 may be played or kept."""
    state = deal([["R5", "B8"], FILLER[:2]], "G3", ["G9", "R1"], turn_seconds=30)
    assert ENG.legal_actions(state, 0) == [{"type": "draw"}]
    before = timer(state, "turn")
    state = act(state, 0, "draw")
    view = ENG.view(state, 0)
    assert view["phase"] == "after_draw" and view["hand"] == ["R5", "B8", "G9"] and view["drawn_pos"] == 2
    assert ENG.legal_actions(state, 0) == [{"type": "play", "card": "G9"}, {"type": "keep"}]
    assert code(state, 0, {"type": "play", "card": "R5"}) == "illegal_card"
    assert code(state, 0, {"type": "draw"}) == "wrong_phase"
    assert timer(state, "turn") == before  # PK-48: the same turn timer runs on
    played = play(state, 0, "G9")
    assert ENG.view(played, None)["top"] == "G9" and ENG.view(played, None)["turn"] == 1
    kept = act(state, 0, "keep")
    assert ENG.view(kept, 0)["hand"] == ["R5", "B8", "G9"] and ENG.view(kept, None)["turn"] == 1
    assert timer(kept, "turn")["id"] != before["id"]


def test_pk_t05_unplayable_draw_passes() -> None:
    """PK-T05 (PK-15): a drawn R1 on G3 cannot be played; the turn passes at once."""
    state = deal([["R5", "B8"], FILLER[:2]], "G3", ["R1", "G9"])
    state = act(state, 0, "draw")
    view = ENG.view(state, 0)
    assert view["turn"] == 1 and view["phase"] == "turn" and view["hand"] == ["R5", "B8", "R1"]
    assert code(state, 0, {"type": "keep"}) == "not_your_turn"


def test_pk_16_keep_only_after_a_draw() -> None:
    """PK-16: KEEP exists only while a drawn card waits."""
    state = deal([["R5", "B8"], FILLER[:2]], "G3", ["G9"])
    assert code(state, 0, {"type": "keep"}) == "wrong_phase"


def test_pk_t23_reshuffle_keeps_the_card_in_play() -> None:
    """PK-T23 (PK-17): with the stock empty, the discard under B4 becomes the new stock."""
    state = table([["G1", "Y2"], ["R7", "R8"]], "B4", below=["R1", "G4"], turn=1, stack=0)
    new, events = ENG.apply(state, 1, {"type": "draw"})
    view = ENG.view(new, None)
    assert view["top"] == "B4" and view["discard_count"] == 1 and view["colour"] == "B"
    assert {"type": "reshuffle", "count": 2} in events
    dump = ENG.dump(new)
    assert Counter(dump["stock"] + dump["hands"][1][2:]) == Counter(["R1", "G4"])
    assert len(dump["hands"][1]) == 3


def test_pk_17_reshuffle_keeps_a_pending_stack_and_colour() -> None:
    """PK-17, PK-19: a stack taken across a reshuffle; the card in play, colour and stack stay."""
    # given stock [Y1], discard R5, G5 under W+4/G, a stack of 4 on seat 1
    state = table(
        [["R1", "R2"], ["B1", "B2"]], "W+4", colour="G", below=["R5", "G5"], stock=["Y1"], turn=1, stack=4
    )
    new, events = ENG.apply(state, 1, {"type": "take_stack"})
    # then seat 1 gets Y1 and both reshuffled cards: 3 of 4, the shortfall forgiven
    assert events[0] == {"type": "take_stack", "seat": 1, "count": 3, "stack": 4}
    view = ENG.view(new, 1)
    assert view["hand"][:3] == ["B1", "B2", "Y1"] and Counter(view["hand"][3:]) == Counter(["R5", "G5"])
    assert (view["top"], view["colour"], view["stack"], view["stock_count"]) == ("W+4", "G", 0, 0)


def test_pk_t24_blocked_table_closes() -> None:
    """PK-T24 (PK-18, PK-42, PK-43): three blocked passes in a row with 3 players close the round."""
    state = table([["G1", "G2"], ["G3", "G4", "G5", "G6"], ["B1", "B2"]], "R9")
    for seat in (0, 1, 2):
        assert not ENG.is_over(state)
        assert ENG.legal_actions(state, seat) == [{"type": "draw"}]
        new, events = ENG.apply(state, seat, {"type": "draw"})
        assert events[0] == {"type": "draw", "seat": seat, "count": 0}
        assert ENG.view(new, None)["blocked_passes"] == seat + 1
        state = new
    assert ENG.is_over(state)
    assert ENG.result(state) == {"placements": [1, 3, 1], "winners": [0, 2], "scores": [2, 4, 2]}


def test_pk_t25_the_blocked_counter_resets() -> None:
    """PK-T25 (PK-42): a card played between blocked passes restarts the count."""
    state = table([["G1", "B2"], ["W", "G8", "B3"], ["G7", "B6"]], "R9")
    state = act(state, 0, "draw")  # blocked pass 1
    assert ENG.view(state, None)["blocked_passes"] == 1
    state = play(state, 1, "W", "Y")  # a card is played: the counter restarts
    assert ENG.view(state, None)["blocked_passes"] == 0
    state = act(state, 2, "draw")  # R9 comes back from the reshuffle: a drawn card, not a pass
    assert ENG.view(state, None)["blocked_passes"] == 0 and ENG.view(state, 2)["hand"][-1] == "R9"
    for seat, count in ((0, 1), (1, 2)):
        state = act(state, seat, "draw")
        assert not ENG.is_over(state) and ENG.view(state, None)["blocked_passes"] == count
    state = act(state, 2, "draw")  # the third consecutive blocked pass
    assert ENG.is_over(state)
    assert ENG.result(state) == {"placements": [1, 1, 3], "winners": [0, 1], "scores": [2, 2, 3]}


def test_pk_42_taking_an_empty_stack_is_a_blocked_pass() -> None:
    """PK-42: taking a stack when no card can be drawn counts as a blocked pass."""
    state = table([["G1", "G2"], ["B1", "B2"]], "Y+2", turn=1, stack=2, blocked=1)
    state = act(state, 1, "take_stack")
    assert ENG.is_over(state)
    assert ENG.result(state)["winners"] == [0, 1]


def test_pk_42_penalty_draws_reset_the_blocked_counter() -> None:
    """PK-42: any drawn card, penalty draws included, resets the counter."""
    state = table([["G1"], ["B1", "B2"], ["B3", "B4"]], "R9", stock=["Y1"], turn=1, blocked=1, pika=[1, 0, 0])
    state = act(state, 0, "timeout", timer="pika")
    assert ENG.view(state, None)["blocked_passes"] == 0 and ENG.view(state, None)["turn"] == 1


# -- 6 action cards -----------------------------------------------------------------------------
def test_pk_t11_skip_with_two_players() -> None:
    """PK-T11 (PK-20): with 2 players the Skip's player plays again."""
    state = deal([["RS", "R1", "R2"], FILLER[:3]], "R7")
    assert ENG.to_act(play(state, 0, "RS")) == [0]


def test_pk_20_skip_with_four_players() -> None:
    """PK-20: the next player loses the turn, in either direction."""
    state = deal([["RS", "R1", "R2"], FILLER[:2], FILLER[2:4], FILLER[4:6]], "R7")
    assert ENG.to_act(play(state, 0, "RS")) == [2]
    backwards = table([["RS", "R1", "R2"], ["Y1"], ["Y2"], ["Y3"]], "R7", direction=-1)
    assert ENG.to_act(play(backwards, 0, "RS")) == [2]
    backwards = table([["Y1"], ["RS", "R1", "R2"], ["Y2"], ["Y3"]], "R7", turn=1, direction=-1)
    assert ENG.to_act(play(backwards, 1, "RS")) == [3]


def test_pk_t12_reverse_with_two_players_acts_as_skip() -> None:
    """PK-T12 (PK-21): with 2 players the Reverse's player plays again."""
    state = deal([["RR", "R1", "R2"], FILLER[:3]], "R7")
    state = play(state, 0, "RR")
    assert ENG.to_act(state) == [0]


def test_pk_t13_reverse_with_three_players() -> None:
    """PK-T13 (PK-21, PK-2): P1's Reverse gives the turn to P0, then P2."""
    state = deal([["R1", "R2", "R3"], ["RR", "R4", "R5"], ["R6", "R8", "Y1"]], "R7")
    state = play(state, 0, "R1")
    assert ENG.to_act(state) == [1]
    state = play(state, 1, "RR")
    assert ENG.to_act(state) == [0] and ENG.view(state, None)["direction"] == -1
    state = play(state, 0, "R2")
    assert ENG.view(state, None)["turn"] == 2


# -- 7 stacking ------------------------------------------------------------------------------
def test_pk_t06_plus2_on_plus2_any_colour() -> None:
    """PK-T06 (PK-23, PK-25, PK-28, PK-30): stack 2, 4; P2 takes 4 and loses the turn; P3 plays on."""
    hands = [["R+2", "R1", "R2"], ["B+2", "B1", "B2"], ["G1", "Y2", "R3"], ["B5", "G+2", "Y6"]]
    state = deal(hands, "R7", ["Y7", "Y8", "Y9", "G9", "G8"])
    state = play(state, 0, "R+2")
    assert ENG.view(state, None)["stack"] == 2
    state = play(state, 1, "B+2")
    assert ENG.view(state, None)["stack"] == 4
    assert ENG.legal_actions(state, 2) == [{"type": "take_stack"}]
    new, events = ENG.apply(state, 2, {"type": "take_stack"})
    assert events[0] == {"type": "take_stack", "seat": 2, "count": 4, "stack": 4}
    view = ENG.view(new, 2)
    assert view["hand"] == ["G1", "Y2", "R3", "Y7", "Y8", "Y9", "G9"] and view["stack"] == 0
    assert ENG.to_act(new) == [3]
    assert plays(new, 3) == {"B5", "G+2"}  # ordinary B+2: blue, or a +2 by symbol
    assert ENG.view(play(new, 3, "G+2"), None)["stack"] == 2  # PK-30: a new stack of 2


def test_pk_t07_plus2_on_plus4_only_in_the_chosen_colour() -> None:
    """PK-T07 (PK-24, PK-27): on W+4/G only G+2 (or any W+4, with a new colour)."""
    state = deal([["W+4", "R1"], ["R+2", "G+2", "G5", "W"]], "R7")
    state = play(state, 0, "W+4", "G")
    assert ENG.view(state, None)["stack"] == 4
    assert ENG.legal_actions(state, 1) == [{"type": "play", "card": "G+2"}]
    for card, colour in (("R+2", None), ("G5", None), ("W", "G")):
        assert code(state, 1, {"type": "play", "card": card, "colour": colour}) == "illegal_card"
    with_plus4 = deal([["W+4", "R1"], ["R+2", "G+2", "W+4"]], "R7")
    with_plus4 = play(with_plus4, 0, "W+4", "G")
    assert plays(with_plus4, 1) == {"G+2", "W+4"}
    again = play(with_plus4, 1, "W+4", "G")  # PK-24: the current colour may be named again
    assert ENG.view(again, None)["stack"] == 8 and ENG.view(again, None)["colour"] == "G"


def test_pk_t08_plus4_on_plus2() -> None:
    """PK-T08 (PK-26, PK-24): W+4 on a Y+2 stack makes 6 in red; then R+2 or W+4, not Y+2."""
    hands = [["Y+2", "Y1"], ["W+4", "B1"], ["R+2", "Y+2", "W+4", "R5"]]
    state = deal(hands, "Y7")
    state = play(state, 0, "Y+2")
    state = play(state, 1, "W+4", "R")
    view = ENG.view(state, None)
    assert (view["stack"], view["colour"], view["turn"]) == (6, "R", 2)
    assert plays(state, 2) == {"R+2", "W+4"}
    assert code(state, 2, {"type": "play", "card": "Y+2"}) == "illegal_card"


def test_pk_t09_forced_chain() -> None:
    """PK-T09 (PK-29): holding a chaining card, TAKE_STACK is refused."""
    state = table([["R1"], ["B+2", "G3"]], "R+2", turn=1, stack=2)
    assert code(state, 1, {"type": "take_stack"}) == "must_chain"
    assert {"type": "take_stack"} not in ENG.legal_actions(state, 1)


def test_pk_t10_after_a_plus4_is_taken() -> None:
    """PK-T10 (PK-30): after W+4/G is taken, P2 plays green or black; B+2 no, G+2 starts 2."""
    hands = [["W+4", "R1", "R2"], ["B1", "Y2"], ["B+2", "G+2", "W", "R3"]]
    state = deal(hands, "R7", FILLER)
    state = play(state, 0, "W+4", "G")
    state = act(state, 1, "take_stack")
    assert ENG.view(state, None)["hand_counts"][1] == 6 and ENG.to_act(state) == [2]
    assert plays(state, 2) == {"G+2", "W"}
    assert code(state, 2, {"type": "play", "card": "B+2"}) == "illegal_card"
    assert ENG.view(play(state, 2, "G+2"), None)["stack"] == 2


def test_pk_t27_a_wild_cannot_stop_a_stack() -> None:
    """PK-T27 (PK-27, PK-11): a Wild, or any non-chaining card, is refused on a stack."""
    state = table([["R1"], ["W", "R+2", "R5"]], "R+2", turn=1, stack=2)
    assert code(state, 1, {"type": "play", "card": "W", "colour": "R"}) == "illegal_card"
    assert code(state, 1, {"type": "play", "card": "R5"}) == "illegal_card"  # colour match is not enough


def test_pk_31_skip_and_reverse_cannot_answer_a_stack() -> None:
    """PK-31, PK-27: Skip and Reverse are not chaining cards, even in the top's colour."""
    state = table([["R1"], ["RS", "RR", "G2"]], "R+2", turn=1, stack=2)
    assert ENG.legal_actions(state, 1) == [{"type": "take_stack"}]
    for card in ("RS", "RR"):
        assert code(state, 1, {"type": "play", "card": card}) == "illegal_card"


def test_pk_29_no_stack_to_take() -> None:
    """PK-28, PK-56: TAKE_STACK only with a stack pending; DRAW never with one."""
    state = table([["R1", "G2"], ["B3"]], "R5")
    assert code(state, 0, {"type": "take_stack"}) == "no_stack"
    stacked = table([["G2"], ["B3"]], "R+2", stack=2)
    assert code(stacked, 0, {"type": "draw"}) == "stack_pending"


# -- 8 the Pika call --------------------------------------------------------------------------
def test_pk_t20_pika_in_time() -> None:
    """PK-T20 (PK-32, PK-33): one card left starts a 5 s countdown; the call stops it."""
    state = deal([["R1", "R2"], FILLER[:3]], "R7", FILLER[3:])
    state = play(state, 0, "R1")
    assert timer(state, "pika") == {"id": "pika:1", "name": "pika", "seat": 0, "seconds": 5}
    assert ENG.to_act(state) == [0, 1]
    assert ENG.legal_actions(state, 0) == [{"type": "call_pika"}]
    assert ENG.view(state, 1)["pika"] == [0]
    state = act(state, 0, "call_pika")
    assert timer(state, "pika") is None and ENG.to_act(state) == [1]
    assert ENG.view(state, 0)["hand"] == ["R2"]
    assert code(state, 0, {"type": "timeout", "timer": "pika"}) == "bad_timer"


def test_pk_t21_pika_missed() -> None:
    """PK-T21 (PK-32, PK-34, PK-37): the countdown lapses: two cards, no turn change, no late call."""
    state = deal([["R1", "R2"], FILLER[:3]], "R7", ["B1", "B2", "B3"])
    state = play(state, 0, "R1")
    new, events = ENG.apply(state, 0, {"type": "timeout", "timer": "pika"})
    assert events == [{"type": "pika_penalty", "seat": 0, "count": 2}]
    assert ENG.view(new, 0)["hand"] == ["R2", "B1", "B2"]
    assert ENG.to_act(new) == [1]  # PK-37
    assert code(new, 0, {"type": "call_pika"}) == "no_countdown"


def test_pk_t22_countdown_cancelled_when_the_hand_changes() -> None:
    """PK-T22 (PK-35): P0 at one card takes a stack of 4 before 5 s: no penalty."""
    hands = [["R1", "R2"], ["R+2", "Y1", "Y3"], ["B+2", "Y2", "Y4"]]
    state = deal(hands, "R7", FILLER)
    state = play(state, 0, "R1")
    state = play(state, 1, "R+2")
    state = play(state, 2, "B+2")
    assert timer(state, "pika")["seat"] == 0
    state = act(state, 0, "take_stack")
    assert ENG.view(state, 0)["hand_counts"][0] == 5
    assert timer(state, "pika") is None
    assert code(state, 0, {"type": "timeout", "timer": "pika"}) == "bad_timer"


def test_pk_35_each_play_down_to_one_restarts_the_countdown() -> None:
    """PK-35: a countdown survives others' moves, ends with any change of hand size, restarts anew."""
    state = table([["R1", "R2"], ["R3", "R4", "R5"]], "R9", stock=["R6", "R7", "Y1"])
    state = play(state, 0, "R1")
    first = timer(state, "pika")
    state = play(state, 1, "R3")  # another seat's move keeps the same countdown
    state = act(state, 0, "reorder", order=["R2"])  # so does a new order
    assert timer(state, "pika") == first
    over = play(state, 0, "R2")  # playing the last card ends it with the round
    assert ENG.is_over(over) and ENG.timers(over) == []
    state = act(state, 0, "timeout", timer="pika")
    assert timer(state, "pika") is None and ENG.view(state, 0)["hand"] == ["R2", "R6", "R7"]
    state = play(state, 0, "R2")
    state = play(state, 1, "R4")
    state = play(state, 0, "R6")  # down to one card again: a new countdown, a new id
    again = timer(state, "pika")
    assert again is not None and again["seat"] == 0 and again["id"] != first["id"]
    drew = table([["G1"], ["Y1"]], "R9", stock=["Y5"], pika=[1, 0])
    assert timer(act(drew, 0, "draw"), "pika") is None  # a draw changes the hand size too


def test_pk_36_no_pre_call_and_only_the_owner_calls() -> None:
    """PK-36: CALL_PIKA only during one's own countdown: not at two cards, not for another seat."""
    state = table([["R1", "R2"], ["R3", "R4"]], "R9")
    assert code(state, 0, {"type": "call_pika"}) == "no_countdown"
    state = play(state, 0, "R1")
    assert code(state, 1, {"type": "call_pika"}) == "no_countdown"
    assert {"type": "call_pika"} not in ENG.legal_actions(state, 1)


def test_pk_37_penalty_with_an_empty_stock_reshuffles() -> None:
    """PK-37, PK-19: penalty cards follow the draw rules, reshuffle included, shortfall forgiven."""
    state = table([["G1"], ["B1", "B2"]], "R9", below=["Y5"], turn=1, pika=[1, 0])
    new, events = ENG.apply(state, 0, {"type": "timeout", "timer": "pika"})
    assert events == [{"type": "pika_penalty", "seat": 0, "count": 1}, {"type": "reshuffle", "count": 1}]
    assert ENG.view(new, 0)["hand"] == ["G1", "Y5"] and ENG.to_act(new) == [1]


# -- 9 going out ----------------------------------------------------------------------------
def test_pk_t14_last_card_plus2_someone_else_takes_it() -> None:
    """PK-T14 (PK-39, PK-41): P1 takes P0's last +2; the round ends with P0 first."""
    state = deal([["R+2"], ["G1", "Y2"], ["B3", "B4"]], "R7", FILLER)
    state = play(state, 0, "R+2")
    assert not ENG.is_over(state) and timer(state, "pika") is None
    state = act(state, 1, "take_stack")
    assert ENG.is_over(state)
    assert ENG.result(state) == {"placements": [1, 3, 2], "winners": [0], "scores": [0, 4, 2]}


def test_pk_t15_last_card_plus2_sent_back() -> None:
    """PK-T15 (PK-39, PK-40): P1 chains; P0 (0 cards) must take 4; P1 plays on."""
    state = deal([["R+2"], ["B+2", "B1", "B2"]], "R7", FILLER)
    state = play(state, 0, "R+2")
    state = play(state, 1, "B+2")
    assert ENG.to_act(state) == [0]
    assert ENG.legal_actions(state, 0) == [{"type": "take_stack"}]
    state = act(state, 0, "take_stack")
    assert not ENG.is_over(state)
    assert ENG.view(state, None)["hand_counts"] == [4, 2] and ENG.to_act(state) == [1]


def test_pk_t16_two_players_reach_zero() -> None:
    """PK-T16 (PK-41, PK-43): P0 and P1 go out on +2s, P2 takes 4: P0, P1 share 1st."""
    state = deal([["R+2"], ["G+2"], ["B1", "B2"]], "R7", FILLER)
    state = play(state, 0, "R+2")
    state = play(state, 1, "G+2")
    state = act(state, 2, "take_stack")
    assert ENG.result(state) == {"placements": [1, 1, 3], "winners": [0, 1], "scores": [0, 0, 6]}


def test_pk_t17_a_last_plus2_comes_back_with_another_player_out() -> None:
    """PK-T17 (PK-41): P2 chains back to P0 (0 cards), P0 takes 6; P1 1st, P2 2nd, P0 3rd."""
    state = deal([["R+2"], ["G+2"], ["R+2", "B1", "B2"]], "R7", FILLER)
    state = play(state, 0, "R+2")
    state = play(state, 1, "G+2")
    state = play(state, 2, "R+2")
    assert ENG.legal_actions(state, 0) == [{"type": "take_stack"}]
    state = act(state, 0, "take_stack")
    assert ENG.result(state) == {"placements": [3, 1, 2], "winners": [1], "scores": [6, 0, 2]}


def test_pk_t18_last_card_plus4_needs_a_colour() -> None:
    """PK-T18 (PK-41, PK-22): W+4 without a colour is refused; with B the round goes on."""
    state = deal([["W+4"], ["G1", "Y2"]], "R7", FILLER)
    assert code(state, 0, {"type": "play", "card": "W+4"}) == "bad_action"
    state = play(state, 0, "W+4", "B")
    view = ENG.view(state, None)
    assert not ENG.is_over(state) and (view["stack"], view["colour"]) == (4, "B")


@pytest.mark.parametrize(("card", "colour"), [("RS", None), ("RR", None), ("W", "G"), ("R3", None)])
def test_pk_t19_other_last_cards_win_at_once(card: str, colour: str | None) -> None:
    """PK-T19 (PK-38): a last Skip, Reverse, Wild or number card ends the round."""
    state = deal([[card], ["G1", "Y2"], ["G3"]], "R7", FILLER)
    new, events = ENG.apply(
        state, 0, {"type": "play", "card": card, **({"colour": colour} if colour else {})}
    )
    assert ENG.is_over(new) and ENG.to_act(new) == [] and ENG.timers(new) == []
    assert ENG.result(new) == {"placements": [1, 3, 2], "winners": [0], "scores": [0, 2, 1]}
    assert events[-1]["type"] == "round_over" and events[-1]["winners"] == [0]


def test_pk_t26_ranking_ties() -> None:
    """PK-T26 (PK-43): P3 out; 3, 3 and 5 cards give places 2, 2, 4."""
    hands = [["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3", "Y4", "Y5"], ["R5"]]
    state = deal(hands, "R7", first=3)
    state = play(state, 3, "R5")
    assert ENG.result(state) == {"placements": [2, 2, 4, 1], "winners": [3], "scores": [3, 3, 5, 0]}


def test_pk_44_one_round_is_the_game() -> None:
    """PK-44: after the round nothing is legal and every action is refused."""
    state = _finished(3)
    assert ENG.is_over(state) and ENG.to_act(state) == []
    assert all(ENG.legal_actions(state, seat) == [] for seat in range(3))
    assert code(state, 1, {"type": "draw"}) == "game_over"
    assert code(state, 1, {"type": "reorder", "order": ["G1", "G2"]}) == "game_over"
    assert code(state, 1, {"type": "timeout", "timer": "turn"}) == "game_over"
    live = deal([["R5", "R6"], ["G1", "G2"]], "R1")
    with pytest.raises(IllegalAction):
        ENG.result(live)


# -- 10 hand order -----------------------------------------------------------------------------
def test_pk_45_pk_46_reorder_any_time_by_the_owner() -> None:
    """PK-45, PK-46: REORDER by codes or positions, out of turn, not listed, not in to_act."""
    state = deal([["R1", "G2", "W"], ["B1", "B2", "B3"]], "R7", FILLER, turn_seconds=30)
    before_timers = ENG.timers(state)
    new, events = ENG.apply(state, 1, {"type": "reorder", "order": ["B3", "B1", "B2"]})
    assert events == [{"type": "reorder", "seat": 1}]
    assert ENG.view(new, 1)["hand"] == ["B3", "B1", "B2"]
    assert ENG.to_act(new) == [0] and ENG.timers(new) == before_timers
    assert all(a["type"] != "reorder" for s in (0, 1) for a in ENG.legal_actions(new, s))
    by_position = act(new, 1, "reorder", permutation=[2, 0, 1])
    assert ENG.view(by_position, 1)["hand"] == ["B2", "B3", "B1"]
    for bad in (
        ["B1", "B2"],
        ["B1", "B2", "B2"],
        ["B1", "B2", "G9"],
        [0, 0, 1],
        [0, 1, 3],
        "B1B2B3",
        None,
        [0, "B1", 2],
    ):
        assert code(new, 1, {"type": "reorder", "order": bad}) == "bad_action"


def test_pk_46_new_cards_go_to_the_right_end() -> None:
    """PK-46: drawn and taken cards are appended at the right of the stored order."""
    state = table([["G1", "B2"], ["Y1"]], "R9", stock=["Y7", "R3"])
    state = act(state, 0, "reorder", order=["B2", "G1"])
    state = act(state, 0, "draw")
    assert ENG.view(state, 0)["hand"] == ["B2", "G1", "Y7"]


def test_pk_46_reorder_while_a_drawn_card_waits() -> None:
    """PK-46, PK-15: reordering during AFTER_DRAW keeps track of the drawn card."""
    state = deal([["R5", "B8"], FILLER[:2]], "G3", ["G9"])
    state = act(state, 0, "draw")
    state = act(state, 0, "reorder", order=["G9", "R5", "B8"])
    assert ENG.view(state, 0)["drawn_pos"] == 0
    assert ENG.legal_actions(state, 0) == [{"type": "play", "card": "G9"}, {"type": "keep"}]


# -- 11 timers ------------------------------------------------------------------------------------
def test_pk_47_turn_timer_default_and_off() -> None:
    """PK-47: 30 s turn timer by default; turn_seconds=None removes it but not the Pika countdown."""
    state = ENG.new_game(2, seed=5)
    turn = ENG.view(state, None)["turn"]
    assert ENG.timers(state) == [{"id": "turn:1", "name": "turn", "seat": turn, "seconds": 30}]
    assert ENG.timers(ENG.new_game(2, seed=5, options={"turn_seconds": None})) == []
    bots = deal([["R1", "R2"], FILLER[:3]], "R7")
    assert [t["name"] for t in ENG.timers(play(bots, 0, "R1"))] == ["pika"]
    assert code(bots, 0, {"type": "timeout", "timer": "turn"}) == "bad_timer"


def test_pk_48_timer_id_per_turn() -> None:
    """PK-48: the id stays through a draw, changes with each new turn, also for the same seat."""
    state = deal([["RS", "R1", "R2"], FILLER[:3]], "R7", turn_seconds=30)
    assert timer(state, "turn")["id"] == "turn:1"
    state = play(state, 0, "RS")  # PK-20: P0 again, but a new turn and a new deadline
    assert timer(state, "turn") == {"id": "turn:2", "name": "turn", "seat": 0, "seconds": 30}
    assert code(state, 1, {"type": "timeout", "timer": "turn"}) == "bad_timer"


def test_pk_t28_timeout_uses_the_hand_order() -> None:
    """PK-T28 (PK-46, PK-49): stored order [B5, R7, R+2] on R3: the timeout plays R7."""
    state = deal([["R+2", "B5", "R7"], FILLER[:3]], "R3", turn_seconds=30)
    state = act(state, 0, "reorder", order=["B5", "R7", "R+2"])
    new, events = ENG.apply(state, 0, {"type": "timeout", "timer": "turn"})
    assert events == [
        {"type": "timeout", "timer": "turn", "seat": 0},
        {"type": "play", "seat": 0, "card": "R7"},
    ]
    assert ENG.view(new, 0)["hand"] == ["B5", "R+2"] and ENG.to_act(new) == [1]


def test_pk_49_timeout_chains_the_first_chaining_card_or_takes() -> None:
    """PK-49: with a stack, the first chaining card in hand order; a +4 takes the colour held most."""
    state = table([["R1"], ["G3", "W+4", "B+2", "B4", "G5"]], "R+2", turn=1, stack=2, turn_seconds=30)
    new, events = ENG.apply(state, 1, {"type": "timeout", "timer": "turn"})
    assert events[1] == {"type": "play", "seat": 1, "card": "W+4", "colour": "G"}
    assert ENG.view(new, None)["stack"] == 6
    nothing = table([["R1"], ["G3", "B4"]], "R+2", turn=1, stack=2, stock=FILLER, turn_seconds=30)
    new, events = ENG.apply(nothing, 1, {"type": "timeout", "timer": "turn"})
    assert events[1]["type"] == "take_stack" and ENG.view(new, 1)["hand"] == ["G3", "B4", "Y1", "Y2"]


def test_pk_49_black_card_colour_ties_go_red_yellow_green_blue() -> None:
    """PK-49: most-held colour; a tie is broken in the order R, Y, G, B."""
    state = table([["W", "B1", "G2", "Y3", "B4", "G5"], ["R1"]], "R9", turn_seconds=30)
    _, events = ENG.apply(state, 0, {"type": "timeout", "timer": "turn"})
    assert events[1]["colour"] == "G"  # G and B tie at two: green comes first
    only_black = table([["W", "W+4"], ["R1"]], "R9", turn_seconds=30)
    _, events = ENG.apply(only_black, 0, {"type": "timeout", "timer": "turn"})
    assert events[1] == {"type": "play", "seat": 0, "card": "W", "colour": "R"}


def test_pk_49_timeout_draws_and_keeps() -> None:
    """PK-49: nothing to play: draw, keep even a playable drawn card, pass; never call Pika."""
    state = table([["G1", "B2"], ["Y1"]], "R9", stock=["R4", "Y7"], turn_seconds=30)
    new, events = ENG.apply(state, 0, {"type": "timeout", "timer": "turn"})
    assert [e["type"] for e in events] == ["timeout", "draw", "keep"]
    assert ENG.view(new, 0)["hand"] == ["G1", "B2", "R4"] and ENG.to_act(new) == [1]
    waiting = act(state, 0, "draw")
    new, events = ENG.apply(waiting, 0, {"type": "timeout", "timer": "turn"})
    assert [e["type"] for e in events] == ["timeout", "keep"]
    to_one = table([["R1", "R2"], ["Y1"]], "R9", turn_seconds=30)
    new, _ = ENG.apply(to_one, 0, {"type": "timeout", "timer": "turn"})
    assert timer(new, "pika")["seat"] == 0  # it never calls Pika for the player


# -- 12 hidden information ----------------------------------------------------------------------------
def test_pk_54_pk_55_no_rule_variants() -> None:
    """PK-54, PK-55: modes differ only in the turn timer (PK-47); no option changes the rules."""
    plain = ENG.dump(ENG.new_game(3, seed=9, options={"turn_seconds": None}))
    other = {"turn_seconds": None, "mode": "friends", "stacking": False, "pika_seconds": 99}
    assert ENG.dump(ENG.new_game(3, seed=9, options=other)) == plain


def test_pk_50_pk_51_pk_52_views() -> None:
    """PK-50 - PK-52: own hand, others' counts, public table; every hand at the end; no leaks."""
    state = deal(
        [["R1", "R2", "W+4"], ["G1", "G2"], ["B1", "B2"]], "R7", ["Y1", "Y2", "Y3", "Y4"], turn_seconds=30
    )
    state = play(state, 0, "W+4", "B")
    view = ENG.view(state, 1)
    assert view["hand"] == ["G1", "G2"] and view["hand_counts"] == [2, 2, 2]
    assert (view["top"], view["colour"], view["stack"], view["direction"], view["turn"]) == (
        "W+4",
        "B",
        4,
        1,
        1,
    )
    assert view["stock_count"] == 4 and view["revealed"] is None
    for seat in (None, 0, 1, 2):
        assert not leaked(ENG, state, seat)
    state = act(state, 1, "take_stack")  # drawn cards stay private (PK-52)
    assert ENG.view(state, 2)["hand_counts"][1] == 6 and not leaked(ENG, state, 2)
    over = _finished(3)
    end = ENG.view(over, 1)
    assert end["revealed"][0] == [] and end["revealed"][1] is None and end["revealed"][2] == ["B1", "B2"]
    assert end["turn"] is None and not leaked(ENG, over, 1) and not leaked(ENG, over, None)


def test_pk_51_drew_on_remembers_public_draws() -> None:
    """PK-51: the view keeps the colours a seat drew on (nothing to play) until it plays one."""
    state = table([["G1", "B2"], ["Y1", "Y2"]], "R9", stock=["R4", "G7", "Y5"])
    state = act(act(state, 0, "draw"), 0, "keep")  # drew on red, kept the playable R4
    assert ENG.view(state, 1)["drew_on"] == [["R"], []]
    state = act(state, 1, "draw")  # Y1, Y2 on red: seat 1 draws G7 and passes
    assert ENG.view(state, None)["drew_on"] == [["R"], ["R"]]
    state = play(state, 0, "R4")
    assert ENG.view(state, None)["drew_on"] == [[], ["R"]]
    assert ENG.dump(state)["drew_on"] == ["", "R"]


def test_pk_52_events_never_name_a_drawn_card() -> None:
    """PK-52: others see only how many cards were drawn."""
    state = deal([["R5", "B8"], FILLER[:2]], "G3", ["G9"])
    _, events = ENG.apply(state, 0, {"type": "draw"})
    assert "G9" not in json.dumps(events)


# -- 14 engine interface, malformed input ------------------------------------------------------------
def test_pk_56_legal_actions_per_phase() -> None:
    """PK-56: PLAY per matching card (4 colours for black), one per code despite duplicates."""
    state = deal([["R1", "R1", "W", "G9"], FILLER[:4]], "R7")
    assert ENG.legal_actions(state, 0) == [
        {"type": "play", "card": "R1"},
        *({"type": "play", "card": "W", "colour": c} for c in COLOURS),
    ]
    assert ENG.legal_actions(state, 1) == []
    for action in ENG.legal_actions(state, 0):
        assert code(state, 1, action) == "not_your_turn"


def test_pk_57_play_order_skip_to_one_card_with_two_players() -> None:
    """PK-57: a Skip that leaves one card starts the countdown, then gives the turn back."""
    state = deal([["RS", "R1"], FILLER[:3]], "R7")
    state = play(state, 0, "RS")
    assert ENG.to_act(state) == [0]
    assert ENG.legal_actions(state, 0) == [{"type": "call_pika"}, {"type": "play", "card": "R1"}]


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {"type": None},
        {"type": "PLAY", "card": "R1"},
        {"type": "play", "card": 5},
        {"type": "play", "card": "r1"},
        {"type": "play", "card": "W+2"},
        {"type": "play", "card": ["R1"]},
        {"type": "play", "card": {"R1": 1}},
        {"type": "timeout"},
        {"type": "timeout", "timer": ["turn"]},
        {"type": "reorder"},
        {"type": "reorder", "order": {"a": 1}},
    ],
)
def test_malformed_actions_are_refused(action: Any) -> None:
    """Malformed input raises IllegalAction (a ValueError) and changes nothing."""
    state = deal([["R1", "R2"], FILLER[:2]], "R7", turn_seconds=30)
    assert code(state, 0, action) == "bad_action"


def test_bad_seats_and_not_your_turn() -> None:
    state = deal([["R1", "R2"], FILLER[:2]], "R7")
    for seat in (-1, 2, "0", None, 1.0, True):
        assert code(state, seat, {"type": "play", "card": "R1"}) == "bad_seat"
    assert code(state, 1, {"type": "play", "card": "R1"}) == "not_your_turn"
    assert code(state, 0, {"type": "play", "card": "G5"}) == "illegal_card"  # not in hand
    with pytest.raises(IllegalAction):
        ENG.view(state, 7)


def test_options_are_validated() -> None:
    for options in (
        {"deck": ["R1", "ZZ"]},
        {"deck": ["W"] * 5 + ["R1"] * 10},
        {"turn_seconds": 0},
        {"turn_seconds": "30"},
        {"first_player": 4},
        {"hand_size": -1},
        {"hand_size": [7, 7, 7]},
    ):
        with pytest.raises(ValueError):
            ENG.new_game(2, seed=1, options=options)
    for seed in (None, 1.5, True, ("a",)):
        with pytest.raises(ValueError):
            ENG.new_game(2, seed=seed)


def test_load_refuses_states_no_dump_could_produce() -> None:
    good = ENG.dump(deal([["R1", "R2"], FILLER[:2]], "R7"))
    for key, value in (
        ("hands", [["R1"]]),
        ("colour", "P"),
        ("direction", 2),
        ("turn", 5),
        ("phase", "x"),
        ("pika", [0]),
        ("discard", []),
        ("drawn", "R1"),
        ("stack", -2),
        ("turn_seconds", "30"),
        ("drew_on", ["P", ""]),
    ):
        with pytest.raises(ValueError):
            ENG.load({**good, key: value})
    with pytest.raises(ValueError):
        ENG.load({k: v for k, v in good.items() if k != "stock"})


def test_apply_never_changes_its_input_and_round_trips() -> None:
    """The contract: pure apply, exact JSON round trip, conservation, along random games."""
    for seed in range(12):
        rng = random.Random(seed)
        state = ENG.new_game(2 + seed % 3, seed=seed)
        cards = ENG.all_cards(state)
        while not ENG.is_over(state):
            before = json.dumps(ENG.dump(state), sort_keys=True)
            timers = ENG.timers(state)
            if timers and rng.random() < 0.1:
                t = rng.choice(timers)
                seat, action = t["seat"], {"type": "timeout", "timer": t["name"]}
            else:
                seat = rng.choice(ENG.to_act(state))
                action = rng.choice(ENG.legal_actions(state, seat))
            new, _ = ENG.apply(state, seat, action)
            assert json.dumps(ENG.dump(state), sort_keys=True) == before
            assert ENG.dump(json_round_trip(ENG, new)) == ENG.dump(new)
            assert ENG.all_cards(new) == cards
            state = new


def test_pk_14_pk_15_listed_actions_of_another_position_take_the_same_checks() -> None:
    """PK-14, PK-15, PK-29: apply's shortcuts for the listed play and draw objects (the shared
    read-only dicts of ``legal_actions``) refuse what the plain dicts are refused, with the same
    codes: a listed play of a card the seat does not hold, a listed draw while a card can be
    played, while a stack is pending, and after a draw."""
    other = deal([["G9", "R5"], FILLER[:2]], "G3", ["R1"])
    listed_g9 = next(a for a in ENG.legal_actions(other, 0) if a["card"] == "G9")
    listed_draw = ENG.legal_actions(deal([["R5"], FILLER[:1]], "G3", ["R1"]), 0)[0]
    assert listed_draw == {"type": "draw"}

    state = deal([["G7", "B8"], FILLER[:2]], "G3", ["G1"])  # holds G7, not G9
    assert code(state, 0, listed_g9) == code(state, 0, {"type": "play", "card": "G9"}) == "illegal_card"
    assert code(state, 0, listed_draw) == code(state, 0, {"type": "draw"}) == "must_play"
    stacked = table([["R5", "B8"], FILLER[:2]], "G+2", stack=2)
    assert code(stacked, 0, listed_draw) == "stack_pending"
    drawn = act(deal([["R5", "B8"], FILLER[:2]], "G3", ["G9", "R1"]), 0, "draw")
    assert code(drawn, 0, listed_draw) == "wrong_phase"
    assert code(state, 1, listed_draw) == "not_your_turn"
    assert code(state, 7, listed_draw) == "bad_seat"


def test_pk_17_discard_order_survives_plays_dumps_and_a_reshuffle() -> None:
    """PK-17, PK-51: the discard pile (kept as a stack of cells) dumps bottom first, counts and
    shows its top card, and a reshuffle takes exactly the cards under the card in play."""
    state = table([["G5", "B1"], ["Y5", "Y1"]], "G3", below=["R1", "R2", "B4"], stock=[])
    state = play(play(state, 0, "G5"), 1, "Y5")
    data = json.loads(json.dumps(ENG.dump(state)))
    assert data["discard"] == ["R1", "R2", "B4", "G3", "G5", "Y5"]
    view = ENG.view(state, None)
    assert view["top"] == "Y5" and view["discard_count"] == 6 and view["stock_count"] == 0
    assert ENG.dump(ENG.load(data)) == ENG.dump(state)
    before = ENG.all_cards(state)
    state, events = ENG.apply(state, 0, {"type": "draw"})  # B1 cannot go on Y5; the stock is empty
    assert {"type": "reshuffle", "count": 5} in events
    view = ENG.view(state, 0)
    assert view["top"] == "Y5" and view["discard_count"] == 1 and view["stock_count"] == 4
    assert len(view["hand"]) == 2 and ENG.all_cards(state) == before
    assert sorted([*ENG.dump(state)["stock"], view["hand"][1]]) == ["B4", "G3", "G5", "R1", "R2"]
