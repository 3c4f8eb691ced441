"""El Puteo engine: the conformance scenarios PT-T01..PT-T24 and the rules without one (puteo.md).

Seats A, B, C, D of the scenarios are seats 0, 1, 2, 3. Hands are set with ``options["deck"]``:
every round deals from the same order, live seats ascending, ``n`` cards each in blocks (see the
engine's docstring), so ``deck_for(hands)`` puts the wanted hands on top.
PT-52 and PT-55 (names, tapping a card) are platform/UI rules with nothing to check here.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.puteo import PuteoEngine
from cardgames.engines.puteo.cards import CARDS_PER_ROUND, CODES
from tests.engines.harness import cards_in, json_round_trip, leaked, playout, rejects

ENG: PuteoEngine = get_engine("puteo")  # type: ignore[assignment]
A, B, C, D = 0, 1, 2, 3

State = Any


# -- helpers ----------------------------------------------------------------
def deck_for(*hands: list[str], mode: str = "classic") -> list[str]:
    """The given hands on top (dealt to the live seats in ascending order), then the rest."""
    top = [card for hand in hands for card in hand]
    copies = 2 if mode == "big" else 1
    rest = Counter({code: copies for code in CODES}) - Counter(top)
    assert not Counter(top) - Counter({code: copies for code in CODES}), "a hand holds an impossible card"
    return top + [code for code in CODES for _ in range(rest[code])]


def new(n: int, **options: Any) -> State:
    options.setdefault("turn_seconds", None)
    return ENG.new_game(n, seed=options.pop("seed", 1), options=options)


def act(state: State, seat: int | None, action: dict[str, Any]) -> State:
    return ENG.apply(state, seat, action)[0]


def bid(state: State, seat: int, k: int) -> State:
    return act(state, seat, {"type": "bid", "k": k})


def play(state: State, seat: int, card: str) -> State:
    return act(state, seat, {"type": "play", "card": card})


def bids_in_order(state: State, bids: dict[int, int]) -> State:
    """Every live seat bids ``bids[seat]`` in bidding order; checks that order is ``bids``'s order."""
    order = []
    while ENG.view(state, None)["phase"] == "bid":
        (seat,) = ENG.to_act(state)
        order.append(seat)
        state = bid(state, seat, bids[seat])
    assert order == list(bids), f"bidding order {order}"
    return state


def play_out(state: State) -> State:
    """Play the first legal card until the round is over (no effect in the blind round)."""
    while ENG.view(state, None)["phase"] == "play":
        (seat,) = ENG.to_act(state)
        state = act(state, seat, ENG.legal_actions(state, seat)[0])
    return state


def first_legal_round(state: State) -> State:
    """Bid and play the first legal action until the round ends (reveal lapses if needed).

    Returns the state after the round's last card: the next round, dealt, in its pause, or the
    end of the game.
    """
    round_no = ENG.view(state, None)["round"]
    if ENG.view(state, None)["phase"] == "reveal":
        state = act(state, None, {"type": "timeout", "timer": "reveal"})
    while not ENG.is_over(state) and ENG.view(state, None)["round"] == round_no:
        (seat,) = ENG.to_act(state)
        state = act(state, seat, ENG.legal_actions(state, seat)[0])
    return state


def next_round(state: State) -> State:
    """Let the pause after a round lapse (the next round is already dealt)."""
    return act(state, None, {"type": "timeout", "timer": "pause"})


def finished(state: State) -> dict[str, Any]:
    """The round just played: ``last_round`` during the pause, the final round at the end."""
    view = ENG.view(state, None)
    if ENG.is_over(state):
        return {key: view[key] for key in ("round", "bids", "tricks_won", "missed", "tricks")}
    assert view["pause"] is True
    last: dict[str, Any] = view["last_round"]
    return last


def phase(state: State) -> str:
    return str(ENG.view(state, None)["phase"])


def err_code(state: State, seat: Any, action: Any) -> str:
    return rejects(ENG, state, seat, action).code


# -- conformance scenarios ---------------------------------------------------
def test_pt_t01_cards_per_round_and_tricks_per_round() -> None:
    """PT-9, PT-10."""
    assert [CARDS_PER_ROUND[r] for r in range(1, 10)] == [5, 4, 3, 2, 1, 2, 3, 4, 5]
    for r in range(1, 10):
        state = new(4, start_round=r, first_dealer=D)
        assert ENG.view(state, None)["hand_counts"] == [CARDS_PER_ROUND[r]] * 4
        assert ENG.view(state, None)["cards_per_player"] == CARDS_PER_ROUND[r]
        state = first_legal_round(state)
        assert finished(state)["round"] == r
        assert len(finished(state)["tricks"]) == CARDS_PER_ROUND[r]
        assert sum(finished(state)["tricks_won"]) == CARDS_PER_ROUND[r]


def test_pt_t01_a_whole_game_deals_the_sequence_round_after_round() -> None:
    """PT-9, PT-10, PT-14."""
    state = new(4, lives=5, first_dealer=A)
    seen = []
    while not ENG.is_over(state):
        view = ENG.view(state, None)
        seen.append((view["round"], view["cards_per_player"]))
        state = first_legal_round(state)
        if not ENG.is_over(state):
            state = next_round(state)
    assert seen == [(r, CARDS_PER_ROUND[r]) for r in range(1, len(seen) + 1)]


def test_pt_t02_order_with_four_players() -> None:
    """PT-14, PT-17, PT-18, PT-29."""
    # given: dealer B; A holds every As, so A wins trick 1 whatever is played
    hands = [["1O", "1C", "1E", "1B", "2O"], ["3O", "3C", "3E", "3B", "4O"]]
    hands += [["4C", "4E", "4B", "5O", "5C"], ["5E", "5B", "6O", "6C", "6E"]]
    state = new(4, first_dealer=B, deck=deck_for(*hands))
    # then: C, D, A bid and B (the dealer) bids last
    state = bids_in_order(state, {C: 0, D: 0, A: 1, B: 0})
    # then: D (second after the dealer) leads
    assert ENG.to_act(state) == [D]
    assert ENG.view(state, A)["leader"] == D
    state = play(state, D, "5E")
    state = play(state, A, "1O")
    state = play(state, B, "3O")
    state = play(state, C, "4C")
    assert ENG.view(state, None)["tricks"][0]["winner"] == A
    assert ENG.to_act(state) == [A]  # the winner leads trick 2
    state = next_round(play_out(state))
    assert ENG.view(state, None)["dealer"] == C  # PT-14
    assert ENG.to_act(state) == [D]


def test_pt_t03_order_with_two_players() -> None:
    """PT-19 (PT-17, PT-18 with two players)."""
    state = new(2, first_dealer=A)
    assert ENG.view(state, None)["bid_order"] == [B, A]
    state = bids_in_order(state, {B: 0, A: 0})
    assert ENG.to_act(state) == [A]  # the dealer leads with two players (PT-19)


def test_pt_t04_dealer_cannot_make_bids_sum_to_cards() -> None:
    """PT-22, PT-56 (the view names the forbidden number)."""
    state = new(4, start_round=3, first_dealer=D)
    state = bid(bid(bid(state, A, 1), B, 0), C, 1)
    assert ENG.legal_actions(state, D) == [{"type": "bid", "k": k} for k in (0, 2, 3)]
    assert ENG.view(state, D)["forbidden_bid"] == 1
    assert err_code(state, D, {"type": "bid", "k": 1}) == "forbidden_bid"


def test_pt_t05_forbidden_value_out_of_range_forbids_nothing() -> None:
    """PT-22."""
    state = new(3, start_round=4, first_dealer=C)
    state = bid(bid(state, A, 2), B, 1)
    assert ENG.legal_actions(state, C) == [{"type": "bid", "k": k} for k in (0, 1, 2)]
    assert ENG.view(state, C)["forbidden_bid"] is None


def test_pt_t06_earlier_bidders_are_not_restricted() -> None:
    """PT-23."""
    state = new(3, start_round=4, first_dealer=C)
    assert {"type": "bid", "k": 2} in ENG.legal_actions(state, A)
    state = bid(state, A, 2)  # running sum = n: accepted
    assert ENG.legal_actions(state, B) == [{"type": "bid", "k": k} for k in (0, 1, 2)]
    state = bid(state, B, 0)
    assert {"type": "bid", "k": 0} not in ENG.legal_actions(state, C)
    assert err_code(state, C, {"type": "bid", "k": 0}) == "forbidden_bid"


def test_pt_t07_blind_round_has_no_forbidden_bid() -> None:
    """PT-32."""
    state = new(4, start_round=5, first_dealer=D)
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    state = bid(bid(bid(state, A, 0), B, 0), C, 0)
    assert ENG.legal_actions(state, D) == [{"type": "bid", "k": 0}, {"type": "bid", "k": 1}]
    assert ENG.view(state, D)["forbidden_bid"] is None
    state = bid(state, D, 1)  # sum = 1 = n is fine in the blind round
    assert finished(state)["round"] == 5 and finished(state)["bids"] == [0, 0, 0, 1]


def test_pt_t08_blind_round_visibility_and_reveal() -> None:
    """PT-31, PT-33, PT-47."""
    state = new(4, start_round=5, first_dealer=D, deck=deck_for(["7O"], ["10C"], ["3E"], ["1B"]))
    view = ENG.view(state, A)
    assert view["phase"] == "reveal" and view["blind"] is True
    assert view["blind_cards"] == [None, "10C", "3E", "1B"]
    assert view["own_card_hidden"] is True and view["hand"] == [] and view["hand_counts"][A] == 1
    assert "7O" not in json.dumps(view)
    assert ENG.timers(state) == [{"id": "reveal:5", "name": "reveal", "seat": None, "seconds": 10}]
    # during the reveal no BID is accepted from anyone
    for seat in range(4):
        assert not any(a["type"] == "bid" for a in ENG.legal_actions(state, seat))
        assert err_code(state, seat, {"type": "bid", "k": 0}) == "wrong_phase"
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    assert ENG.to_act(state) == [A]  # bidding opens after the dealer
    assert ENG.view(state, A)["blind_cards"] == [None, "10C", "3E", "1B"]  # PT-33: still shown


def test_pt_t09_highest_rank_wins_regardless_of_suit() -> None:
    """PT-7, PT-28."""
    state = new(3, start_round=4, first_dealer=B, deck=deck_for(["7O", "2C"], ["10C", "2E"], ["3O", "2B"]))
    state = bids_in_order(state, {C: 0, A: 0, B: 0})
    state = play(play(play(state, A, "7O"), B, "10C"), C, "3O")
    assert ENG.view(state, None)["tricks"][0] == {
        "winner": B,
        "cards": [{"seat": A, "card": "7O"}, {"seat": B, "card": "10C"}, {"seat": C, "card": "3O"}],
    }


def test_pt_t10_no_follow_suit_obligation() -> None:
    """PT-27."""
    state = new(2, start_round=4, first_dealer=A, deck=deck_for(["12O", "3E"], ["2O", "1C"]))
    state = bids_in_order(state, {B: 1, A: 0})
    state = play(state, A, "12O")
    assert {"type": "play", "card": "1C"} in ENG.legal_actions(state, B)
    state = play(state, B, "1C")
    assert ENG.view(state, None)["tricks"][0]["winner"] == B


def test_pt_t11_equal_cards_in_big_mode_the_first_played_wins() -> None:
    """PT-3, PT-8."""
    hands = (["12B", "2O"], ["5C", "2C"], ["12B", "2E"])
    state = new(3, mode="big", start_round=4, first_dealer=B, deck=deck_for(*hands, mode="big"))
    state = bids_in_order(state, {C: 0, A: 1, B: 0})
    state = play(play(play(state, A, "12B"), B, "5C"), C, "12B")
    assert ENG.view(state, None)["tricks"][0]["winner"] == A


def test_pt_t12_exact_bids_are_safe_any_miss_costs_one_life() -> None:
    """PT-35."""
    hands = (["1O", "1C", "2O"], ["1E", "2C", "3C"], ["2E", "3E", "4E"])
    state = new(3, start_round=3, first_dealer=C, deck=deck_for(*hands))
    state = bids_in_order(state, {A: 2, B: 0, C: 0})
    assert ENG.to_act(state) == [B]
    state = play(play(play(state, B, "1E"), C, "2E"), A, "2O")  # B wins
    state = play(play(play(state, B, "2C"), C, "3E"), A, "1O")  # A wins
    state, events = ENG.apply(play(play(state, A, "1C"), B, "3C"), C, {"type": "play", "card": "4E"})
    assert finished(state)["tricks_won"] == [2, 1, 0] and finished(state)["missed"] == [B]
    assert ENG.view(state, None)["lives"] == [5, 4, 5]
    assert {"type": "round_end", "round": 3, "lost_life": [B], "eliminated": []} in events
    # another case: A bids 3 and wins nothing: exactly one life
    weak = (["2O", "2C", "2E"], ["1E", "1C", "1O"], ["3O", "3C", "3E"])
    state = new(3, start_round=3, first_dealer=C, deck=deck_for(*weak))
    state = bids_in_order(state, {A: 3, B: 0, C: 1})
    state = play_out(state)
    assert finished(state)["tricks_won"][A] == 0
    assert ENG.view(state, None)["lives"][A] == 4


def test_pt_t13_eliminated_player_gets_no_cards_and_keeps_watching() -> None:
    """PT-36."""
    # B has one life and bids 2 holding the two weakest cards
    hands = (["1O", "1C"], ["2O", "2C"], ["1E", "1B"], ["12O", "12C"])
    state = new(4, start_round=4, first_dealer=D, start_lives=[5, 1, 5, 5], deck=deck_for(*hands))
    state = bids_in_order(state, {A: 1, B: 2, C: 1, D: 1})
    state = play_out(state)
    assert ENG.view(state, None)["lives"][B] == 0
    assert ENG.view(state, None)["eliminated_in"][B] == 4
    state = next_round(state)
    view_b = ENG.view(state, B)
    assert view_b["hand"] == [] and view_b["hand_counts"][B] == 0
    assert view_b["alive"][B] is False and view_b["round"] == 5
    assert B not in view_b["bid_order"]
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    while ENG.view(state, None)["round"] == 5:
        assert B not in ENG.to_act(state)
        assert ENG.legal_actions(state, B) == []
        (seat,) = ENG.to_act(state)
        state = bid(state, seat, 0)
        assert ENG.view(state, B)["bids"] == ENG.view(state, None)["bids"]  # public updates
    # the blind round was played without B; in the pause after it B still only watches (PT-44)
    last = ENG.view(state, B)["last_round"]
    assert last["round"] == 5 and len(last["tricks"]) == 1
    assert all(e["seat"] != B for t in last["tricks"] for e in t["cards"])
    assert B not in ENG.to_act(state) and ENG.legal_actions(state, B) == []
    assert err_code(state, B, {"type": "ready"}) == "not_your_turn"


def test_pt_t14_simultaneous_elimination_means_no_winner() -> None:
    """PT-36, PT-39."""
    state = new(
        2, start_round=4, first_dealer=B, start_lives=[1, 1], deck=deck_for(["2O", "3O"], ["1O", "1C"])
    )
    state = bids_in_order(state, {A: 2, B: 1})
    state = play_out(state)
    assert ENG.is_over(state)
    result = ENG.result(state)
    assert result["no_winner"] is True and result["survivors"] == []
    assert result["placements"] == [1, 1]  # PT-39: both share 1st for the platform
    assert result["winners"] == [A, B]  # = the first-placed seats (engine contract)
    assert result["scores"] == [0, 0]


def test_pt_t15_early_end_when_one_player_is_left() -> None:
    """PT-11, PT-37."""
    hands = (["2O", "2C", "2E"], ["3O", "3C", "3E"], ["1O", "1C", "1E"])
    state = new(3, start_round=3, first_dealer=C, start_lives=[1, 1, 5], deck=deck_for(*hands))
    state = bids_in_order(state, {A: 3, B: 3, C: 3})
    state = play_out(state)
    assert ENG.is_over(state)
    assert ENG.view(state, None)["round"] == 3  # rounds 4-9 are not played
    assert ENG.to_act(state) == [] and ENG.timers(state) == []
    result = ENG.result(state)
    assert result["winners"] == [C] and result["no_winner"] is False
    assert result["placements"] == [2, 2, 1]
    assert err_code(state, C, {"type": "ready"}) == "game_over"


def test_pt_t16_survivors_after_round_nine_most_lives_share_the_win() -> None:
    """PT-38."""
    hands = (["1O", "1C", "1E", "1B", "12O"], ["2O", "2C", "2E", "2B", "3O"], ["3C", "3E", "3B", "4O", "4C"])
    state = new(3, start_round=9, first_dealer=C, start_lives=[2, 3, 1], deck=deck_for(*hands))
    state = bids_in_order(state, {A: 5, B: 1, C: 0})
    state = play_out(state)
    assert ENG.is_over(state)
    result = ENG.result(state)
    assert result["scores"] == [2, 2, 1]
    assert result["winners"] == [A, B] and result["placements"] == [1, 1, 3]


def test_pt_t17_bid_timeouts() -> None:
    """PT-41."""
    state = new(4, first_dealer=D, turn_seconds=30)
    state = bid(state, A, 5)
    assert ENG.timers(state)[0]["seat"] == B
    state = act(state, B, {"type": "timeout", "timer": "turn"})
    assert ENG.view(state, None)["bids"][B] == 0
    state = bid(state, C, 0)
    assert ENG.view(state, D)["forbidden_bid"] == 0
    state = act(state, D, {"type": "timeout", "timer": "turn"})
    assert ENG.view(state, None)["bids"] == [5, 0, 0, 1]


def test_pt_t18_play_timeout_plays_the_first_card_in_hand_order() -> None:
    """PT-42, PT-43."""
    hands = (["12O", "3E", "6O"], ["4O", "4C", "4E"], ["5O", "5C", "5E"], ["7O", "7C", "7E"])
    state = new(4, start_round=3, first_dealer=C, turn_seconds=30, deck=deck_for(*hands))
    assert ENG.view(state, A)["hand"] == ["3E", "6O", "12O"]  # PT-43: weakest first
    state = bids_in_order(state, {D: 0, A: 0, B: 0, C: 0})
    assert ENG.to_act(state) == [A]
    state, events = ENG.apply(state, A, {"type": "timeout", "timer": "turn"})
    assert ENG.view(state, None)["current_trick"] == [{"seat": A, "card": "3E"}]
    assert {"type": "play", "seat": A, "card": "3E", "auto": True} in events


def test_pt_t19_dealer_rotation_skips_eliminated_players() -> None:
    """PT-16."""
    hands = (["2O", "2C"], ["1O", "1C"], ["1E", "1B"], ["12O", "12C"])
    state = new(4, start_round=4, first_dealer=D, start_lives=[1, 5, 5, 5], deck=deck_for(*hands))
    state = bids_in_order(state, {A: 2, B: 1, C: 1, D: 1})
    state = play_out(state)
    assert ENG.view(state, None)["lives"][A] == 0
    state = next_round(state)
    assert ENG.view(state, None)["round"] == 5 and ENG.view(state, None)["dealer"] == B


def test_pt_t20_three_lives_option() -> None:
    """PT-5, PT-50."""
    # deck in strength order: seat 0 always holds the weakest cards and never takes a trick
    state = new(4, lives=3, first_dealer=D, deck=list(CODES))
    assert ENG.view(state, None)["lives"] == [3, 3, 3, 3]
    for r in (1, 2, 3):
        while phase(state) == "bid":
            (seat,) = ENG.to_act(state)
            # A bids as many as it can (at least 1) and takes nothing; the others bid the least
            state = act(state, seat, ENG.legal_actions(state, seat)[-1 if seat == A else 0])
        state = play_out(state)
        assert ENG.view(state, None)["lives"][A] == 3 - r
        if r < 3:
            state = next_round(state)
    assert ENG.view(state, None)["alive"][A] is False
    assert ENG.view(state, None)["eliminated_in"][A] == 3


def test_pt_t21_classic_seats_eight_big_mode_twelve() -> None:
    """PT-2, PT-3, PT-12, PT-53."""
    assert ENG.new_game(8, seed=1, options={"mode": "classic"})
    with pytest.raises(ValueError) as info:
        ENG.new_game(9, seed=1, options={"mode": "classic"})
    assert isinstance(info.value, IllegalAction) and info.value.code == "too_many_players"
    with pytest.raises(IllegalAction):
        ENG.new_game(13, seed=1, options={"mode": "big"})
    state = ENG.new_game(12, seed=1, options={"mode": "big"})
    assert sum(ENG.view(state, None)["hand_counts"]) == 60
    assert sum(ENG.all_cards(state).values()) == 80
    assert max(ENG.all_cards(state).values()) == 2


def test_pt_t22_late_joiner_is_a_spectator_with_no_seat() -> None:
    """PT-54."""
    state = new(4)
    view = ENG.view(state, None)
    assert view["seat"] is None and view["hand"] is None  # docs/protocol.md: a spectator has no hand
    assert not cards_in(view, ENG.card_codes)  # nothing dealt is shown before it is played
    with pytest.raises(IllegalAction) as info:
        ENG.legal_actions(state, 4)
    assert info.value.code == "bad_seat"
    assert err_code(state, 4, {"type": "bid", "k": 0}) == "bad_seat"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 8))
def test_pt_t23_someone_always_misses_outside_the_blind_round(seed: int, n: int) -> None:
    """PT-22, PT-24."""
    rng = random.Random(seed)
    state = ENG.new_game(n, seed=seed, options={"turn_seconds": None})
    while not ENG.is_over(state):
        seat = rng.choice(ENG.to_act(state))
        before = ENG.view(state, None)
        state, events = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
        for event in events:
            if event["type"] == "round_end" and event["round"] != 5:
                bids = [b for b in ENG.view(state, None)["bids"] if b is not None]
                assert sum(bids) != before["cards_per_player"]
                assert event["lost_life"], "a non-blind round where nobody missed"


def test_pt_t24_blind_round_cards_are_played_automatically() -> None:
    """PT-34, PT-28, PT-8."""
    # big mode with two equal As: the one played first (C, the second after dealer A) wins
    hands = (["7O"], ["1B"], ["1B"], ["3E"])
    state = new(4, mode="big", start_round=5, first_dealer=A, deck=deck_for(*hands, mode="big"))
    for seat in range(4):
        assert err_code(state, seat, {"type": "play", "card": hands[seat][0]}) == "wrong_phase"
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    for seat in range(4):
        assert not any(a["type"] == "play" for a in ENG.legal_actions(state, seat))
        assert err_code(state, seat, {"type": "play", "card": hands[seat][0]}) in (
            "wrong_phase",
            "not_your_turn",
        )
    state = bid(bid(bid(state, B, 0), C, 1), D, 0)
    state, events = ENG.apply(state, A, {"type": "bid", "k": 0})
    plays = [(e["seat"], e["card"], e["auto"]) for e in events if e["type"] == "play"]
    assert plays == [(C, "1B", True), (D, "3E", True), (A, "7O", True), (B, "1B", True)]
    assert finished(state)["tricks"][0]["winner"] == C
    assert ENG.view(state, None)["lives"] == [5, 5, 5, 5]  # everyone guessed right


# -- rules without a scenario -----------------------------------------------
def test_pt_1_pt_5_everyone_starts_with_five_lives_by_default() -> None:
    assert ENG.view(new(5), None)["lives"] == [5] * 5
    assert ENG.view(new(5), None)["start_lives"] == 5


def test_pt_6_the_deck_is_the_spanish_forty() -> None:
    assert len(ENG.card_codes) == 40
    assert {code[:-1] for code in ENG.card_codes} == {"1", "2", "3", "4", "5", "6", "7", "10", "11", "12"}
    assert {code[-1] for code in ENG.card_codes} == set("OCEB")
    assert ENG.all_cards(new(4)) == Counter(ENG.card_codes)


def test_pt_7_strength_order_as_rey_caballo_sota_seven_to_two() -> None:
    order = ["2", "3", "4", "5", "6", "7", "10", "11", "12", "1"]
    for weak, strong in itertools.pairwise(order):
        state = new(2, start_round=4, first_dealer=A, deck=deck_for([strong + "E", "2B"], [weak + "O", "2C"]))
        state = bids_in_order(state, {B: 0, A: 1})
        state = play(play(state, A, strong + "E"), B, weak + "O")
        assert ENG.view(state, None)["tricks"][0]["winner"] == A, (weak, strong)


def test_pt_2_pt_4_big_mode_from_two_players_with_two_decks() -> None:
    state = ENG.new_game(2, seed=3, options={"mode": "big"})
    assert sum(ENG.all_cards(state).values()) == 80
    assert ENG.dump(ENG.new_game(9, seed=3))["mode"] == "big"  # no mode given: big seats 9-12


def test_pt_12_fresh_deal_each_round_only_to_live_players() -> None:
    hands = (["2O", "2C"], ["1O", "1C"], ["1E", "1B"], ["12O", "12C"])
    state = new(4, start_round=4, first_dealer=D, start_lives=[1, 5, 5, 5], deck=deck_for(*hands))
    state = next_round(play_out(bids_in_order(state, {A: 2, B: 1, C: 1, D: 1})))
    # A is out: the next live seats take the blocks from the top of the same order again
    assert ENG.view(state, C)["blind_cards"] == [None, "2O", None, "1O"]
    assert ENG.view(state, None)["hand_counts"] == [0, 1, 1, 1]
    assert ENG.all_cards(state) == Counter(ENG.card_codes)


def test_pt_12_seeded_deals_differ_between_rounds_and_seeds() -> None:
    a = [ENG.view(new(4, seed=9, start_round=r, first_dealer=A), A)["hand"] for r in (1, 9)]
    b = ENG.view(new(4, seed=10, start_round=1, first_dealer=A), A)["hand"]
    assert a[0] != a[1] and a[0] != b


def test_pt_13_only_round_five_is_blind() -> None:
    for r in range(1, 10):
        state = new(3, start_round=r, first_dealer=A)
        assert ENG.view(state, None)["blind"] is (r == 5)
        assert phase(state) == ("reveal" if r == 5 else "bid")


def test_pt_15_first_dealer_is_a_random_live_seat() -> None:
    dealers = Counter(ENG.view(ENG.new_game(4, seed=s), None)["dealer"] for s in range(400))
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 60
    assert {ENG.view(new(4, seed=s, start_lives=[0, 5, 0, 5]), None)["dealer"] for s in range(40)} == {1, 3}


def test_pt_20_pt_49_the_table_centre_is_public() -> None:
    state = bid(new(4, first_dealer=B), C, 2)
    spectator = ENG.view(state, None)
    for key, value in {"dealer": B, "turn": D, "leader": D, "bid_order": [C, D, A, B], "round": 1}.items():
        assert spectator[key] == value
    assert spectator["bids"] == [None, None, 2, None]  # PT-25: bids public as they are made
    assert spectator["cards_per_player"] == 5 and spectator["to_act"] == [D]


def test_pt_21_bids_range_from_zero_to_cards_dealt() -> None:
    state = new(3, start_round=2, first_dealer=C)
    assert ENG.legal_actions(state, A) == [{"type": "bid", "k": k} for k in range(5)]
    assert err_code(state, A, {"type": "bid", "k": 5}) == "bad_bid"
    assert err_code(state, A, {"type": "bid", "k": -1}) == "bad_bid"
    assert err_code(state, A, {"type": "bid", "k": True}) == "bad_action"
    assert err_code(state, A, {"type": "bid", "k": 1.0}) == "bad_action"


def test_pt_26_pt_29_table_order_from_the_leader_and_the_winner_leads() -> None:
    state = bids_in_order(new(4, first_dealer=A), {B: 0, C: 0, D: 0, A: 0})
    assert ENG.to_act(state) == [C]
    for expected in (C, D, A, B):
        assert ENG.to_act(state) == [expected]
        assert err_code(state, (expected + 1) % 4, ENG.legal_actions(state, expected)[0]) == "not_your_turn"
        state = act(state, expected, ENG.legal_actions(state, expected)[0])
    winner = ENG.view(state, None)["tricks"][0]["winner"]
    assert ENG.to_act(state) == [winner] and ENG.view(state, None)["tricks_won"][winner] == 1


def test_pt_27_any_card_in_hand_may_be_played() -> None:
    state = bids_in_order(new(4, first_dealer=A), {B: 0, C: 0, D: 0, A: 0})
    hand = ENG.view(state, C)["hand"]
    assert [a["card"] for a in ENG.legal_actions(state, C)] == hand
    state = play(state, C, hand[-1])
    hand_d = ENG.view(state, D)["hand"]
    assert [a["card"] for a in ENG.legal_actions(state, D)] == hand_d  # no suit to follow
    other = next(code for code in CODES if code not in hand_d and code != hand[-1])
    assert err_code(state, D, {"type": "play", "card": other}) == "illegal_card"


def test_pt_30_tricks_and_played_cards_are_public() -> None:
    state = bids_in_order(new(4, first_dealer=A), {B: 0, C: 0, D: 0, A: 0})
    for _ in range(5):
        (seat,) = ENG.to_act(state)
        state = act(state, seat, ENG.legal_actions(state, seat)[0])
    spectator = ENG.view(state, None)
    assert len(spectator["tricks"]) == 1 and len(spectator["current_trick"]) == 1
    assert sum(spectator["tricks_won"]) == 1
    assert sum(cards_in(spectator, ENG.card_codes).values()) == 5


def test_pt_34_blind_round_has_no_card_turn_and_no_play_timer() -> None:
    state = new(3, start_round=5, first_dealer=A, turn_seconds=30)
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    for _ in range(3):
        assert ENG.timers(state)[0]["name"] == "turn"  # a bid timer, PT-40
        (seat,) = ENG.to_act(state)
        state = act(state, seat, {"type": "timeout", "timer": "turn"})
    assert finished(state)["round"] == 5  # the last bid played the cards (no card turn)
    assert [t["name"] for t in ENG.timers(state)] == ["pause"]


def test_pt_35_any_miss_by_any_amount_costs_exactly_one_life() -> None:
    hands = (["1O", "1C", "1E", "1B", "12O"], ["2O", "2C", "2E", "2B", "3O"])
    state = new(2, first_dealer=B, deck=deck_for(*hands))
    state = bids_in_order(state, {A: 1, B: 5})  # A takes 5 (off by 4), B takes 0 (off by 5)
    state = play_out(state)
    assert ENG.view(state, None)["lives"] == [4, 4]
    assert finished(state)["missed"] == [A, B]


def test_pt_36_eliminated_players_watch_without_blind_cards() -> None:
    state = new(3, start_round=5, start_lives=[0, 5, 5], first_dealer=B)
    view = ENG.view(state, A)
    assert view["blind_cards"] == [None, None, None] and view["hand"] == []
    assert ENG.legal_actions(state, A) == [] and A not in ENG.to_act(state)
    assert err_code(state, A, {"type": "ready"}) == "not_your_turn"


def test_pt_37_pt_39_ranking_of_eliminated_players() -> None:
    # A out before the start (round 0); B falls in round 4; C survives
    hands = (["2O", "2C"], ["1O", "1C"], ["3O", "3C"])  # for the live seats B, C, D
    state = new(4, start_round=4, first_dealer=D, start_lives=[0, 1, 5, 1], deck=deck_for(*hands))
    state = bids_in_order(state, {B: 1, C: 2, D: 1})
    state = play_out(state)
    assert ENG.is_over(state)
    result = ENG.result(state)
    assert result["winners"] == [C] and result["scores"] == [0, 0, 5, 0]
    assert result["placements"] == [4, 2, 1, 2]  # B and D fell together in round 4


def test_pt_40_pt_44_pt_45_timers() -> None:
    state = ENG.new_game(3, seed=2, options={"first_dealer": A})
    (timer,) = ENG.timers(state)
    assert timer["name"] == "turn" and timer["seat"] == B and timer["seconds"] == 30
    assert ENG.timers(bid(state, B, 0))[0]["id"] != timer["id"]  # a new deadline for C
    assert ENG.timers(new(3)) == []  # turn_seconds None removes the per-player timer
    # given: the last card of round 1 (dealer A) is played
    state = bids_in_order(ENG.new_game(3, seed=2, options={"first_dealer": A}), {B: 0, C: 0, A: 0})
    while ENG.view(state, None)["round"] == 1:
        (seat,) = ENG.to_act(state)
        state, events = ENG.apply(state, seat, ENG.legal_actions(state, seat)[0])
    # then: round 2 is dealt by B at once and the 6 s pause runs before any turn clock
    assert {"type": "deal", "round": 2, "dealer": B} in events
    view = ENG.view(state, C)
    assert view["pause"] is True and view["last_round"]["round"] == 1 and len(view["hand"]) == 4
    assert ENG.timers(state) == [{"id": "pause:1", "name": "pause", "seat": None, "seconds": 6}]
    assert err_code(state, C, {"type": "timeout", "timer": "turn"}) == "no_timer"
    # the pause lapses: the first bidder's turn clock starts, the result is no longer shown
    after = act(state, None, {"type": "timeout", "timer": "pause"})
    assert [t["name"] for t in ENG.timers(after)] == ["turn"] and ENG.timers(after)[0]["seat"] == C
    assert ENG.view(after, None)["pause"] is False and ENG.view(after, None)["last_round"] is None
    # or every live seat presses ready, which ends it too (see the next test)
    early = act(act(act(state, C, {"type": "ready"}), A, {"type": "ready"}), B, {"type": "ready"})
    assert ENG.view(early, None)["pause"] is False and ENG.timers(early)[0]["seat"] == C
    assert err_code(early, None, {"type": "timeout", "timer": "pause"}) == "no_timer"
    assert ENG.timers(new(3, start_round=5))[0]["name"] == "reveal"  # the reveal stays


def test_pt_44_nobody_cuts_the_result_screen_short_the_pause_waits_for_every_live_seat() -> None:
    """PT-44/PT-45, PT-57: the pause ends when its 6 s table timer lapses or when every live seat has
    pressed ready; meanwhile ``ready`` is the only legal action and no bid is accepted."""
    # given: round 1 (dealer A) is over; round 2 is dealt and its pause runs
    state = first_legal_round(new(3, first_dealer=A, turn_seconds=30))
    assert ENG.view(state, None)["pause"] is True and ENG.view(state, None)["round"] == 2
    assert ENG.to_act(state) == [A, B, C]
    for seat in (A, B, C):
        assert ENG.legal_actions(state, seat) == [{"type": "ready"}]
    # when: the first bidder (C) tries to bid at once, it is refused: the others still read
    assert err_code(state, C, {"type": "bid", "k": 0}) == "wrong_phase"
    assert err_code(state, B, {"type": "bid", "k": 0}) == "wrong_phase"
    assert err_code(state, C, {"type": "timeout", "timer": "turn"}) == "no_timer"
    # when: C and A are ready, the pause runs on for B, with the same deadline
    state = act(act(state, C, {"type": "ready"}), A, {"type": "ready"})
    assert ENG.to_act(state) == [B] and ENG.legal_actions(state, C) == []
    assert ENG.view(state, None)["ready"] == [A, C] and ENG.view(state, None)["pause"] is True
    assert ENG.timers(state) == [{"id": "pause:1", "name": "pause", "seat": None, "seconds": 6}]
    assert err_code(state, A, {"type": "ready"}) == "already_ready"
    # then: B's ready ends it, bidding opens with C and C's turn clock starts
    state, events = ENG.apply(state, B, {"type": "ready"})
    assert events == [{"type": "ready", "seat": B}]
    view = ENG.view(state, None)
    assert view["pause"] is False and view["last_round"] is None and view["ready"] == []
    assert ENG.to_act(state) == [C] and ENG.legal_actions(state, C)[0] == {"type": "bid", "k": 0}
    assert [t["name"] for t in ENG.timers(state)] == ["turn"]
    assert err_code(state, B, {"type": "ready"}) == "wrong_phase"
    # or: the pause lapses with only some seats ready; the votes do not carry over
    half = act(first_legal_round(new(3, first_dealer=A)), A, {"type": "ready"})
    after = act(half, None, {"type": "timeout", "timer": "pause"})
    assert ENG.view(after, None)["ready"] == [] and ENG.to_act(after) == [C]


def test_pt_44_pt_t08_the_ready_votes_of_the_pause_do_not_count_for_the_blind_reveal() -> None:
    """The pause before round 5 and its reveal each wait for their own ready votes."""
    state = first_legal_round(new(3, start_round=4, first_dealer=A))
    assert phase(state) == "reveal" and ENG.view(state, None)["pause"] is True
    for seat in (A, B, C):
        state = act(state, seat, {"type": "ready"})
    # the pause is over; the reveal starts with nobody ready, bids still refused (PT-T08)
    assert ENG.view(state, None)["pause"] is False and phase(state) == "reveal"
    assert ENG.to_act(state) == [A, B, C] and [t["name"] for t in ENG.timers(state)] == ["reveal"]
    assert err_code(state, B, {"type": "bid", "k": 0}) == "wrong_phase"
    for seat in (A, B, C):
        state = act(state, seat, {"type": "ready"})
    assert phase(state) == "bid"


def test_pt_44_eliminated_seats_are_not_waited_for_in_the_pause() -> None:
    # given: B (one life) misses in round 4 and is out; A, C, D go on to round 5
    hands = (["1O", "1C"], ["2O", "2C"], ["1E", "1B"], ["12O", "12C"])
    state = new(4, start_round=4, first_dealer=D, start_lives=[5, 1, 5, 5], deck=deck_for(*hands))
    state = play_out(bids_in_order(state, {A: 1, B: 2, C: 1, D: 1}))
    assert ENG.to_act(state) == [A, C, D]
    for seat in (A, C, D):
        state = act(state, seat, {"type": "ready"})
    assert ENG.view(state, None)["pause"] is False and [t["name"] for t in ENG.timers(state)] == ["reveal"]


def test_pt_41_timeout_never_bids_a_forbidden_zero_in_the_last_round() -> None:
    state = new(2, start_round=9, first_dealer=B, turn_seconds=15)
    state = bid(state, A, 5)
    assert ENG.timers(state)[0]["seconds"] == 15
    state = act(state, B, {"type": "timeout", "timer": "turn"})
    assert ENG.view(state, None)["bids"] == [5, 1]


def test_pt_33_ready_votes_end_the_reveal_only_when_every_live_player_is_ready() -> None:
    state = new(3, start_round=5, first_dealer=A)
    assert ENG.to_act(state) == [A, B, C]
    assert ENG.legal_actions(state, A) == [{"type": "ready"}]
    state = act(state, B, {"type": "ready"})
    assert ENG.to_act(state) == [A, C] and ENG.legal_actions(state, B) == []
    assert err_code(state, B, {"type": "ready"}) == "already_ready"
    assert ENG.timers(state)[0]["id"] == "reveal:5"  # the same deadline keeps running
    state = act(act(state, A, {"type": "ready"}), C, {"type": "ready"})
    assert phase(state) == "bid" and ENG.to_act(state) == [B]
    assert err_code(state, B, {"type": "ready"}) == "wrong_phase"


def test_pt_44_the_pause_before_the_blind_round_comes_before_the_reveal() -> None:
    state = first_legal_round(new(3, start_round=4, first_dealer=A))
    assert phase(state) == "reveal" and ENG.view(state, None)["pause"] is True
    assert [t["name"] for t in ENG.timers(state)] == ["pause"]
    assert err_code(state, None, {"type": "timeout", "timer": "reveal"}) == "no_timer"
    state = next_round(state)
    assert [t["name"] for t in ENG.timers(state)] == ["reveal"]


def test_pt_46_normal_rounds_hide_other_hands() -> None:
    state = new(4, first_dealer=A)
    for seat in range(4):
        view = ENG.view(state, seat)
        assert Counter(cards_in(view, ENG.card_codes)) == Counter(view["hand"])
        assert len(view["hand"]) == 5 and view["blind_cards"] is None
        assert not leaked(ENG, state, seat)


def test_pt_47_a_blind_card_is_never_shown_to_its_owner_even_with_duplicates() -> None:
    for seed in range(30):
        state = ENG.new_game(12, seed=seed, options={"mode": "big", "start_round": 5})
        for step in range(2):
            hands = ENG.dump(state)["hands"]
            for seat in range(12):
                own = hands[seat]
                view = ENG.view(state, seat)
                shown = cards_in(view, ENG.card_codes)
                others = Counter(c for s, h in enumerate(hands) if s != seat for c in h)
                assert shown == others  # exactly the others' cards: own copy never shown
                assert view["blind_cards"][seat] is None and len(own) == 1
                assert not leaked(ENG, state, seat)
            if step == 0:
                state = act(state, None, {"type": "timeout", "timer": "reveal"})


def test_pt_48_spectators_see_no_blind_card_before_it_is_played() -> None:
    state = new(4, start_round=5)
    assert ENG.view(state, None)["blind_cards"] == [None] * 4
    assert not cards_in(ENG.view(state, None), ENG.card_codes)
    state = act(state, None, {"type": "timeout", "timer": "reveal"})
    while ENG.view(state, None)["round"] == 5:
        assert not cards_in(ENG.view(state, None), ENG.card_codes)
        (seat,) = ENG.to_act(state)
        state = bid(state, seat, 0)
    assert sum(cards_in(ENG.view(state, None), ENG.card_codes).values()) == 4  # once played


def test_pt_50_pt_51_pt_53_options_are_validated() -> None:
    for options in (
        {"lives": 4},
        {"lives": True},
        {"mode": "huge"},
        {"turn_seconds": 0},
        {"start_round": 10},
        {"first_dealer": 7},
        {"start_lives": [1, 0, 0]},
        {"deck": ["ZZ"] * 40},
        {"deck": ["1O"] * 40},
        {"deck": list(CODES)[:10]},
    ):
        with pytest.raises(ValueError):
            ENG.new_game(3, seed=1, options=options)
    for players in (1, 0, 13, "4", True):
        with pytest.raises(ValueError):
            ENG.new_game(players, seed=1)  # type: ignore[arg-type]


def test_pt_57_engine_interface_actions_and_phases() -> None:
    state = new(3, first_dealer=A)
    assert all(set(a) == {"type", "k"} for a in ENG.legal_actions(state, B))
    state = bids_in_order(state, {B: 0, C: 0, A: 0})
    assert all(set(a) == {"type", "card"} for a in ENG.legal_actions(state, C))
    names = set()
    state = ENG.new_game(4, seed=5, options={"turn_seconds": 30})
    for _, seat, action, new_state in playout(ENG, 4, seed=5, options={"turn_seconds": 30}):
        names.add(ENG.view(new_state, None)["phase"])
        if action["type"] == "timeout":
            assert any(t["name"] == action["timer"] and t["seat"] == seat for t in ENG.timers(_))
    assert names <= {"reveal", "bid", "play", "over"} and "over" in names


# -- contract details ----------------------------------------------------------
@pytest.mark.parametrize(
    "action,code",
    [
        (None, "bad_action"),
        ([], "bad_action"),
        ({}, "bad_action"),
        ({"type": "fly"}, "bad_action"),
        ({"type": "play"}, "bad_action"),
        ({"type": "play", "card": ["1O"]}, "bad_action"),
        ({"type": "play", "card": "8O"}, "bad_action"),
        ({"type": "bid"}, "bad_action"),
        ({"type": "bid", "k": "1"}, "bad_action"),
        ({"type": "timeout"}, "bad_action"),
        ({"type": "timeout", "timer": "reveal"}, "no_timer"),
        ({"type": "timeout", "timer": "turn"}, "no_timer"),
        ({"type": "play", "card": "1O"}, "wrong_phase"),
        ({"type": "ready"}, "wrong_phase"),
    ],
)
def test_malformed_and_misplaced_actions(action: Any, code: str) -> None:
    state = new(4, first_dealer=D)
    assert err_code(state, A, action) == code


def test_bad_seats_and_timer_seats() -> None:
    state = ENG.new_game(4, seed=1, options={"first_dealer": D})
    for seat in (-1, 4, "0", None, 1.5, True):
        assert err_code(state, seat, {"type": "bid", "k": 0}) == "bad_seat"
    assert err_code(state, B, {"type": "timeout", "timer": "turn"}) == "not_your_turn"
    assert err_code(state, None, {"type": "timeout", "timer": "turn"}) == "bad_seat"
    paused = first_legal_round(new(4, first_dealer=D))
    assert err_code(paused, A, {"type": "timeout", "timer": "pause"}) == "bad_seat"


def test_apply_never_mutates_and_dump_load_round_trips() -> None:
    for _, _seat, _action, new_state in playout(ENG, 5, seed=11, options={"mode": "big"}):
        assert ENG.dump(json_round_trip(ENG, new_state)) == ENG.dump(new_state)
        assert json_round_trip(ENG, new_state) == new_state
        for viewer in (None, 0, 1, 2, 3, 4):
            view = ENG.view(new_state, viewer)
            assert json.loads(json.dumps(view)) == view and view["seat"] == viewer
    state = new(4)
    before = json.dumps(ENG.dump(state), sort_keys=True)
    ENG.apply(state, ENG.to_act(state)[0], ENG.legal_actions(state, ENG.to_act(state)[0])[0])
    assert json.dumps(ENG.dump(state), sort_keys=True) == before
    with pytest.raises(ValueError):
        ENG.load({"game": "puteo"})


def test_same_seed_same_game_and_string_seeds() -> None:
    assert ENG.dump(ENG.new_game(6, seed="table-9")) == ENG.dump(ENG.new_game(6, seed="table-9"))
    assert ENG.dump(ENG.new_game(6, seed=4)) != ENG.dump(ENG.new_game(6, seed=5))


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalAction):
        ENG.result(new(3))


def test_random_games_always_end_for_every_size_and_mode() -> None:
    for n in range(2, 13):
        for options in ({"mode": "big"}, {"lives": 3}) if n <= 8 else ({"mode": "big"},):
            steps = sum(1 for _ in playout(ENG, n, seed=n, options={"turn_seconds": 30, **options}))
            assert steps > 0
