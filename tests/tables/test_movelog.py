"""The move log's words as data (cardgames/tables/movelog.py): each game's moves described from
the engine's own events, told to each viewer without a card they may not see (pure: no database)."""

from __future__ import annotations

from typing import Any

from cardgames.engines import get_engine
from cardgames.tables import movelog
from tests.engines import test_one_card as oc
from tests.engines import test_pika as pk

JSON = dict[str, Any]


def _apply(game: str, state: Any, seat: int | None, action: JSON) -> tuple[Any, list[JSON]]:
    return get_engine(game).apply(state, seat, action)


def _told(game: str, seat: int | None, action: JSON, events: list[JSON], viewer: int | None) -> JSON:
    entry = movelog.describe(game, seat, action, events, viewer)
    assert entry is not None
    return entry


# -- One Card ---------------------------------------------------------------------------------
def test_oc52_a_draw_names_its_cards_to_the_drawer_alone() -> None:
    state = oc.table([["3H", "9S"], ["5D", "9D"]], "8C", stock=["KH", "2S"])
    action = {"type": "draw"}
    _, events = _apply("one_card", state, 0, action)
    mine = _told("one_card", 0, action, events, 0)
    assert mine["facts"] == [{"kind": "draw", "seat": 0, "count": 1, "cards": ["KH"]}]
    assert movelog.entered("one_card", 0, events, 0, None) == ["KH"]
    for viewer in (1, None):
        assert _told("one_card", 0, action, events, viewer)["facts"] == [
            {"kind": "draw", "seat": 0, "count": 1}
        ]
        assert movelog.entered("one_card", 0, events, viewer, None) == []


def test_oc22_a_seven_names_the_suit_it_asks_for() -> None:
    state = oc.table([["7H", "9S", "2C"], ["5D", "9D"]], "8H")
    action = {"type": "play", "card": "7H", "suit": "S"}
    _, events = _apply("one_card", state, 0, action)
    entry = _told("one_card", 0, action, events, None)
    assert entry == {
        "seat": 0,
        "type": "play",
        "facts": [{"kind": "play", "seat": 0, "cards": ["7H"], "suit": "S"}],
    }


def test_oc38_oc45_a_catch_is_announced_with_the_penalty_and_its_cards_go_to_the_caught_alone() -> None:
    state = oc._p2_with_two_cards()
    play = {"type": "play", "card": "4H"}
    state, events = _apply("one_card", state, 2, play)
    opened = _told("one_card", 2, play, events, 0)
    assert opened["facts"][-1] == {"kind": "window", "seat": 2}
    assert opened["banners"] == [{"kind": "window", "seat": 2, "call": "one_card"}]
    catch = {"type": "catch", "target": 2}
    _, events = _apply("one_card", state, 0, catch)
    penalty = next(e for e in events if e["type"] == "penalty")
    caught = _told("one_card", 0, catch, events, 2)
    assert caught["facts"] == [
        {"kind": "catch", "seat": 0, "target": 2, "count": 2, "cards": penalty["cards"]}
    ]
    assert caught["banners"] == [{"kind": "caught", "seat": 0, "target": 2, "count": 2}]
    assert movelog.entered("one_card", 0, events, 2, None) == penalty["cards"]
    for viewer in (0, 1, None):
        told = _told("one_card", 0, catch, events, viewer)
        assert told["facts"] == [{"kind": "catch", "seat": 0, "target": 2, "count": 2}]
        assert told["banners"] == caught["banners"]


def test_oc41_a_window_nobody_used_says_the_player_is_safe() -> None:
    state, _ = _apply("one_card", oc._p2_with_two_cards(), 2, {"type": "play", "card": "4H"})
    action = {"type": "timeout", "timer": "catch"}
    _, events = _apply("one_card", state, 2, action)
    entry = _told("one_card", 2, action, events, 2)
    assert entry["facts"] == [{"kind": "safe", "seat": 2}] and entry["banners"] == [
        {"kind": "safe", "seat": 2}
    ]


def test_oc48_a_turn_timeout_says_so_then_what_was_played_for_the_seat() -> None:
    state = oc.table([["3C", "9S", "2D"], ["5D", "9D"]], "8C")
    action = {"type": "timeout", "timer": "turn"}
    _, events = _apply("one_card", state, 0, action)
    assert _told("one_card", 0, action, events, 1)["facts"] == [
        {"kind": "timeout", "seat": 0, "timer": "turn"},
        {"kind": "play", "seat": 0, "cards": ["3C"]},
    ]


# -- Pika ---------------------------------------------------------------------------------------
def test_pk22_a_wild_card_names_the_colour_chosen() -> None:
    state = pk.deal([["W", "R5"], ["G1", "G2"]], "B7")
    action = {"type": "play", "card": "W", "colour": "G"}
    _, events = _apply("pika", state, 0, action)
    assert _told("pika", 0, action, events, 1)["facts"] == [
        {"kind": "play", "seat": 0, "cards": ["W"], "colour": "G"}
    ]


def test_pk52_a_draw_is_counted_for_everyone_and_its_card_marked_in_the_drawers_hand() -> None:
    state = pk.deal([["R5", "R6"], ["G1", "G2"]], "B7", ["Y9", "G4"])
    action = {"type": "draw"}
    state, events = _apply("pika", state, 0, action)
    for viewer in (0, 1, None):
        assert _told("pika", 0, action, events, viewer)["facts"] == [{"kind": "draw", "seat": 0, "count": 1}]
    hand = get_engine("pika").view(state, 0)["hand"]
    assert movelog.entered("pika", 0, events, 0, hand) == ["Y9"]  # PK-46: new cards at the right end
    assert movelog.entered("pika", 0, events, 1, get_engine("pika").view(state, 1)["hand"]) == []


def test_pk28_taking_the_stack_is_announced_with_its_count() -> None:
    state = pk.table([["R5", "R6"], ["G1", "G2"]], "B+2", stack=2, stock=["Y9", "G4", "Y1"])
    action = {"type": "take_stack"}
    state, events = _apply("pika", state, 0, action)
    entry = _told("pika", 0, action, events, 1)
    assert entry["facts"] == [{"kind": "take_stack", "seat": 0, "count": 2}]
    assert entry["banners"] == [{"kind": "stack", "seat": 0, "count": 2}]
    assert movelog.entered("pika", 0, events, 0, get_engine("pika").view(state, 0)["hand"]) == ["Y9", "G4"]


def test_pk32_pk34_a_missed_pika_call_is_announced_with_its_two_cards() -> None:
    state = pk.deal([["R5", "R6"], ["G1", "G2", "G3"]], "R7", ["Y9", "G4", "Y1"])
    state, _ = _apply("pika", state, 0, {"type": "play", "card": "R5"})
    assert [t["name"] for t in get_engine("pika").timers(state)] == ["pika"]
    action = {"type": "timeout", "timer": "pika"}
    state, events = _apply("pika", state, 0, action)
    entry = _told("pika", 0, action, events, 0)
    assert entry["facts"] == [{"kind": "missed_call", "seat": 0, "call": "pika", "count": 2}]
    assert entry["banners"] == entry["facts"]
    hand = get_engine("pika").view(state, 0)["hand"]
    assert movelog.entered("pika", 0, events, 0, hand) == hand[-2:] == ["Y9", "G4"]


def test_pk46_a_hand_reorder_is_no_move_for_anyone() -> None:
    state = pk.deal([["R5", "R6"], ["G1", "G2"]], "B7")
    action = {"type": "reorder", "order": ["R6", "R5"]}
    _, events = _apply("pika", state, 0, action)
    assert not movelog.shown("pika", action)
    assert all(movelog.describe("pika", 0, action, events, viewer) is None for viewer in (0, 1, None))


# -- El Puteo -----------------------------------------------------------------------------------
def test_pt_bids_plays_and_the_lives_lost_at_the_round_end() -> None:
    bid = {"type": "bid", "k": 2}
    assert _told("puteo", 3, bid, [{"type": "bid", "seat": 3, "k": 2}], None)["facts"] == [
        {"kind": "bid", "seat": 3, "bid": 2}
    ]
    play = {"type": "play", "card": "10E"}
    events = [
        {"type": "play", "seat": 1, "card": "10E", "auto": False},
        {"type": "trick", "winner": 0},
        {"type": "round_end", "round": 3, "lost_life": [1, 2], "eliminated": [2]},
        {"type": "deal", "round": 4, "dealer": 0},
    ]
    entry = _told("puteo", 1, play, events, 0)
    assert entry["facts"] == [
        {"kind": "play", "seat": 1, "cards": ["10E"]},
        {"kind": "trick", "seat": 0},
        {"kind": "round_end", "round": 3, "lost": [1, 2], "eliminated": [2]},
        {"kind": "deal", "round": 4, "dealer": 0},
    ]
    # PT-35: a miss costs a life; PT-36: the last one puts the player out
    assert entry["banners"] == [{"kind": "lost_life", "seats": [1, 2], "eliminated": [2]}]
    assert entry["new_deal"] is True and movelog.starts_deal("puteo", events)


def test_pt_a_table_wide_pause_is_no_ones_move() -> None:
    action = {"type": "timeout", "timer": "pause"}
    events = [{"type": "timeout", "timer": "pause", "seat": None}, {"type": "bidding_opens", "turn": 2}]
    assert _told("puteo", None, action, events, 1)["facts"] == [{"kind": "table_timer", "timer": "pause"}]


# -- Skyjo --------------------------------------------------------------------------------------
def test_sk_a_draw_and_a_swap_are_public() -> None:
    draw = {"type": "draw"}
    events = [{"type": "draw", "seat": 2, "card": "5"}, {"type": "turn", "seat": 3}]  # whose turn: not a fact
    assert _told("skyjo", 2, draw, events, None)["facts"] == [{"kind": "draw_deck", "seat": 2, "card": "5"}]
    swap = {"type": "swap", "pos": 4}
    events = [{"type": "swap", "seat": 2, "pos": 4, "card": "5", "out": "11"}]
    assert _told("skyjo", 2, swap, events, 0)["facts"] == [
        {"kind": "swap", "seat": 2, "pos": 4, "card": "5", "out": "11"}
    ]


def test_sk22_a_doubled_closer_is_announced() -> None:
    action = {"type": "discard_and_reveal", "pos": 8}
    events = [
        {"type": "discard_and_reveal", "seat": 1, "card": "0", "pos": 8, "revealed": "9"},
        {
            "type": "round_scored",
            "round": 1,
            "raw": [20, 31],
            "scores": [20, 62],
            "closer": 1,
            "doubled": True,
        },
    ]
    entry = _told("skyjo", 1, action, events, 0)
    assert entry["banners"] == [{"kind": "doubled", "seat": 1, "raw": 31, "score": 62}]
    assert entry["facts"][-1] == {
        "kind": "round_scored",
        "round": 1,
        "scores": [20, 62],
        "closer": 1,
        "doubled": True,
    }


def test_sk_a_ready_vote_is_told_from_the_action_itself() -> None:
    assert _told("skyjo", 3, {"type": "ready"}, [], 0)["facts"] == [{"kind": "ready", "seat": 3}]


# -- Guandan ------------------------------------------------------------------------------------
def _guandan_play(cards: list[str], interp: JSON, level: str = "2") -> JSON:
    action = {"type": "play", "cards": cards, "interp": interp}
    events = [{"type": "played", "seat": 1, "cards": cards, "interp": interp, "level": level}]
    return _told("guandan", 1, action, events, None)["facts"][0]


def test_gd31_a_full_house_names_its_triple_and_its_pair() -> None:
    fact = _guandan_play(["7S", "7D", "7C", "4S", "4D"], {"kind": "full_house", "rank": "7"})
    assert fact["combo"] == {"kind": "full_house", "rank": "7", "pair": "4"} and "wild" not in fact
    # a heart wildcard (GD-10) filling the pair: the pair is the other card's rank
    fact = _guandan_play(["7S", "7D", "7C", "4H", "2H"], {"kind": "full_house", "rank": "7"})
    assert fact["combo"]["pair"] == "4" and fact["wild"] == [4]
    # at level 4 the same cards read the other way round: 4♥ is the wildcard
    fact = _guandan_play(["7S", "7D", "7C", "4H", "2H"], {"kind": "full_house", "rank": "7"}, level="4")
    assert fact["combo"]["pair"] == "2" and fact["wild"] == [3]
    # GD-11: a pair of wildcards alone reads as the level rank
    fact = _guandan_play(["7S", "7D", "7C", "5H", "5H"], {"kind": "full_house", "rank": "7"}, level="5")
    assert fact["combo"]["pair"] == "5"


def test_gd_bombs_and_straights_keep_their_size_and_top_rank() -> None:
    fact = _guandan_play(["9S", "9D", "9C", "9H"], {"kind": "bomb", "rank": "9", "size": 4})
    assert fact["combo"] == {"kind": "bomb", "rank": "9", "size": 4}
    fact = _guandan_play(["5S", "6D", "7C", "8H", "9S"], {"kind": "straight", "rank": "9"})
    assert fact["combo"] == {"kind": "straight", "rank": "9"}


def test_gd_engine_plays_carry_the_level_for_the_log() -> None:
    eng = get_engine("guandan")
    hands = {"hands": [["7S", "7D", "7C", "4S", "4D"], ["3S"], ["3D"], ["3C"]]}
    # GD-47: the first leader is drawn by the seed: the first seed where seat 0 leads
    state = next(
        s for s in (eng.new_game(4, seed=k, options=hands) for k in range(40)) if eng.to_act(s) == [0]
    )
    action = next(a for a in eng.legal_actions(state, 0) if len(a["cards"]) == 5)
    _, events = eng.apply(state, 0, action)
    assert events[0]["level"] == "2"
    assert _told("guandan", 0, action, events, 2)["facts"][0]["combo"]["pair"] == "4"


def test_gd52_gd58_gd59_tribute_is_public_and_a_return_is_the_giver_and_receivers_alone() -> None:
    deal = [
        {"type": "deal_started", "deal": 2, "level": "5"},
        {"type": "tribute", "seat": 3, "to": 0, "card": "AS"},
    ]
    entry = _told("guandan", 2, {"type": "ready"}, deal, 1)
    assert entry["facts"][1] == {"kind": "tribute", "seat": 3, "to": 0, "card": "AS"}
    assert entry["banners"] == [{"kind": "tribute", "seat": 3, "to": 0, "card": "AS"}]
    assert entry["new_deal"] is True
    assert movelog.entered("guandan", 2, deal, 0, None) == ["AS"]
    anti = [{"type": "deal_started", "deal": 3, "level": "6"}, {"type": "anti_tribute", "holders": [1, 3]}]
    assert _told("guandan", 1, {"type": "ready"}, anti, None)["banners"] == [
        {"kind": "anti_tribute", "seats": [1, 3]}
    ]
    confirm = {"type": "confirm"}
    events = [{"type": "return_confirmed", "seat": 0, "to": 3, "card": "4C"}]
    assert _told("guandan", 0, confirm, events, 0)["facts"] == [
        {"kind": "return", "seat": 0, "to": 3, "card": "4C"}
    ]
    for viewer in (1, 3, None):  # not moved yet: even its receiver does not hold it
        assert _told("guandan", 0, confirm, events, viewer)["facts"] == [
            {"kind": "return", "seat": 0, "to": 3}
        ]
    done = [*events, {"type": "returns_done", "leader": 3, "returns": [{"seat": 0, "to": 3, "card": "4C"}]}]
    for viewer in (0, 3):
        facts = _told("guandan", 0, confirm, done, viewer)["facts"]
        assert facts[0] == {"kind": "return", "seat": 0, "to": 3}  # named once, in the returns
        assert facts[1] == {
            "kind": "returns_done",
            "leader": 3,
            "returns": [{"seat": 0, "to": 3, "card": "4C"}],
        }
    for viewer in (1, 2, None):
        assert _told("guandan", 0, confirm, done, viewer)["facts"][1]["returns"] == [{"seat": 0, "to": 3}]
    assert movelog.entered("guandan", 0, done, 3, None) == ["4C"]
    assert not movelog.shown("guandan", {"type": "return", "card": "4C"})  # GD-54: a pick is no move


def test_gd_engine_events_name_the_tribute_and_the_returns() -> None:
    """The engine's own events for a deal with a tribute (GD-48) and its return (GD-53 – GD-55)."""
    eng = get_engine("guandan")
    state = eng.new_game(4, seed=5, options={"turn_seconds": None})
    state = _to_next_deal(eng, state)
    ready = [s for s in range(4) if {"type": "ready"} in eng.legal_actions(state, s)]
    events: list[JSON] = []
    for seat in ready:
        state, events = eng.apply(state, seat, {"type": "ready"})
    kinds = [e["type"] for e in events]
    assert kinds[0] == "deal_started" and "tribute" in kinds
    tribute = next(e for e in events if e["type"] == "tribute")
    assert tribute["card"] in eng.view(state, None)["tributes"][0].values()
    receiver = tribute["to"]
    pick = eng.legal_actions(state, receiver)[0]
    state, events = eng.apply(state, receiver, pick)
    assert events == [{"type": "return_selected", "seat": receiver}]  # GD-59: the pick names no card
    state, events = eng.apply(state, receiver, {"type": "confirm"})
    assert events[0] == {
        "type": "return_confirmed",
        "seat": receiver,
        "to": tribute["seat"],
        "card": pick["card"],
    }
    done = next(e for e in events if e["type"] == "returns_done")
    assert done["returns"][0] == {"seat": receiver, "to": tribute["seat"], "card": events[0]["card"]}


def _to_next_deal(eng: Any, state: Any) -> Any:
    """Play the first legal action of whoever acts until the deal is over (the pause between deals)."""
    for _ in range(2000):
        if eng.view(state, None)["phase"] != "play":
            return state
        seat = eng.to_act(state)[0]
        state, _ = eng.apply(state, seat, eng.legal_actions(state, seat)[-1])
    raise AssertionError("the deal did not end")
