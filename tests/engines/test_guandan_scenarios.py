"""Guandan conformance scenarios GD-T01 … GD-T30 (rules: ../shared/rules/guandan.md §14).

Each scenario is one test named after it. Set-ups use the ``hands`` test option
(explicit first-deal hands) and ``previous_places`` (a deal that starts with
tribute); everything else goes through the public contract.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from tests.engines.test_guandan_helpers import (
    ENG,
    beats_wire,
    finish_deal,
    game,
    interp,
    pass_,
    play,
    play_action,
    readings,
    refused,
    start_next_deal,
)


def test_gd_t01_deck_and_deal() -> None:
    state = ENG.new_game(4, seed=11)
    cards = ENG.all_cards(state)
    assert sum(cards.values()) == 108
    for rank in "23456789TJQKA":
        assert sum(n for code, n in cards.items() if code[0] == rank) == 8
        for suit in "SHCD":
            assert cards[rank + suit] == 2
    assert cards["RJ"] == 2 and cards["BJ"] == 2
    for seat in range(4):
        assert len(ENG.view(state, seat)["hand"]) == 27


def test_gd_t02_single_order_at_level_seven() -> None:
    order = ["RJ", "BJ", "7S", "AC", "KS", "QS", "JS", "TS", "9S", "8S", "6S", "5S", "4S", "3S", "2S"]
    for higher, lower in pairwise(order):
        up = {"kind": "single", "rank": _rank(higher)}
        down = {"kind": "single", "rank": _rank(lower)}
        assert beats_wire(up, down, "7") and not beats_wire(down, up, "7")
    assert readings("7H", "7") == readings("7C", "7") == {("single", "7")}
    state = game([["7D", "3S"], ["7C", "AS"], ["KS", "4S"], ["5S", "6S"]], level="7")
    state = play(state, 0, ["7D"], "single", "7")
    assert refused(state, 1, play_action(["7C"], "single", "7")) == "illegal_play"  # equal never beats
    state = game([["KD", "3S"], ["AC", "4S"], ["5S", "6D"], ["8S", "9S"]], level="7")
    state = play(state, 0, ["KD"], "single", "K")
    state = play(state, 1, ["AC"], "single", "A")  # an A on a K is accepted
    assert ENG.view(state, None)["table"] == 1


def _rank(code: str) -> str:
    return {"RJ": "red_joker", "BJ": "black_joker"}.get(code, code[0])


def test_gd_t03_wildcard_alone_keeps_its_level_rank() -> None:
    state = game([["AC", "3S"], ["5H", "4S"], ["BJ", "6D"], ["8S", "9S"]], level="5")
    state = play(state, 0, ["AC"], "single", "A")
    assert refused(state, 1, play_action(["5H"], "single", "black_joker")) == "illegal_play"
    state = play(state, 1, ["5H"], "single", "5")  # the single 5h beats Ac
    state = play(state, 2, ["BJ"], "single", "black_joker")  # and loses to BJ
    assert ENG.view(state, None)["table"] == 2


def test_gd_t04_straights() -> None:
    assert ("straight", "T") in readings("6S 7D 8C 9H TS", "7")
    assert ("straight", "A") in readings("TS JD QC KH AS", "7")
    assert ("straight", "5") in readings("AS 2D 3C 4H 5S", "7")
    assert readings("JS QD KC AH 2S", "7") == set()  # no wrap
    assert readings("3S 4D 5C 6H 7S 8S", "7") == set()  # six cards
    hands = [["AS", "2D", "3C", "4H", "5S", "KD"], ["2S", "3D", "4C", "5H", "6S", "KC"]]
    state = game([hands[0], hands[1], ["8S", "8D"], ["9S", "9D"]], level="7")
    state = play(state, 0, hands[0][:5], "straight", "5")
    state = play(state, 1, hands[1][:5], "straight", "6")  # 2-3-4-5-6 beats A-2-3-4-5
    assert ENG.view(state, None)["table"] == 1


def test_gd_t05_jokers_never_in_sequences_and_wildcard_interpretations() -> None:
    assert readings("BJ 3S 4D 5C 6H") == set()
    assert {("straight", "6"), ("straight", "7")} <= readings("9H 3S 4D 5C 6S", "9")
    state = game(
        [
            ["2S", "3D", "4C", "5S", "6D", "KD"],
            ["9H", "3S", "4D", "5C", "6S", "QC"],
            ["8S", "8D"],
            ["TS", "TD"],
        ],
        level="9",
    )
    state = play(state, 0, ["2S", "3D", "4C", "5S", "6D"], "straight", "6")
    s1 = [a for a in ENG.legal_actions(state, 1) if a["type"] == "play"]
    assert [a["interp"] for a in s1 if sorted(a["cards"]) == sorted(["9H", "3S", "4D", "5C", "6S"])] == [
        interp("straight", "7")
    ]
    assert refused(state, 1, play_action("9H 3S 4D 5C 6S", "straight", "6")) == "illegal_play"
    state = play(state, 1, "9H 3S 4D 5C 6S", "straight", "7")


def test_gd_t06_wildcard_in_a_full_house() -> None:
    assert ("full_house", "8") in readings("8S 8D 8C 5S 2H", "2")
    fh = interp("full_house", "8")
    assert beats_wire(fh, interp("full_house", "7"), "2")
    assert not beats_wire(fh, interp("full_house", "9"), "2")
    state = game(
        [
            ["7S", "7D", "7C", "KS", "KD"],
            ["8S", "8D", "8C", "5S", "2H"],
            ["9S", "9D", "9C", "3S", "3D"],
            ["4S", "4D", "4C", "6S", "6H"],
        ]
    )
    state = play(state, 0, "7S 7D 7C KS KD", "full_house", "7")
    state = play(state, 1, "8S 8D 8C 5S 2H", "full_house", "8")
    state = play(state, 2, "9S 9D 9C 3S 3D", "full_house", "9")
    assert ENG.view(state, None)["table"] == 2


def test_gd_t07_identical_jokers_as_the_full_house_pair() -> None:
    assert readings("7S 7D 7C RJ RJ") == {("full_house", "7")}
    assert readings("7S 7D 7C BJ BJ") == {("full_house", "7")}
    assert readings("7S 7D 7C RJ BJ") == set()
    state = game(
        [
            ["7S", "7D", "7C", "3S", "3D"],
            ["7H", "7S", "7D", "RJ", "RJ"],
            ["4S", "4D", "4C", "4H", "6S"],
            ["5S", "5D", "5C", "5H", "6D"],
        ]
    )
    state = play(state, 0, "7S 7D 7C 3S 3D", "full_house", "7")
    assert refused(state, 1, play_action("7H 7S 7D RJ RJ", "full_house", "7")) == "illegal_play"


def test_gd_t08_pairs() -> None:
    assert readings("RJ BJ") == set()
    for high, low in [("red_joker", "black_joker"), ("black_joker", "3"), ("3", "A")]:
        assert beats_wire(interp("pair", high), interp("pair", low), "3")
    assert readings("3H BJ", "3") == set()
    assert readings("3H 3H", "3") == {("pair", "3")}
    state = game([["AS", "AD", "4S"], ["3H", "3H", "5S"], ["6S", "6D", "9S"], ["8S", "8D", "9D"]], level="3")
    state = play(state, 0, "AS AD", "pair", "A")
    state = play(state, 1, "3H 3H", "pair", "3")


def test_gd_t09_full_houses_compare_in_level_order() -> None:
    assert beats_wire(interp("full_house", "5"), interp("full_house", "A"), "5")
    state = game(
        [
            ["AS", "AD", "AC", "KS", "KD"],
            ["5S", "5D", "5C", "2S", "2D"],
            ["6S", "6D", "7S", "9S", "JS"],
            ["8S", "8D", "7C", "9D", "JD"],
        ],
        level="5",
    )
    state = play(state, 0, "AS AD AC KS KD", "full_house", "A")
    state = play(state, 1, "5S 5D 5C 2S 2D", "full_house", "5")


def test_gd_t10_tubes_and_plates() -> None:
    assert readings("AS AD 2S 2D 3S 3D", "7") == {("tube", "3")}
    assert readings("QS QD KS KD AS AD", "7") == {("tube", "A")}
    assert readings("3S 3D 3C 4S 4D 4C", "7") == {("plate", "4")}
    assert readings("AS AD AC 2S 2D 2C", "7") == {("plate", "2")}
    assert readings("KS KD AS AD 2S 2D", "7") == set()
    assert readings("3S 3D 4S 4D 5S 5D 6S 6D", "7") == set()
    assert readings("3S 3D 3C 4S 4D 4C 5S 5D 5C", "7") == set()
    assert readings("5S 5D 6S 6D", "7") == set()


def test_gd_t11_excluded_shapes() -> None:
    assert readings("8S 8D 8C 4S") == set()
    assert readings("3S 3D 3C 4S 4D 4C 7S 8S") == set()
    state = game(
        [
            ["8S", "8D", "8C", "4S"],
            ["5S", "5D", "7S", "JS"],
            ["6S", "6D", "7D", "JD"],
            ["9S", "9D", "KS", "KD"],
        ]
    )
    assert refused(state, 0, play_action("8S 8D 8C 4S", "triple", "8")) == "illegal_play"


def test_gd_t12_bomb_ladder() -> None:
    hands = [
        ["9S", "9D", "9C", "9S", "QS", "QS", "QH", "QH", "QD", "QD", "QC"],
        ["3S", "3S", "3H", "3D", "3C", "JS", "JS", "JH", "JH", "JD", "JD", "JC", "JC"],
        ["4S", "5S", "6S", "7S", "8S", "RJ", "RJ", "BJ", "BJ", "6D"],
        ["KS", "KS", "KH", "KH", "KD", "KD", "5D"],
    ]
    state = game(hands, level="2")
    state = play(state, 0, "9S 9D 9C 9S", "bomb", "9", size=4)
    state = play(state, 1, "3S 3S 3H 3D 3C", "bomb", "3", size=5)
    state = play(state, 2, "4S 5S 6S 7S 8S", "straight_flush", "8", suit="S")
    state = play(state, 3, "KS KS KH KH KD KD", "bomb", "K", size=6)
    state = play(state, 0, "QS QS QH QH QD QD QC", "bomb", "Q", size=7)
    state = play(state, 1, "JS JS JH JH JD JD JC JC", "bomb", "J", size=8)
    state = play(state, 2, "RJ RJ BJ BJ", "joker_bomb")
    assert ENG.view(state, None)["table"] == 2
    # a 5-bomb on the straight flush is refused
    state = game(
        [
            ["4S", "5S", "6S", "7S", "8S", "2D"],
            ["3S", "3S", "3H", "3D", "3C", "2C"],
            ["6D", "6C", "7D", "9D", "JD", "QD"],
            ["9H", "9C", "TD", "TC", "KD", "KC"],
        ]
    )
    state = play(state, 0, "4S 5S 6S 7S 8S", "straight_flush", "8", suit="S")
    assert refused(state, 1, play_action("3S 3S 3H 3D 3C", "bomb", "3", size=5)) == "illegal_play"


def test_gd_t13_same_size_bombs_in_level_order() -> None:
    ranks = ["9", "A", "K", "Q", "J", "T", "8", "7", "6", "5", "4", "3", "2"]
    for high, low in pairwise(ranks):
        assert beats_wire(interp("bomb", high, size=4), interp("bomb", low, size=4), "9")
    assert beats_wire(interp("bomb", "2", size=5), interp("bomb", "9", size=4), "9")
    assert not beats_wire(interp("bomb", "9", size=4), interp("bomb", "2", size=5), "9")


def test_gd_t14_straight_flushes() -> None:
    sf = lambda rank, suit: interp("straight_flush", rank, suit=suit)  # noqa: E731
    assert beats_wire(sf("A", "H"), sf("K", "S"), "2")
    assert all(beats_wire(sf(r, "S"), sf("5", "C"), "2") for r in "6789TJQKA")
    assert not beats_wire(sf("9", "S"), sf("9", "D"), "2")
    assert beats_wire(sf("9", "S"), interp("bomb", "9", size=5), "2")
    assert not beats_wire(sf("9", "S"), interp("bomb", "2", size=6), "2")
    assert ("straight_flush", "5") in readings("AC 2C 3C 4C 5C", "9")


def test_gd_t15_wildcard_bombs_up_to_ten_cards() -> None:
    ten = "8S 8S 8H 8H 8D 8D 8C 8C 4H 4H"
    assert readings(ten, "4") == {("bomb", "8")}
    ten_bomb = interp("bomb", "8", size=10)
    for n in range(4, 10):
        assert beats_wire(ten_bomb, interp("bomb", "A", size=n), "4")
    assert beats_wire(ten_bomb, interp("straight_flush", "A", suit="S"), "4")
    assert beats_wire(interp("joker_bomb"), ten_bomb, "4")
    assert readings("RJ RJ BJ 4H", "4") == set()


def test_gd_t16_a_bomb_beats_any_ordinary_combination() -> None:
    bomb = interp("bomb", "2", size=4)
    assert beats_wire(bomb, interp("straight", "A"), "5")
    assert beats_wire(bomb, interp("pair", "red_joker"), "5")
    state = game(
        [["RJ", "RJ", "3S"], ["2S", "2D", "2C", "2S"], ["6S", "6D", "7S"], ["8S", "8D", "7D"]], level="5"
    )
    state = play(state, 0, "RJ RJ", "pair", "red_joker")
    state = play(state, 1, "2S 2D 2C 2S", "bomb", "2", size=4)


def test_gd_t17_lead_and_pass() -> None:
    state = game([["5S", "3S"], ["AS", "4S"], ["6S", "6D"], ["8S", "8D"]])
    assert refused(state, 0, {"type": "pass"}) == "illegal_play"
    assert {"type": "pass"} not in ENG.legal_actions(state, 0)
    state = play(state, 0, ["5S"], "single", "5")
    assert {"type": "pass"} in ENG.legal_actions(state, 1)
    state = pass_(state, 1)  # S1 could beat with AS but may pass
    assert ENG.to_act(state) == [2]


def test_gd_t18_end_of_a_trick() -> None:
    state = game([["5S", "5D", "3S"], ["4S", "4D", "3D"], ["7S", "7D", "3C"], ["6S", "6D", "9C"]])
    state = play(state, 0, "5S 5D", "pair", "5")
    state = pass_(state, 1)
    state = play(state, 2, "7S 7D", "pair", "7")
    for seat in (3, 0, 1):
        state = pass_(state, seat)
    assert ENG.to_act(state) == [2]
    assert ENG.view(state, 2)["leading"] is True


def test_gd_t19_jiefeng_partner_leads_after_the_last_play_finishes() -> None:
    hands = [
        ["9S", "9D", "3S", "3D"],
        ["4S", "4D", "TS", "TD"],
        ["5S", "5D", "6C", "6D"],
        ["7C", "8C", "JC", "QC"],
    ]
    state = game(hands, pad=0)
    state = play(state, 0, "3S 3D", "pair", "3")
    for seat in (1, 2, 3):
        state = pass_(state, seat)
    state = play(state, 0, "9S 9D", "pair", "9")  # S0's last cards: 1st
    assert ENG.view(state, None)["finished"] == [0]
    beaten = state
    for seat in (1, 2, 3):
        state = pass_(state, seat)
    assert ENG.to_act(state) == [2]  # S0's partner leads
    # if S1 beats the 99 instead, play goes on and S0 is skipped
    state = play(beaten, 1, "TS TD", "pair", "T")
    state = pass_(state, 2)
    state = pass_(state, 3)
    assert ENG.to_act(state) == [1]


def test_gd_t20_one_two_finish_the_deal_continues() -> None:
    state = game([["9S"], ["3S", "4D"], ["KS", "KD"], ["5C", "6H"]], pad=0)
    state = play(state, 0, ["9S"], "single", "9")  # S0 1st
    for seat in (1, 2, 3):
        state = pass_(state, seat)
    assert ENG.to_act(state) == [2]
    state = play(state, 2, "KS KD", "pair", "K")  # S2 2nd: the deal goes on
    assert ENG.view(state, None)["phase"] == "play"
    state = pass_(state, 3)
    state = pass_(state, 1)
    assert ENG.to_act(state) == [3]  # the next active player after S2
    state = play(state, 3, ["5C"], "single", "5")
    state = pass_(state, 1)
    state = play(state, 3, ["6H"], "single", "6")  # S3 3rd: S1 is last, the deal ends
    assert ENG.view(state, None)["previous_places"] == [0, 2, 3, 1]


def test_gd_t21_level_advance() -> None:
    for order, new in [([0, 2, 1, 3], "8"), ([0, 1, 2, 3], "7"), ([0, 1, 3, 2], "6")]:
        state = finish_deal(order, ["5", "9"], "5")
        view = ENG.view(state, None)
        assert view["levels"] == [new, "9"] and view["level"] == new


def test_gd_t22_cap_at_ace() -> None:
    state = finish_deal([1, 3, 0, 2], ["9", "Q"], "Q")
    view = ENG.view(state, None)
    assert view["levels"] == ["9", "A"] and view["level"] == "A"
    assert not ENG.is_over(state)


def test_gd_t23_winning_at_ace() -> None:
    state = finish_deal([0, 1, 2, 3], ["A", "7"], "A")
    assert ENG.is_over(state)
    result = ENG.result(state)
    assert result["winners"] == [0, 2] and result["placements"] == [1, 3, 1, 3]
    assert result["scores"] == [14, 7, 14, 7]
    state = finish_deal([0, 1, 3, 2], ["A", "7"], "A")
    assert not ENG.is_over(state)
    assert ENG.view(state, None)["levels"] == ["A", "7"] and ENG.view(state, None)["level"] == "A"


def test_gd_t24_at_ace_playing_the_other_teams_level() -> None:
    state = finish_deal([0, 2, 1, 3], ["A", "9"], "9")
    assert not ENG.is_over(state)
    view = ENG.view(state, None)
    assert view["levels"] == ["A", "9"] and view["level"] == "A"


def _hands_with(seat_cards: dict[int, list[str]], size: int = 6) -> list[list[str]]:
    """Hands holding the given cards, topped up with low cards (at most two copies of a code)."""
    used = Counter(c for cards in seat_cards.values() for c in cards)
    filler = [
        c for c in ["3S", "3D", "4S", "4D", "5C", "5D", "8S", "8D", "9C", "9D", "TS", "TD"] for _ in range(2)
    ]
    pool = iter([c for c in filler if used.update([c]) or used[c] <= 2])
    out = []
    for seat in range(4):
        cards = list(seat_cards.get(seat, []))
        while len(cards) < size:
            cards.append(next(pool))
        out.append(cards)
    return out


def test_gd_t25_single_tribute_and_its_lead() -> None:
    hands = _hands_with({1: ["5S", "6H", "QS", "KS"], 2: ["BJ", "6S", "6H", "AS"]})
    state = game(hands, level="6", levels=["4", "6"], previous_places=[1, 0, 3, 2], pad=0)
    view = ENG.view(state, 0)
    assert view["phase"] == "return" and view["tributes"][0]["from"] == 2 and view["tributes"][0]["to"] == 1
    assert view["tributes"][0]["card"] == "BJ"  # automatic, shown face up
    assert "BJ" in ENG.view(state, 1)["hand"] and "BJ" not in ENG.view(state, 2)["hand"]
    legal = ENG.legal_actions(state, 1)
    returns = {a["card"] for a in legal if a["type"] == "return"}
    assert "6H" not in returns and "QS" not in returns and "BJ" not in returns and "5S" in returns
    assert refused(state, 1, {"type": "return", "card": "QS"}) == "illegal_return"
    assert refused(state, 1, {"type": "confirm"}) == "illegal_return"  # the choice needs confirming
    state = ENG.apply(state, 1, {"type": "return", "card": "5S"})[0]
    assert ENG.to_act(state) == [1]
    state = ENG.apply(state, 1, {"type": "confirm"})[0]
    assert ENG.to_act(state) == [2]
    assert "5S" in ENG.view(state, 2)["hand"]


def test_gd_t26_the_tribute_skips_the_heart_wildcard() -> None:
    hands = _hands_with({3: ["2H", "2S", "AC"]})
    state = game(hands, level="2", previous_places=[0, 1, 2, 3], pad=0)
    assert ENG.view(state, 1)["tributes"][0]["card"] == "2S"


def test_gd_t27_double_tribute() -> None:
    hands = _hands_with({1: ["AS", "3C"], 3: ["BJ", "5C"]})
    state = game(hands, level="6", levels=["6", "4"], previous_places=[0, 2, 1, 3], pad=0)
    tributes = {(t["from"], t["to"]): t.get("card") for t in ENG.view(state, None)["tributes"]}
    assert tributes == {(3, 0): "BJ", (1, 2): "AS"}
    assert sorted(ENG.to_act(state)) == [0, 2]  # both receivers choose at the same time (GD-56)
    state = _return(state, 0)
    state = _return(state, 2)
    assert ENG.to_act(state) == [3]


def _return(state: object, seat: int) -> object:
    card = next(a for a in ENG.legal_actions(state, seat) if a["type"] == "return")
    state = ENG.apply(state, seat, card)[0]
    return ENG.apply(state, seat, {"type": "confirm"})[0]


def test_gd_t28_equal_double_tribute() -> None:
    hands = _hands_with({1: ["KS", "3C"], 3: ["KD", "5C"]})
    state = game(hands, level="6", levels=["6", "4"], previous_places=[0, 2, 1, 3], pad=0)
    tributes = {(t["from"], t["to"]): t.get("card") for t in ENG.view(state, None)["tributes"]}
    assert tributes == {(1, 0): "KS", (3, 2): "KD"}
    state = _return(state, 2)
    state = _return(state, 0)
    assert ENG.to_act(state) == [1]


def test_gd_t29_anti_tribute() -> None:
    single = game(_hands_with({2: ["RJ", "RJ"]}), previous_places=[1, 0, 3, 2], pad=0)
    view = ENG.view(single, None)
    assert view["phase"] == "play" and view["tributes"] == [] and ENG.to_act(single) == [1]
    assert view["anti_tribute"] == {"red_joker_holders": [2]}
    double = game(_hands_with({1: ["RJ"], 3: ["RJ"]}), previous_places=[0, 2, 1, 3], pad=0)
    assert ENG.to_act(double) == [0] and ENG.view(double, None)["anti_tribute"] == {
        "red_joker_holders": [1, 3]
    }
    one = game(_hands_with({1: ["RJ"], 3: ["BJ"]}), previous_places=[0, 2, 1, 3], pad=0)
    assert ENG.view(one, None)["phase"] == "return"


def test_gd_t30_return_fallback_one_four_tribute_and_restart() -> None:
    hands = _hands_with({0: ["JS", "QS", "KS", "AS", "2H", "2H"], 3: ["AD", "3C"]})
    state = game(hands, level="2", previous_places=[0, 1, 2, 3], pad=0)
    returns = {a["card"] for a in ENG.legal_actions(state, 0) if a["type"] == "return"}
    assert returns == {"JS"}  # no card 2-10 but wildcards: the lowest power, a J
    state = ENG.apply(state, 0, {"type": "return", "card": "JS"})[0]
    state = ENG.apply(state, 0, {"type": "confirm"})[0]
    assert ENG.to_act(state) == [3]
    # 1-4 win for team A: S2, last and S0's partner, pays S0, gets S0's return and leads
    state = game(_hands_with({2: ["AC", "4C"]}), previous_places=[0, 1, 3, 2], pad=0)
    assert [(t["from"], t["to"]) for t in ENG.view(state, None)["tributes"]] == [(2, 0)]
    state = _return(state, 0)
    assert ENG.to_act(state) == [2]
    # RESTART_MATCH is a table action: a new match, both at 2, no tribute, random leader (GD-46)
    leaders = set()
    for seed in range(12):
        fresh = ENG.new_game(4, seed=seed)
        view = ENG.view(fresh, None)
        assert view["levels"] == ["2", "2"] and view["phase"] == "play" and view["tributes"] == []
        leaders.add(ENG.to_act(fresh)[0])
    assert leaders == {0, 1, 2, 3}
    assert Counter(ENG.all_cards(fresh).values()) == Counter({2: 54})


def test_scenarios_helpers_next_deal_starts_after_the_pause() -> None:
    state = finish_deal([0, 2, 1, 3], ["5", "9"], "5")
    state = start_next_deal(state)
    assert ENG.view(state, None)["deal"] == 2
