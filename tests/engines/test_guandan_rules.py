"""Guandan rules without a conformance scenario of their own (rules: ../shared/rules/guandan.md).

Each test cites the rule IDs it checks; the scenarios GD-T01 … GD-T30 are in
test_guandan_scenarios.py and the classifier properties in test_guandan_combos.py.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cardgames.engines import IllegalAction
from tests.engines.harness import cards_in, json_round_trip, leaked, playout
from tests.engines.test_guandan_helpers import (
    ENG,
    finish_deal,
    game,
    pass_,
    play,
    play_action,
    readings,
    refused,
    start_next_deal,
)


def test_gd_1_gd_65_four_players_in_two_opposite_teams() -> None:
    with pytest.raises(ValueError):
        ENG.new_game(3, seed=1)
    assert ENG.min_players == ENG.max_players == 4
    state = finish_deal([1, 3, 0, 2], ["2", "2"], "2")
    assert ENG.view(state, None)["levels"] == ["2", "5"]  # S1 and S3 are partners


def test_gd_3_gd_7_both_teams_start_at_two() -> None:
    view = ENG.view(ENG.new_game(4, seed=5), None)
    assert view["levels"] == ["2", "2"] and view["level"] == "2"


def test_gd_6_every_deal_is_a_fresh_shuffle() -> None:
    state = ENG.new_game(4, seed=3)
    first = ENG.view(state, 0)["hand"]
    for state, *_ in playout(ENG, 4, seed=3):
        if ENG.view(state, None)["deal"] == 2:
            break
    assert ENG.view(state, 0)["hand"] != first
    assert sum(ENG.all_cards(state).values()) == 108


def test_gd_10_gd_12_wildcards_stand_for_ordinary_cards_and_themselves() -> None:
    assert ("bomb", "8") in readings("8S 8D 8C 4H", "4")  # a wildcard completes a bomb
    assert ("straight", "6") in readings("2S 3D 4H 5C 6S", "4")  # a wildcard as a 4 in its place
    assert ("straight_flush", "7") in readings("3H 4H 5H 6H 7H", "7")  # ♥L as itself in a heart flush
    assert readings("4H BJ", "4") == set()  # never a joker
    assert readings("RJ RJ BJ 4H", "4") == set()


def test_gd_21_two_pairs_and_four_with_kickers_are_not_plays() -> None:
    assert readings("5S 5D 6S 6D") == set()
    assert readings("5S 5D 5C 5H 6S") == set()
    assert readings("5S 5D 5C 5H 6S 6D") == set()


def test_gd_24_play_goes_counter_clockwise() -> None:
    state = game([["3S"], ["4S"], ["5S"], ["6S"]])
    assert ENG.to_act(state) == [0]
    state = play(state, 0, ["3S"], "single", "3")
    assert ENG.to_act(state) == [1]


def test_gd_28_a_passed_player_may_play_again_in_the_same_trick() -> None:
    state = game([["3S", "8S"], ["5S", "9S"], ["7S", "TS"], ["6S", "JS"]])
    state = play(state, 0, ["3S"], "single", "3")
    state = pass_(state, 1)
    state = play(state, 2, ["7S"], "single", "7")
    state = pass_(state, 3)
    state = play(state, 0, ["8S"], "single", "8")
    state = play(state, 1, ["9S"], "single", "9")  # S1 passed earlier in this trick
    assert ENG.view(state, None)["table"] == 1


def test_gd_29_gd_30_partner_gets_the_lead_only_if_nobody_beats_the_final_play() -> None:
    state = game([["9S"], ["TS", "3C"], ["5S", "5D"], ["4S", "4D"]], pad=0)
    state = play(state, 0, ["9S"], "single", "9")
    state = play(state, 1, ["TS"], "single", "T")
    state = pass_(state, 2)
    state = pass_(state, 3)
    assert ENG.to_act(state) == [1]  # S1's play stood: S1 leads, not S0's partner


def test_gd_34_bombs_give_nothing_extra() -> None:
    state = finish_deal([0, 2, 1, 3], ["5", "5"], "5")
    assert ENG.view(state, None)["levels"] == ["8", "5"]


def test_gd_35_gd_36_places_in_finishing_order() -> None:
    state = finish_deal([2, 1, 3, 0], ["2", "2"], "2")
    assert ENG.view(state, None)["previous_places"] == [2, 1, 3, 0]


def test_gd_40_gd_41_next_deal_at_the_winners_level_and_levels_kept() -> None:
    state = finish_deal([1, 0, 3, 2], ["4", "6"], "4")
    state = start_next_deal(state)
    view = ENG.view(state, None)
    assert view["deal"] == 2 and view["levels"] == ["4", "8"] and view["level"] == "8"


def test_gd_45_no_demotion_after_failing_at_ace() -> None:
    state = finish_deal([1, 0, 2, 3], ["A", "5"], "A")
    assert ENG.view(state, None)["levels"] == ["A", "6"]


def test_gd_47_first_deal_no_tribute_random_leader() -> None:
    leaders = {ENG.to_act(ENG.new_game(4, seed=s))[0] for s in range(16)}
    assert leaders == {0, 1, 2, 3}
    assert ENG.view(ENG.new_game(4, seed=1), None)["phase"] == "play"


def test_gd_48_next_deal_starts_with_the_tribute() -> None:
    state = finish_deal([0, 1, 2, 3], ["2", "2"], "2")
    state = start_next_deal(state)
    view = ENG.view(state, None)
    assert view["phase"] in ("return", "play")
    if view["phase"] == "return":
        assert view["tributes"][0]["from"] == 3 and view["tributes"][0]["to"] == 0


def test_gd_56_double_tribute_receivers_choose_at_the_same_time() -> None:
    hands = [["5S", "6S"], ["AS", "3C"], ["7S", "8S"], ["KS", "4C"]]
    state = game(hands, previous_places=[0, 2, 1, 3], pad=2)
    assert sorted(ENG.to_act(state)) == [0, 2]
    state = ENG.apply(state, 2, {"type": "return", "card": ENG.legal_actions(state, 2)[0]["card"]})[0]
    state = ENG.apply(state, 2, {"type": "confirm"})[0]
    assert ENG.to_act(state) == [0]  # the returns move only when both confirmed
    assert ENG.view(state, None)["phase"] == "return"


def test_gd_57_gd_58_gd_60_views_hide_hands_and_show_counts_at_ten_or_fewer() -> None:
    state = ENG.new_game(4, seed=2)
    for seat in range(4):
        view = ENG.view(state, seat)
        assert len(view["hand"]) == 27
        assert view["counts"] == [27 if s == seat else None for s in range(4)]
        assert not leaked(ENG, state, seat)
    spectator = ENG.view(state, None)
    assert spectator["hand"] is None and spectator["counts"] == [None] * 4
    small = game([["3S", "4S"], ["5S"], ["6S", "7S", "8S"], ["9S"]], pad=0)
    assert ENG.view(small, 0)["counts"] == [2, 1, 3, 1]
    small = play(small, 0, ["3S"], "single", "3")
    public = ENG.view(small, 3)
    assert public["trick"][0]["cards"] == ["3S"] and public["trick"][0]["interp"] == {
        "kind": "single",
        "rank": "3",
    }


def test_gd_59_the_return_card_is_seen_only_by_giver_and_receiver() -> None:
    hands = [["5S", "9S", "JS"], ["6S", "7S", "8S"], ["4S", "TS", "QS"], ["AS", "3C", "4C"]]
    state = game(hands, previous_places=[0, 1, 2, 3], pad=0)
    state = ENG.apply(state, 0, {"type": "return", "card": "5S"})[0]
    for seat in (1, 2, None):
        assert "5S" not in cards_in(ENG.view(state, seat), ENG.card_codes)
    state = ENG.apply(state, 0, {"type": "confirm"})[0]
    assert "5S" in ENG.view(state, 3)["hand"]
    for seat in (1, 2, None):
        assert "5S" not in cards_in(ENG.view(state, seat), ENG.card_codes)


def test_gd_61_hands_are_revealed_when_the_deal_ends() -> None:
    state = game([["9S"], ["KS"], ["3S", "4S"], ["5D", "6D"]], pad=0, first_leader=0)
    state = play(state, 0, ["9S"], "single", "9")
    state = play(state, 1, ["KS"], "single", "K")
    for seat in (2, 3):
        state = pass_(state, seat)
    assert ENG.to_act(state) == [3]  # S1 finished: its partner S3 leads (GD-29)
    state = play(state, 3, ["5D"], "single", "5")
    state = pass_(state, 2)
    state = play(state, 3, ["6D"], "single", "6")
    view = ENG.view(state, 0)
    assert view["phase"] == "between" and view["revealed"]["2"] == ["3S", "4S"]
    assert not leaked(ENG, state, 0)


def test_gd_62_turn_timeout_follower_passes_leader_plays_lowest_non_wild_single() -> None:
    state = game([["2H", "9S", "5D", "RJ"], ["3S"], ["4S"], ["6S"]], pad=0, turn_seconds=30)
    timers = ENG.timers(state)
    assert timers == [{"id": timers[0]["id"], "name": "turn", "seat": 0, "seconds": 30}]
    state, events = ENG.apply(state, 0, {"type": "timeout", "timer": "turn"})
    assert events[0]["cards"] == ["5D"]
    state = ENG.apply(state, 1, {"type": "timeout", "timer": "turn"})[0]
    assert ENG.view(state, None)["trick"][-1] == {"seat": 1, "pass": True}
    assert refused(state, 3, {"type": "timeout", "timer": "turn"}) == "bad_action"  # not S3's clock
    untimed = game([["3S"], ["4S"], ["5S"], ["6S"]], pad=0)
    assert ENG.timers(untimed) == []
    assert refused(untimed, 0, {"type": "timeout", "timer": "turn"}) == "bad_action"


def test_gd_62_wildcard_only_when_nothing_else_is_left() -> None:
    state = game([["2H"], ["3S"], ["4S"], ["6S"]], pad=0, turn_seconds=30)
    _, events = ENG.apply(state, 0, {"type": "timeout", "timer": "turn"})
    assert events[0]["cards"] == ["2H"]


def test_gd_63_return_timeout_confirms_the_pick_or_the_lowest_eligible() -> None:
    hands = [["9S", "5D", "JS"], ["6S", "7S", "8S"], ["4S", "TS", "QS"], ["AS", "3C", "4C"]]
    state = game(hands, previous_places=[0, 1, 2, 3], pad=0, turn_seconds=30)
    assert [t["name"] for t in ENG.timers(state)] == ["return"]
    timed = ENG.apply(state, 0, {"type": "timeout", "timer": "return"})[0]
    assert "5D" in ENG.view(timed, 3)["hand"]
    picked = ENG.apply(state, 0, {"type": "return", "card": "9S"})[0]
    assert ENG.timers(picked)[0]["id"] == ENG.timers(state)[0]["id"]  # the same deadline runs on
    picked = ENG.apply(picked, 0, {"type": "timeout", "timer": "return"})[0]
    assert "9S" in ENG.view(picked, 3)["hand"]


def test_gd_64_eight_seconds_between_deals_table_wide() -> None:
    state = finish_deal([0, 2, 1, 3], ["2", "2"], "2")
    assert ENG.timers(state) == [{"id": "next_deal:0", "name": "next_deal", "seat": None, "seconds": 8}]
    assert sorted(ENG.to_act(state)) == [0, 1, 2, 3]
    for seat in range(4):
        assert ENG.legal_actions(state, seat) == [{"type": "ready"}]
    for seat in range(3):
        state = ENG.apply(state, seat, {"type": "ready"})[0]
        assert ENG.view(state, None)["phase"] == "between"
    state = ENG.apply(state, 3, {"type": "ready"})[0]  # all ready: the next deal starts early
    assert ENG.view(state, None)["deal"] == 2


def test_gd_66_legal_actions_per_phase() -> None:
    state = game([["5S", "5D", "6S"], ["7S", "7D", "8S"], ["9S", "9D", "3C"], ["TS", "TD", "4C"]], pad=0)
    lead = ENG.legal_actions(state, 0)
    assert {"type": "pass"} not in lead and all(a["type"] == "play" for a in lead)
    assert ENG.legal_actions(state, 1) == []
    state = play(state, 0, "5S 5D", "pair", "5")
    follow = ENG.legal_actions(state, 1)
    assert follow[0] == {"type": "pass"}
    assert [a["interp"] for a in follow[1:]] == [{"kind": "pair", "rank": "7"}]
    assert refused(state, 0, follow[1]) == "not_your_turn"
    with pytest.raises(IllegalAction):
        ENG.apply(state, 1, {"type": "play", "cards": ["7S", "7D"], "interp": {"kind": "pair"}})


def test_gd_67_one_action_per_cards_and_interpretation_and_optional_interp() -> None:
    state = game([["9H", "3S", "4D", "5C", "6S"], ["7S"], ["8S"], ["TS"]], level="9", pad=0)
    actions = ENG.legal_actions(state, 0)
    keys = [json.dumps(a, sort_keys=True) for a in actions]
    assert len(keys) == len(set(keys))
    straights = [a["interp"]["rank"] for a in actions if a["interp"]["kind"] == "straight"]
    assert sorted(straights) == ["6", "7"]  # the wildcard as a 2 or as a 7: two actions
    assert refused(state, 0, {"type": "play", "cards": ["9H", "3S", "4D", "5C", "6S"]}) == "illegal_play"
    single = ENG.apply(state, 0, {"type": "play", "cards": ["3S"]})[0]  # one reading: interp optional
    assert ENG.view(single, None)["trick"][0]["interp"] == {"kind": "single", "rank": "3"}
    assert refused(state, 0, play_action(["3S", "3S"], "pair", "3")) == "illegal_play"  # not held twice


def test_dump_load_round_trip_and_purity_through_a_tribute_deal() -> None:
    state = finish_deal([0, 1, 2, 3], ["2", "2"], "2")
    state = start_next_deal(state)
    before = json.dumps(ENG.dump(state), sort_keys=True)
    assert ENG.dump(json_round_trip(ENG, state)) == ENG.dump(state)
    for seat in ENG.to_act(state):
        for action in ENG.legal_actions(state, seat)[:3]:
            ENG.apply(state, seat, action)
    assert json.dumps(ENG.dump(state), sort_keys=True) == before
    assert len(json.dumps(ENG.dump(ENG.new_game(4, seed=1)))) < 20_000


def test_options_deck_blocks_and_later_deals() -> None:
    from cardgames.engines.guandan.cards import FULL_DECK

    deck = list(reversed(FULL_DECK))
    state = ENG.new_game(4, seed=0, options={"deck": deck})
    assert ENG.view(state, 0)["hand"] == sorted(deck[:27], key=list(FULL_DECK).index)[:27] or Counter(
        ENG.view(state, 0)["hand"]
    ) == Counter(deck[:27])
    assert Counter(ENG.view(state, 1)["hand"]) == Counter(deck[27:54])
    with pytest.raises(ValueError):
        ENG.new_game(4, seed=0, options={"deck": ["AS"] * 108})
