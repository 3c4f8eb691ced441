"""One Card engine: the scenarios OC-T01 … OC-T28 and every rule of ../shared/rules/one-card.md.

Set-ups use the engine's own options (``deck`` dealt in blocks, ``hand_size`` and
``first_player``, see the engine docstring) or, for positions that take many moves to
reach, ``load`` of a hand-written dump. Either way every move goes through ``apply``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.one_card import OneCardEngine
from cardgames.engines.one_card.cards import DECK, ORDER
from tests.engines.harness import cards_in, leaked, rejects

ENG = get_engine("one_card")
NORMAL = set("2345689T")


# -- set-up helpers ------------------------------------------------------------
def deal(hands: list[list[str]], starter: str, stock: list[str] = (), first: int = 0, **opts: Any) -> Any:
    """A game dealt from a fixed deck: equal hands in seat order, the starter, then the stock."""
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    deck = [c for h in hands for c in h] + [starter, *stock]
    options = {"deck": deck, "hand_size": size, "first_player": first, **opts}
    return ENG.new_game(len(hands), seed=1, options=options)


def table(
    hands: list[list[str]],
    top: str,
    *,
    suit: str | None = None,
    stock: list[str] = (),
    discard: list[str] = (),
    turn: int = 0,
    attack: int = 0,
    direction: int = 1,
    called: list[int] = (),
    windows: list[tuple[int, int]] = (),
    turn_seconds: int | None = 30,
) -> Any:
    """Any position, through ``load`` (the discard is listed bottom first, without the top)."""
    n = len(hands)
    return ENG.load(
        {
            "n": n,
            "seed": 5,
            "hands": [sorted(h, key=ORDER.__getitem__) for h in hands],
            "stock": list(stock),
            "discard": list(discard),
            "top": top,
            "suit": suit or top[1],
            "attack": attack,
            "direction": direction,
            "turn": turn,
            "turn_no": 1,
            "called": [i in called for i in range(n)],
            "windows": [list(w) for w in windows],
            "window_no": max([k for _, k in windows], default=0),
            "rng": 1,
            "idle": 0,
            "over": False,
            "turn_seconds": turn_seconds,
            "last": [],
        }
    )


def play(card: str, suit: str | None = None) -> dict[str, Any]:
    return {"type": "play", "card": card} if suit is None else {"type": "play", "card": card, "suit": suit}


DRAW = {"type": "draw"}
CALL = {"type": "call_one_card"}


def catch(target: int) -> dict[str, Any]:
    return {"type": "catch", "target": target}


def timeout(name: str) -> dict[str, Any]:
    return {"type": "timeout", "timer": name}


def go(state: Any, seat: int, action: dict[str, Any]) -> Any:
    return ENG.apply(state, seat, action)[0]


def plays(state: Any, seat: int) -> list[dict[str, Any]]:
    return [a for a in ENG.legal_actions(state, seat) if a["type"] in ("play", "draw")]


def hand(state: Any, seat: int) -> list[str]:
    return ENG.view(state, seat)["hand"]


def refused(state: Any, seat: Any, action: Any) -> str:
    return rejects(ENG, state, seat, action).code


# -- conformance scenarios OC-T01 … OC-T28 ---------------------------------------------
def test_oc_t01_starter_is_a_normal_number_card_and_52_cards_are_dealt() -> None:
    """OC-T01 (OC-2, OC-6, OC-7): any seed: normal starter, 7 cards each, 52 distinct cards."""
    for seed in range(60):
        for n in (2, 3, 4):
            state = ENG.new_game(n, seed=seed)
            view = ENG.view(state, None)
            assert view["top"][0] in NORMAL
            assert view["counts"] == [7] * n
            assert view["stock"] == 52 - 7 * n - 1
            cards = ENG.all_cards(state)
            assert sorted(cards) == sorted(DECK) and set(cards.values()) == {1}


def test_oc_t02_basic_matching_and_no_draw_while_a_card_matches() -> None:
    """OC-T02 (OC-11, OC-17): on 5♥, 9♥ and 5♣ are legal; K♠ and DRAW are not."""
    state = deal([["9H", "5C", "KS"], ["2D", "3D", "4D"]], "5H")
    assert plays(state, 0) == [play("9H"), play("5C")]
    assert refused(state, 0, play("KS")) == "illegal_card"
    assert refused(state, 0, DRAW) == "has_playable_card"


def test_oc_t03_a_drawn_card_waits_for_the_next_turn() -> None:
    """OC-T03 (OC-18): P0 draws 5♦ on 5♥; the turn passes at once; 5♦ is playable next turn."""
    state = deal([["KS", "3C"], ["5S", "3D"]], "5H", stock=["5D", "6S", "7C"])
    assert plays(state, 0) == [DRAW]
    state = go(state, 0, DRAW)
    assert hand(state, 0) == ["KS", "5D", "3C"]
    assert ENG.view(state, None)["turn"] == 1
    assert refused(state, 0, play("5D")) == "not_your_turn"
    assert refused(state, 0, DRAW) == "not_your_turn"
    state = go(state, 1, play("5S"))
    assert play("5D") in plays(state, 0)


def test_oc_t04_a_seven_is_not_wild() -> None:
    """OC-T04 (OC-12): on 9♣, 7♥ cannot be played; only DRAW is legal."""
    state = deal([["7H", "2D"], ["3S", "4S"]], "9C")
    assert plays(state, 0) == [DRAW]
    assert refused(state, 0, play("7H", "C")) == "illegal_card"


def test_oc_t05_declared_suit_and_rank_seven_match() -> None:
    """OC-T05 (OC-13, OC-14): after 7♣ declaring ♥, 8♥ and 7♠ are legal, 3♣ is not."""
    state = deal([["7C", "2D", "4D"], ["3C", "8H", "7S"]], "9C")
    state = go(state, 0, play("7C", "H"))
    assert ENG.view(state, None)["suit"] == "H"
    legal = plays(state, 1)
    assert play("8H") in legal
    assert {a.get("suit") for a in legal if a["card"] == "7S"} == {"S", "H", "D", "C"}
    assert all(a["card"] != "3C" for a in legal)
    assert refused(state, 1, play("3C")) == "illegal_card"


def test_oc_t06_a_seven_on_a_seven_declares_again() -> None:
    """OC-T06 (OC-13, OC-14, OC-22): on 7♦ with ♠ declared, 7♥ declaring ♣ makes ♣ active."""
    state = table([["2H", "3H"], ["7H", "4D", "5D"]], "7D", suit="S", turn=1)
    state = go(state, 1, play("7H", "C"))
    view = ENG.view(state, None)
    assert (view["top"], view["suit"]) == ("7H", "C")


def test_oc_t07_king_attack_only_answered_by_king() -> None:
    """OC-T07 (OC-15, OC-25, OC-28): after K♠, P1 with {A♠, 2♠, K♦} may only play K♦."""
    state = deal([["KS", "9D", "9H"], ["AS", "2S", "KD"], ["AH", "5C", "6C"], ["5D", "KH", "6H"]], "3S")
    state = go(state, 0, play("KS"))
    assert ENG.view(state, None)["attack"] == {"rank": "K", "amount": 2}
    assert plays(state, 1) == [play("KD")]
    assert refused(state, 1, play("AS")) == "illegal_card"
    assert refused(state, 1, play("2S")) == "illegal_card"
    assert refused(state, 1, DRAW) == "has_playable_card"


def test_oc_t08_king_stacking_then_resolution_and_a_new_attack() -> None:
    """OC-T08 (OC-27, OC-29): K♦ makes 4; P2 draws 4, the attack ends; P3's K♥ starts a new +2.

    The scenario gives 5♦ to both P2 and P3; one deck holds one 5♦, so P2 holds 5♣ here.
    """
    state = deal(
        [["KS", "9D", "9H"], ["AS", "2S", "KD"], ["AH", "5C", "6C"], ["5D", "KH", "6H"]],
        "3S",
        stock=["2C", "3C", "4C", "8C", "8D"],
    )
    state = go(go(state, 0, play("KS")), 1, play("KD"))
    assert ENG.view(state, None)["attack"] == {"rank": "K", "amount": 4}
    assert plays(state, 2) == [DRAW]
    state = go(state, 2, DRAW)
    view = ENG.view(state, None)
    assert view["counts"][2] == 7 and view["attack"] is None and view["turn"] == 3
    assert plays(state, 3) == [play("KH"), play("5D")]  # hand order: ♥ before ♦
    state = go(state, 3, play("KH"))
    view = ENG.view(state, None)
    assert view["attack"] == {"rank": "K", "amount": 2} and view["turn"] == 0


def test_oc_t09_ace_stacking_three_six_nine() -> None:
    """OC-T09 (OC-26, OC-27, OC-19): A♣, A♦, A♥ make 9; P3 without an A draws exactly 9."""
    state = deal(
        [["AC", "2S", "3S"], ["AD", "4S", "5S"], ["AH", "6S", "8S"], ["9S", "TS", "QS"]],
        "5C",
        stock=[c for c in DECK if c[1] in "HD" and c[0] != "A"][:12],
    )
    for seat, card, amount in ((0, "AC", 3), (1, "AD", 6), (2, "AH", 9)):
        state = go(state, seat, play(card))
        assert ENG.view(state, None)["attack"] == {"rank": "A", "amount": amount}
    assert plays(state, 3) == [DRAW]
    state, events = ENG.apply(state, 3, DRAW)
    assert ENG.view(state, None)["counts"][3] == 12
    assert [e["count"] for e in events if e["type"] == "draw"] == [9]


def test_oc_t10_an_ace_attack_is_not_blocked_by_kings() -> None:
    """OC-T10 (OC-15, OC-30): facing A 3 with {K♣, K♦}, the only action is DRAW, which takes 3."""
    state = table([["2H", "3H"], ["KC", "KD"]], "AC", attack=3, turn=1, stock=["4S", "5S", "6S", "8S"])
    assert plays(state, 1) == [DRAW]
    assert refused(state, 1, play("KC")) == "illegal_card"
    state = go(state, 1, DRAW)
    assert ENG.view(state, None)["counts"][1] == 5


def test_oc_t11_a_king_attack_is_not_blocked_by_an_ace() -> None:
    """OC-T11 (OC-15): facing K 2 on K♠, A♠ is refused though the suit matches; DRAW takes 2."""
    state = table([["2H", "3H"], ["AS"]], "KS", attack=2, turn=1, stock=["4S", "5S", "6S"])
    assert refused(state, 1, play("AS")) == "illegal_card"
    state = go(state, 1, DRAW)
    assert ENG.view(state, None)["counts"][1] == 3


def test_oc_t12_jack_with_two_players_gives_another_turn() -> None:
    """OC-T12 (OC-23, OC-62): P0's J♣ gives P0 the turn again, to match J♣ or draw."""
    state = deal([["JC", "4C", "5H"], ["2D", "3D", "4D"]], "9C", stock=["8S"])
    state = go(state, 0, play("JC"))
    assert ENG.to_act(state) == [0] and ENG.view(state, None)["turn"] == 0
    assert plays(state, 0) == [play("4C")]
    state = deal([["JC", "6H", "5H"], ["2D", "3D", "4D"]], "9C", stock=["8S"])
    state = go(state, 0, play("JC"))
    assert plays(state, 0) == [DRAW]


def test_oc_t13_jack_with_four_players_skips_one_in_either_direction() -> None:
    """OC-T13 (OC-23, OC-24): J♦ from P0 goes to P2; reversed by a Q, a J from P2 goes to P0."""
    state = deal(
        [
            ["JD", "6D", "2C", "2S"],
            ["5D", "3C", "4C", "3S"],
            ["QD", "JS", "5C", "4S"],
            ["8D", "8S", "6C", "5S"],
        ],
        "3D",
    )
    state = go(state, 0, play("JD"))
    assert ENG.view(state, None)["turn"] == 2
    state = go(state, 2, play("QD"))
    assert ENG.view(state, None)["direction"] == -1 and ENG.view(state, None)["turn"] == 1
    state = go(go(go(state, 1, play("5D")), 0, play("6D")), 3, play("8D"))
    assert ENG.view(state, None)["turn"] == 2  # still reversed: P3 hands over to P2
    # reversed, a J from P2 skips P1 and reaches P0
    state = table([["2H", "3H"], ["4H", "5H"], ["JS", "6C", "7C"], ["2C", "3C"]], "8S", turn=2, direction=-1)
    state = go(state, 2, play("JS"))
    assert ENG.view(state, None)["turn"] == 0


def test_oc_t14_queen_with_two_players_changes_nothing() -> None:
    """OC-T14 (OC-24): P0's Q♥ hands the turn to P1 as any card would."""
    state = deal([["QH", "2C", "3C"], ["4H", "5D", "6D"]], "9H")
    state = go(state, 0, play("QH"))
    view = ENG.view(state, None)
    assert view["turn"] == 1 and view["direction"] == 1


def test_oc_t15_queen_with_four_players_reverses() -> None:
    """OC-T15 (OC-24): P1's Q♦ makes the order P0, P3, P2."""
    state = deal(
        [["2D", "3S", "4S"], ["QD", "5S", "6S"], ["4D", "8S", "9S"], ["3D", "TS", "JS"]], "5D", first=1
    )
    state = go(state, 1, play("QD"))
    order = []
    for card in ("2D", "3D", "4D"):
        seat = ENG.view(state, None)["turn"]
        order.append(seat)
        state = go(state, seat, play(card))
    assert order == [0, 3, 2]


def test_oc_t16_finishing_on_an_attack_card_wins_at_once() -> None:
    """OC-T16 (OC-31, OC-32): P1 plays its called last K♥ on 4♥: game over, P2 draws nothing."""
    state = table([["2C", "3C"], ["KH"], ["5S", "6S"], ["8S", "9S"]], "4H", turn=1, called=[1])
    state = go(state, 1, play("KH"))
    assert ENG.is_over(state)
    assert ENG.view(state, None)["counts"] == [2, 0, 2, 2]
    assert ENG.view(state, None)["attack"] is None
    assert ENG.to_act(state) == [] and ENG.result(state)["winners"] == [1]
    assert refused(state, 2, DRAW) == "game_over"


def test_oc_t17_finishing_on_a_seven_needs_no_suit() -> None:
    """OC-T17 (OC-32): P1's last 7♣ on 7♦ is played without a suit and ends the game."""
    state = table([["2C", "3C"], ["7C"], ["5S", "6S"]], "7D", turn=1, called=[1])
    assert plays(state, 1) == [play("7C")]
    assert refused(state, 1, play("7C", "H")) == "bad_action"
    state = go(state, 1, play("7C"))
    assert ENG.is_over(state) and ENG.result(state)["winners"] == [1]


def _p2_with_two_cards() -> Any:
    """Four players, P2 to play with {4♥, 9♣} on a ♥ top."""
    return table(
        [["2S", "3S", "4S"], ["5S", "6S", "8S"], ["4H", "9C"], ["9S", "TS", "JS"]],
        "5H",
        turn=2,
        stock=["2D", "3D", "4D", "5D", "6D"],
    )


def test_oc_t18_a_pre_call_at_two_cards_leaves_no_window() -> None:
    """OC-T18 (OC-36, OC-37, OC-43): P2 calls, plays 4♥: no window; P3's catch is refused."""
    state = _p2_with_two_cards()
    assert CALL in ENG.legal_actions(state, 2)
    state = go(state, 2, CALL)
    assert ENG.view(state, None)["called"][2] is True
    state = go(state, 2, play("4H"))
    assert ENG.view(state, None)["windows"] == []
    assert refused(state, 3, catch(2)) == "no_window"


def test_oc_t19_a_forgotten_call_is_caught() -> None:
    """OC-T19 (OC-35, OC-38, OC-39, OC-41): P0 catches P2: 2 penalty cards, no window, late call refused."""
    state = _p2_with_two_cards()
    state = go(state, 2, play("4H"))
    view = ENG.view(state, 0)
    assert view["windows"] == [{"seat": 2, "id": "catch:1"}]
    assert {"id": "catch:1", "name": "catch", "seat": 2, "seconds": 5} in ENG.timers(state)
    assert catch(2) in ENG.legal_actions(state, 0)
    state = go(state, 0, catch(2))
    assert ENG.view(state, None)["counts"][2] == 3
    assert ENG.view(state, None)["windows"] == [] and ENG.view(state, None)["turn"] == 3
    assert refused(state, 2, CALL) == "no_window"
    assert refused(state, 1, catch(2)) == "no_window"


def test_oc_t20_a_call_inside_the_window_makes_the_player_safe() -> None:
    """OC-T20 (OC-40, OC-41): P2 calls inside its window; a later catch is refused."""
    state = go(_p2_with_two_cards(), 2, play("4H"))
    assert CALL in ENG.legal_actions(state, 2)
    state = go(state, 2, CALL)
    assert ENG.view(state, None)["windows"] == []
    assert refused(state, 0, catch(2)) == "no_window"
    assert ENG.view(state, None)["counts"][2] == 1


def test_oc_t21_an_expired_window_leaves_the_player_safe() -> None:
    """OC-T21 (OC-39, OC-41): the catch timer lapses: no penalty, a later catch is refused."""
    state = go(_p2_with_two_cards(), 2, play("4H"))
    state = go(state, 2, timeout("catch"))
    assert ENG.view(state, None)["counts"][2] == 1 and ENG.view(state, None)["windows"] == []
    assert refused(state, 3, catch(2)) == "no_window"
    assert [t["name"] for t in ENG.timers(state)] == ["turn"]


def test_oc_t22_a_pre_call_is_cleared_when_the_hand_grows() -> None:
    """OC-T22 (OC-37): P2 pre-calls, draws to 3 (flag cleared), later plays down to 1 uncalled: window."""
    state = table(
        [["3H", "9S", "4S", "2C"], ["5H", "9D", "5S", "3C"], ["4C", "9C"]], "8H", turn=2, stock=["9H", "2S"]
    )
    state = go(state, 2, CALL)
    assert ENG.view(state, None)["called"][2] is True
    state = go(state, 2, DRAW)  # neither a heart nor an 8
    assert ENG.view(state, None)["called"][2] is False and hand(state, 2) == ["9H", "4C", "9C"]
    state = go(go(state, 0, play("3H")), 1, play("5H"))
    state = go(state, 2, play("9H"))
    assert ENG.view(state, None)["windows"] == []  # 2 cards left: no window yet
    state = go(go(state, 0, play("9S")), 1, play("9D"))
    state = go(state, 2, play("9C"))
    assert ENG.view(state, None)["windows"] == [{"seat": 2, "id": "catch:1"}]


def test_oc_t23_an_empty_stock_is_rebuilt_from_the_discard_under_the_top() -> None:
    """OC-T23 (OC-20): stock empty, discard [2♠, 8♠, 9♠]: P0 draws 2♠ or 8♠, 9♠ stays on top."""
    state = deal([["8S", "3H", "4H"], ["9S", "5D", "6D"]], "2S")
    state = go(go(state, 0, play("8S")), 1, play("9S"))
    assert ENG.view(state, None)["stock"] == 0 and ENG.view(state, None)["discard"] == 3
    assert plays(state, 0) == [DRAW]
    state, events = ENG.apply(state, 0, DRAW)
    drawn = next(e for e in events if e["type"] == "draw")["cards"]
    assert drawn in (["2S"], ["8S"])
    view = ENG.view(state, 0)
    assert view["top"] == "9S" and view["suit"] == "S" and view["stock"] == 1 and view["discard"] == 1
    assert {"type": "reshuffle", "count": 2} in events


def test_oc_t24_an_exhausted_deck_forgives_the_attack() -> None:
    """OC-T24 (OC-21): no stock, only the top card: drawing a K 4 attack gives 0 cards and ends it."""
    state = table([["2H", "3H"], ["4D", "5D"], ["6C", "8C"]], "KS", attack=4, turn=0)
    state, events = ENG.apply(state, 0, DRAW)
    view = ENG.view(state, None)
    assert view["counts"] == [2, 2, 2] and view["attack"] is None and view["turn"] == 1
    assert [e["count"] for e in events if e["type"] == "draw"] == [0]


def test_oc_t25_timeout_plays_the_first_legal_card_in_hand_order() -> None:
    """OC-T25 (OC-48): hand {3♣, 8♥, K♥} (shown 8♥ K♥ 3♣) on 8♦: the timeout plays 8♥."""
    state = deal([["3C", "8H", "KH"], ["2S", "3S", "4S"]], "8D")
    assert hand(state, 0) == ["8H", "KH", "3C"]  # OC-55: ♥ before ♣
    assert {"id": "turn:1", "name": "turn", "seat": 0, "seconds": 30} in ENG.timers(state)
    state = go(state, 0, timeout("turn"))
    assert ENG.view(state, None)["top"] == "8H" and hand(state, 0) == ["KH", "3C"]


def test_oc_t26_timeout_under_attack_passes_the_attack_on() -> None:
    """OC-T26 (OC-48): facing K 2 with {5♠, K♣}, the timeout plays K♣: the attack is 4."""
    state = table([["5S", "KC"], ["2D", "3D"]], "KH", attack=2)
    state = go(state, 0, timeout("turn"))
    view = ENG.view(state, None)
    assert view["top"] == "KC" and view["attack"] == {"rank": "K", "amount": 4}


def test_oc_t27_drawing_is_refused_while_a_legal_card_is_held() -> None:
    """OC-T27 (OC-17): DRAW with a legal card is refused with has_playable_card, in random positions."""
    for seed in range(30):
        state = ENG.new_game(3, seed=seed)
        seat = ENG.view(state, None)["turn"]
        if plays(state, seat) != [DRAW]:
            err = rejects(ENG, state, seat, DRAW)
            assert err.code == "has_playable_card"


def test_oc_t28_final_ranking_shares_tied_places() -> None:
    """OC-T28 (OC-33): P2 out, the others 3, 5 and 3 cards: places 2, 4, 1, 2."""
    state = table(
        [["2C", "3C", "4C"], ["5S", "6S", "8S", "9S", "TS"], ["9H"], ["2D", "3D", "4D"]], "4H", turn=2
    )
    state = go(state, 2, play("9H"))
    assert ENG.result(state) == {"placements": [2, 4, 1, 2], "winners": [2], "scores": [3, 5, 0, 3]}


# -- rules not covered by a scenario ---------------------------------------------------
def test_oc_1_oc_56_two_to_four_players() -> None:
    """OC-1, OC-56: 2, 3 or 4 players; anything else is refused."""
    assert (ENG.min_players, ENG.max_players) == (2, 4)
    for n in (2, 3, 4):
        assert len(ENG.view(ENG.new_game(n, seed=0), None)["counts"]) == n
    for bad in (1, 5, "4", True):
        with pytest.raises(IllegalAction):
            ENG.new_game(bad, seed=0)  # type: ignore[arg-type]


def test_oc_2_oc_4_one_deck_without_jokers() -> None:
    """OC-2, OC-4: 52 cards, four of each rank, no jokers."""
    assert ENG.card_codes == frozenset(DECK) and len(DECK) == 52
    assert set(Counter(c[0] for c in DECK).values()) == {4}
    assert not {"RJ", "BJ"} & ENG.card_codes


def test_oc_3_normal_number_cards_have_no_effect() -> None:
    """OC-3: a normal card sets no attack, keeps the direction and passes to the next seat."""
    state = deal([["2H", "3C"], ["4D", "5D"], ["6S", "8S"]], "9H")
    state = go(state, 0, play("2H"))
    view = ENG.view(state, None)
    assert (view["turn"], view["direction"], view["attack"], view["suit"]) == (1, 1, None, "H")


def test_oc_5_no_house_rules() -> None:
    """OC-5, OC-65: Playfulo's rules: a 2 does not attack, a 3 does not block, a K gives no extra turn."""
    state = deal([["2H", "KH", "4C"], ["3H", "5D", "6D"], ["8S", "9S", "TS"]], "9H")
    state = go(state, 0, play("2H"))
    assert ENG.view(state, None)["attack"] is None and ENG.view(state, None)["turn"] == 1
    state = table([["2C", "3C"], ["3H", "5D"], ["8S", "9S"]], "KH", attack=2, turn=1, stock=["4S", "5S"])
    assert plays(state, 1) == [DRAW]  # 3♥ matches the suit but blocks nothing
    state = table([["KH", "3C"], ["3S", "5D"]], "9H")
    assert ENG.view(go(state, 0, play("KH")), None)["turn"] == 1


def test_oc_6_oc_50_seven_private_cards_each() -> None:
    """OC-6, OC-50: seven cards each; a seat sees only its own hand."""
    state = ENG.new_game(4, seed=11)
    for seat in range(4):
        view = ENG.view(state, seat)
        assert len(view["hand"]) == 7
        shown = cards_in(view, ENG.card_codes)
        assert shown == Counter(view["hand"]) + Counter([view["top"]])
    assert ENG.view(state, None)["hand"] is None


def test_oc_7_oc_8_a_special_starter_goes_back_into_the_stock() -> None:
    """OC-7, OC-8: a special card next in a fixed deck goes back (seeded); a normal card starts."""
    hands = [["2S", "3S"], ["4S", "5S"]]
    deck = [c for h in hands for c in h] + ["KD", "AD", "7D", "3H", "4H", "5H"]
    stocks = set()
    for seed in range(20):
        state = ENG.new_game(2, seed=seed, options={"deck": deck, "hand_size": 2})
        view = ENG.view(state, None)
        assert view["top"][0] in NORMAL and view["stock"] == 5
        assert ENG.all_cards(state) == Counter(deck)
        again = ENG.new_game(2, seed=seed, options={"deck": deck, "hand_size": 2})
        assert ENG.dump(again) == ENG.dump(state)
        assert view["top"] == "3H"  # reinsertion never reorders the normal cards
        stocks.add(tuple(ENG.dump(state)["stock"]))
    assert len(stocks) > 1  # the specials went back at random positions
    plain = ENG.new_game(2, seed=0, options={"deck": [*deck[:4], "6C", "KD"], "hand_size": 2})
    assert ENG.dump(plain)["stock"] == ["KD"] and ENG.view(plain, None)["top"] == "6C"


def test_oc_8_a_deck_without_a_possible_starter_is_refused() -> None:
    """OC-8: a fixed deck whose stock has no normal card cannot start a game."""
    with pytest.raises(IllegalAction):
        ENG.new_game(2, seed=0, options={"deck": ["2S", "3S", "KD", "AD"], "hand_size": 1})
    with pytest.raises(IllegalAction):
        ENG.new_game(2, seed=0, options={"deck": ["2S", "2S", "3D", "4D"], "hand_size": 1})


def test_oc_9_random_first_player_ascending_direction() -> None:
    """OC-9: the first player depends on the seed (every seat occurs); play goes up the seats."""
    firsts = {ENG.view(ENG.new_game(4, seed=s), None)["turn"] for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = deal([["2H", "3C"], ["4H", "5D"], ["6H", "8S"]], "9H", first=2)
    assert ENG.view(go(state, 2, play("6H")), None)["turn"] == 0


def test_oc_10_starting_suit_and_no_attack() -> None:
    """OC-10: the starter's suit is active and nothing is pending."""
    view = ENG.view(ENG.new_game(3, seed=4), None)
    assert view["suit"] == view["top"][1] and view["attack"] is None and view["direction"] == 1


def test_oc_16_one_card_per_turn() -> None:
    """OC-16: after one play the same seat cannot play again."""
    state = deal([["2H", "3H"], ["4D", "5D"], ["6S", "8S"]], "9H")
    state = go(state, 0, play("2H"))
    assert refused(state, 0, play("3H")) == "not_your_turn"


def test_oc_21_a_short_stock_gives_what_it_has() -> None:
    """OC-21: an A 6 attack with 2 cards left anywhere: the drawer takes those 2 and the turn passes."""
    state = table([["2H", "3H"], ["4D", "5D"]], "AS", attack=6, stock=["6C"], discard=["8C"])
    state, _events = ENG.apply(state, 0, DRAW)
    assert sorted(hand(state, 0)) == sorted(["2H", "3H", "6C", "8C"])
    assert ENG.view(state, None)["turn"] == 1 and ENG.view(state, None)["attack"] is None


def test_oc_22_a_seven_may_declare_its_own_suit() -> None:
    """OC-22: 7♥ declaring ♥ is legal, and all four suits are offered."""
    state = deal([["7H", "2C"], ["4D", "5D"]], "9H")
    assert [a["suit"] for a in plays(state, 0)] == ["S", "H", "D", "C"]
    assert ENG.view(go(state, 0, play("7H", "H")), None)["suit"] == "H"
    assert refused(state, 0, play("7H")) == "bad_action"
    assert refused(state, 0, play("7H", "X")) == "bad_action"


def test_oc_29_after_a_drawn_attack_the_top_king_matches_normally() -> None:
    """OC-29: once drawn, the K on top matches by suit or rank; an A of its suit starts a new A attack."""
    state = table([["AS", "2D"], ["3D", "4D"]], "KS", attack=2, turn=1, stock=["5H", "6H"])
    state = go(state, 1, DRAW)
    assert plays(state, 0) == [play("AS")]
    state = go(state, 0, play("AS"))
    assert ENG.view(state, None)["attack"] == {"rank": "A", "amount": 3}


def test_oc_31_oc_32_a_final_jack_queen_or_ace_has_no_effect() -> None:
    """OC-31, OC-32: the game ends on the last card; no skip, reverse or attack is applied."""
    for card in ("JH", "QH", "AH"):
        state = table([[card], ["2C", "3C"], ["4C", "5C"]], "9H", called=[0])
        state = go(state, 0, play(card))
        view = ENG.view(state, None)
        assert view["over"] and view["attack"] is None and view["direction"] == 1
        assert ENG.result(state)["placements"] == [1, 2, 2]


def test_oc_33_oc_66_a_blocked_table_ends_the_game() -> None:
    """OC-66, OC-33: a full lap with no play and no card to draw ends the game, ranked by cards."""
    state = table([["2C", "3C", "4C"], ["5D", "6D"], ["8D", "TD", "JD", "QD"]], "9H")
    for seat in (0, 1):
        state = go(state, seat, DRAW)
        assert not ENG.is_over(state)
    state, events = ENG.apply(state, 2, DRAW)
    assert ENG.is_over(state) and events[-1] == {"type": "game_over", "blocked": True}
    assert ENG.result(state) == {"placements": [2, 1, 3], "winners": [1], "scores": [3, 2, 4]}


def test_oc_66_a_play_restarts_the_lap() -> None:
    """OC-66: the lap counts consecutive turns; a play in between resets it."""
    state = table([["2C", "3C", "4C"], ["5D", "9C"], ["8D", "9D", "TD", "JD"]], "9H")
    state = go(go(state, 0, DRAW), 1, play("9C"))
    state = go(go(state, 2, play("9D")), 0, DRAW)
    assert not ENG.is_over(state)


def test_oc_34_no_bankruptcy_limit() -> None:
    """OC-34: a hand may grow past any size; the game goes on."""
    stock = [c for c in DECK if c[1] in "DC"][:24]
    state = table(
        [["2H", *[c for c in DECK if c[1] == "S"][1:5]], ["3H", "4H"]], "AS", attack=24, stock=stock
    )
    state = go(state, 0, DRAW)
    assert ENG.view(state, None)["counts"][0] == 29 and not ENG.is_over(state)


def test_oc_36_the_call_is_offered_at_two_cards_off_turn() -> None:
    """OC-36, OC-60: a seat with 2 cards may pre-call when it is not its turn; with 3 cards it may not."""
    state = deal([["2H", "3H", "4H"], ["4D", "5D", "6D"], ["6S", "8S", "9S"]], "9H")
    assert ENG.to_act(state) == [0]
    assert refused(state, 1, CALL) == "no_window"
    state = go(state, 0, play("2H"))
    assert 0 in ENG.to_act(state) and ENG.legal_actions(state, 0) == [CALL]
    assert refused(state, 0, DRAW) == "not_your_turn"
    state = go(state, 0, CALL)
    assert refused(state, 0, CALL) == "already_called"
    assert ENG.to_act(state) == [1]


def test_oc_37_a_called_player_playing_to_one_is_safe_and_stays_called() -> None:
    """OC-37: the flag survives the play to 1 card; a second call is refused."""
    state = table([["2H", "3H"], ["4D", "5D", "6D"]], "9H", called=[0])
    state = go(state, 0, play("2H"))
    assert ENG.view(state, None)["windows"] == [] and ENG.view(state, None)["called"][0]
    assert refused(state, 0, CALL) == "already_called"


def test_oc_42_the_game_goes_on_during_a_window_which_closes_when_the_owner_draws() -> None:
    """OC-42: the next player plays during the window; the owner's draw closes it without penalty."""
    state = table([["2H", "3H"], ["4H", "5D", "6D"]], "9H", stock=["8C", "8D"])
    state = go(state, 0, play("2H"))
    window = [t for t in ENG.timers(state) if t["name"] == "catch"]
    state = go(state, 1, play("4H"))
    assert [t for t in ENG.timers(state) if t["name"] == "catch"] == window  # same id survives
    state = table([["3C"], ["4H", "5D", "6D"]], "9H", windows=[(0, 7)], stock=["8C", "8D"])
    state = go(state, 0, DRAW)
    assert ENG.view(state, None)["windows"] == [] and ENG.view(state, None)["counts"][0] == 2


def test_oc_43_a_catch_without_a_window_is_refused_and_costs_nothing() -> None:
    """OC-43: catching a player with one card but no window, oneself, or a non-seat is refused."""
    state = table([["3C"], ["4H", "5D", "6D"]], "9H", called=[0], turn=1)
    assert refused(state, 1, catch(0)) == "no_window"
    state = table([["3C"], ["4H", "5D", "6D"]], "9H", windows=[(0, 1)], turn=1)
    assert refused(state, 0, catch(0)) == "bad_target"
    assert refused(state, 1, catch(5)) == "bad_action"
    assert refused(state, 1, catch(True)) == "bad_action"
    assert refused(state, 1, {"type": "catch"}) == "bad_action"


def test_oc_45_a_penalty_keeps_the_turn_and_reshuffles_if_needed() -> None:
    """OC-45: the caught player draws 2 (reshuffling as OC-20), nobody's turn changes, the flag clears."""
    state = table(
        [["3C"], ["4H", "5D", "6D"], ["2S", "3S"]],
        "9H",
        windows=[(0, 1)],
        turn=1,
        discard=["8C", "8D"],
        stock=["TC"],
    )
    state, events = ENG.apply(state, 2, catch(0))
    view = ENG.view(state, None)
    assert view["counts"][0] == 3 and view["turn"] == 1 and not view["called"][0]
    assert any(e["type"] == "reshuffle" for e in events)


def test_oc_46_oc_47_turn_timer_thirty_seconds_or_none() -> None:
    """OC-46, OC-47, OC-58: 30 s online by default; practice (None) drops it but not the catch windows."""
    state = ENG.new_game(2, seed=0)
    assert [t["seconds"] for t in ENG.timers(state)] == [30]
    state = table([["2H", "3H"], ["4D", "5D", "6D"]], "9H", turn_seconds=None)
    assert ENG.timers(state) == []
    assert refused(state, 0, timeout("turn")) == "no_timer"
    state = go(state, 0, play("2H"))
    assert [t["name"] for t in ENG.timers(state)] == ["catch"]


def test_oc_48_timeout_seven_names_the_suit_held_most_and_draws_otherwise() -> None:
    """OC-48: the first legal card is a 7: it names the most-held suit (ties ♠ ♥ ♦ ♣); no card: a draw."""
    state = table([["7H", "2D", "3D", "4C", "5C"], ["2S", "3S"]], "9H")
    state = go(state, 0, timeout("turn"))
    assert ENG.view(state, None)["suit"] == "D"
    state = table([["7H", "2D", "3S"], ["2S", "3S"]], "9H")
    assert ENG.view(go(state, 0, timeout("turn")), None)["suit"] == "S"
    state = table([["2C", "3C"], ["4S", "5S"]], "9H", stock=["6D"])
    state, events = ENG.apply(state, 0, timeout("turn"))
    assert events[0] == {"type": "timeout", "seat": 0, "timer": "turn"} and events[1]["type"] == "draw"
    assert ENG.view(state, None)["called"] == [False, False]  # OC-48: never a call


def test_oc_49_a_timed_out_player_stays_in() -> None:
    """OC-49: after a timeout the seat plays its next turn normally."""
    state = table([["2C", "3C"], ["4S", "5S"]], "9H", stock=["6D", "7D"])
    state = go(go(state, 0, timeout("turn")), 1, timeout("turn"))
    assert ENG.to_act(state) == [0] and plays(state, 0)


def test_oc_timers_ids_change_with_each_turn_only() -> None:
    """Contract: the turn timer id is stable through calls and catches, new for every turn start."""
    state = table([["2H", "3H", "4H"], ["5H", "6D"], ["8S", "9S", "TS"]], "9H")
    first = ENG.timers(state)[0]["id"]
    state = go(state, 1, CALL)
    assert ENG.timers(state)[0]["id"] == first
    state = go(state, 0, play("2H"))
    assert ENG.timers(state)[0]["id"] != first and ENG.timers(state)[0]["seat"] == 1
    state = table([["JC", "2C", "3C"], ["4D", "5D", "6D"]], "9C")
    before = ENG.timers(state)[0]
    state = go(state, 0, play("JC"))
    after = ENG.timers(state)[0]
    assert after["seat"] == before["seat"] == 0 and after["id"] != before["id"]  # a J restarts the clock


def test_oc_51_to_oc_54_views() -> None:
    """OC-51, OC-52, OC-53, OC-54: public table, draws as counts, the window to all, all hands at the end."""
    state = table([["2H", "3H"], ["4D", "5D", "6D"], ["8S", "9S", "TS"]], "9H", stock=["2C", "3C"])
    state = go(state, 0, play("2H"))
    for viewer in (None, 0, 1, 2):
        view = ENG.view(state, viewer)
        assert view["windows"] == [{"seat": 0, "id": "catch:1"}]
        assert view["counts"] == [1, 3, 3] and view["stock"] == 2 and view["turn"] == 1
        assert not leaked(ENG, state, viewer)
    state = go(state, 2, catch(0))
    assert ENG.view(state, 1)["last"][-1] == {"type": "penalty", "seat": 0, "count": 2}
    assert "2C" not in json.dumps(ENG.view(state, 1))
    assert ENG.view(state, 0)["hand"] == ["3H", "2C", "3C"]
    state = table([["2H"], ["4D", "5D"], ["8S"]], "9H", called=[0])
    state = go(state, 0, play("2H"))
    view = ENG.view(state, 1)
    assert view["hands"] == [[], None, ["8S"]] and view["hand"] == ["4D", "5D"]
    assert ENG.view(state, None)["hands"] == [[], ["4D", "5D"], ["8S"]]
    assert not leaked(ENG, state, 1)


def test_oc_55_hand_order_suits_then_ace_low() -> None:
    """OC-55: ♠ ♥ ♦ ♣, then A, 2 … 10, J, Q, K."""
    state = deal(
        [["KC", "AC", "TD", "2H", "QS", "AS", "9S"], ["2D", "3D", "4D", "5D", "6D", "8D", "9D"]], "5C"
    )
    assert hand(state, 0) == ["AS", "9S", "QS", "2H", "TD", "AC", "KC"]


def test_oc_59_no_variant_options() -> None:
    """OC-59: the catch window is 5 s whatever is asked; variant options change nothing."""
    plain = ENG.new_game(3, seed=9)
    other = ENG.new_game(3, seed=9, options={"catch_seconds": 1, "two_attacks": True})
    assert ENG.dump(plain) == ENG.dump(other)


def test_oc_60_legal_actions_table() -> None:
    """OC-60: a 7 once per suit, the call for 2-card seats, catches for every other seat."""
    state = table([["7H", "3H"], ["4D", "5D"], ["8S"]], "9H", windows=[(2, 3)])
    assert ENG.legal_actions(state, 0) == [
        play("3H"),
        *(play("7H", s) for s in "SHDC"),
        CALL,
        catch(2),
    ]
    assert ENG.legal_actions(state, 1) == [CALL, catch(2)]
    assert ENG.legal_actions(state, 2) == [CALL]  # its own window
    assert ENG.to_act(state) == [0, 1, 2]


def test_oc_61_oc_62_turn_advance_with_direction_and_skips() -> None:
    """OC-61, OC-62: next = current + direction; a J skips one more; in reverse with 3 players."""
    state = table([["JH", "2C"], ["3C", "4C"], ["5C", "6C"]], "9H", direction=-1)
    assert ENG.view(go(state, 0, play("JH")), None)["turn"] == 1
    state = table([["QH", "2C"], ["3C", "4C"], ["5C", "6C"]], "9H", direction=-1)
    assert ENG.view(go(state, 0, play("QH")), None)["turn"] == 1


# -- contract details -----------------------------------------------------------------
MALFORMED: list[Any] = [
    None,
    [],
    {"type": None},
    {"type": "play", "card": 7},
    {"type": "play", "card": "7X"},
    {"type": "play", "card": "9H", "suit": "S"},
    {"type": "play", "card": "9H", "suit": ["S"]},
    {"type": "catch", "target": "1"},
    {"type": "timeout"},
    {"type": "timeout", "timer": ["turn"]},
    {"type": "PLAY", "card": "9H"},
]


@pytest.mark.parametrize("action", MALFORMED)
def test_malformed_actions_are_refused_with_bad_action(action: Any) -> None:
    state = table([["9H", "3C"], ["4D", "5D"]], "9D")
    assert refused(state, 0, action) == "bad_action"


def test_bad_seats_and_finished_games() -> None:
    state = table([["9H", "3C"], ["4D", "5D"]], "9D")
    for seat in (-1, 2, True, "0", None):
        assert refused(state, seat, play("9H")) == "bad_seat"
    assert ENG.legal_actions(state, 7) == [] and ENG.legal_actions(state, True) == []  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        ENG.result(state)
    assert refused(state, 1, timeout("catch")) == "no_window"
    assert refused(state, 1, timeout("turn")) == "not_your_turn"


def test_the_same_seed_replays_reshuffles_exactly() -> None:
    """Randomness after the deal comes from rng_for(seed, counter): a dump/load mid-game replays the same."""
    import random

    for seed in range(20):
        rng = random.Random(seed)
        state = ENG.new_game(3, seed=seed)
        for _ in range(200):
            if ENG.is_over(state):
                break
            seat = rng.choice(ENG.to_act(state))
            action = rng.choice(ENG.legal_actions(state, seat))
            a = ENG.apply(state, seat, action)[0]
            b = ENG.apply(ENG.load(json.loads(json.dumps(ENG.dump(state)))), seat, action)[0]
            assert ENG.dump(a) == ENG.dump(b)
            state = a


def test_engine_class_and_registry() -> None:
    assert isinstance(ENG, OneCardEngine) and ENG.name == "one_card"


def test_oc_63_public_memory_in_views() -> None:
    """OC-63 tips 1 and 5 (OC-51 public data): who drew on which suit, and attack cards face up."""
    state = table([["2C", "3C"], ["4H", "5D", "6D"]], "9H", stock=["8S", "8D"], discard=["KS", "AD"])
    assert ENG.view(state, 1)["played"] == {"K": 1, "A": 1}
    state = go(state, 0, DRAW)
    assert ENG.view(state, 1)["lacks"] == ["H", None]
    state = table([["2H", "3C"], ["4H", "5D"]], "9H", stock=["8S"])
    state = ENG.load({**ENG.dump(state), "lacks": ["H", ""]})
    assert ENG.view(go(state, 0, play("2H")), None)["lacks"] == [None, None]  # it followed hearts again


def test_returned_events_list_views_and_dumps_are_the_callers_to_change() -> None:
    """Contract: the events list, views and dumps are fresh; changing them leaves the state alone.

    (The event dicts themselves are shared with the state and are read-only, see the engine docstring.)
    """
    state = table([["2C", "3C"], ["4H", "5D", "6D"]], "9H", stock=["8S", "8D"])
    new, events = ENG.apply(state, 0, DRAW)
    before = ENG.dump(new)
    events.append({"type": "junk"})
    ENG.view(new, 0)["last"][0]["count"] = 99
    ENG.view(new, 0)["hand"].append("AS")
    ENG.dump(new)["last"][0]["cards"].append("AS")
    assert ENG.dump(new) == before


def test_oc_17_oc_36_listed_draw_and_call_objects_take_the_plain_dicts_checks() -> None:
    """OC-17, OC-36, OC-43: apply's shortcuts for the listed draw and call objects (the shared
    read-only dicts of ``legal_actions``) refuse what the plain dicts are refused, with the same
    codes, and a pre-call's event equals the plain one."""
    listed_draw = ENG.legal_actions(deal([["2S"], ["3S"]], "5H", ["6H"]), 0)[0]
    state = _p2_with_two_cards()
    listed_call = next(a for a in ENG.legal_actions(state, 2) if a == CALL)
    assert listed_draw == DRAW and listed_call is not CALL
    for seat in (0, 7, -1, True, None):  # not the turn player's, or not a seat
        assert refused(state, seat, listed_draw) == refused(state, seat, DRAW)
    assert refused(state, 2, listed_draw) == "has_playable_card"  # OC-17
    assert refused(state, 0, listed_call) == refused(state, 0, CALL) == "no_window"
    called, events = ENG.apply(state, 2, listed_call)
    assert events == [{"type": "call_one_card", "seat": 2}] and ENG.view(called, None)["called"][2]
    assert refused(called, 2, listed_call) == "already_called"
    assert ENG.dump(called) == ENG.dump(go(state, 2, CALL))
