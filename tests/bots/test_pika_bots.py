"""Pika bots: always legal, deterministic, and the heuristics docs/bots.md promises."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardgames.bots import get_bot
from cardgames.bots.driver import play_game
from cardgames.bots.pika import (
    BOTS,
    HardBot,
    NormalBot,
    _determinize,
    _easy_move,
    _hard_move,
    _normal_move,
    _rollout,
    _Table,
)
from cardgames.engines import get_engine

ENG = get_engine("pika")
FILLER = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"]


def deal(hands: list[list[str]], starter: str, stock: list[str] | None = None, first: int = 0) -> Any:
    """A new game whose deck deals exactly ``hands``, then ``starter``, then ``stock``."""
    deck = [card for hand in hands for card in hand] + [starter] + list(stock or [])
    options = {
        "deck": deck,
        "hand_size": [len(h) for h in hands],
        "first_player": first,
        "turn_seconds": None,
    }
    return ENG.new_game(len(hands), seed=1, options=options)


def choice(level: str, state: Any, seat: int, seed: int = 0, search: bool = False) -> dict[str, Any] | None:
    """``level``'s answer; hard's heuristic alone unless ``search`` (the search has its own tests)."""
    bot = BOTS[level]()
    if isinstance(bot, HardBot):
        bot.search = search
    return bot.choose(ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(seed))


def play(state: Any, seat: int, card: str, colour: str | None = None) -> Any:
    action = {"type": "play", "card": card, **({"colour": colour} if colour else {})}
    return ENG.apply(state, seat, action)[0]


# -- contract -----------------------------------------------------------------------------
def test_levels_are_registered() -> None:
    assert set(BOTS) == {"easy", "normal", "hard"}
    for level in BOTS:
        assert hasattr(get_bot("pika", level), "choose")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_always_choose_a_legal_action(players: int) -> None:
    """Every answer is one of ``legal``; None only for a seat that need not act (a countdown)."""
    levels = ["easy", "normal", "hard", "hard"][:players]
    for seed in range(25):
        bots = [get_bot("pika", level) for level in levels]
        rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
        # timers on: the lapsing countdown and turn timeouts happen too
        state = ENG.new_game(players, seed=seed, options={"turn_seconds": 30})
        for _ in range(5000):
            if ENG.is_over(state):
                break
            moved = False
            for seat in ENG.to_act(state):
                legal = ENG.legal_actions(state, seat)
                action = bots[seat].choose(ENG.view(state, seat), legal, rngs[seat])
                if action is None:
                    assert legal == [{"type": "call_pika"}], "only an optional call may be let pass"
                    continue
                assert action in legal
                state = ENG.apply(state, seat, action)[0]
                moved = True
                break
            if not moved:
                timer = min(ENG.timers(state), key=lambda t: t["seconds"])
                state = ENG.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
        assert ENG.is_over(state)


def test_bot_games_are_deterministic() -> None:
    for level in BOTS:
        a_state, a_result = play_game("pika", [level, "easy", "normal", "hard"], seed=17)
        b_state, b_result = play_game("pika", [level, "easy", "normal", "hard"], seed=17)
        assert a_result == b_result
        assert json.dumps(ENG.dump(a_state)) == json.dumps(ENG.dump(b_state))


def test_bots_see_only_their_view() -> None:
    """A bot gets a JSON view: the same view gives the same answer, whatever the hidden cards."""
    a = deal([["R1", "G2", "W"], ["B1", "B2", "B3"]], "R7", FILLER)
    b = deal(
        [["R1", "G2", "W"], ["Y1", "Y2", "Y3"]], "R7", ["B1", "B2", "B3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"]
    )
    assert ENG.view(a, 0) == ENG.view(b, 0)
    for level in BOTS:
        assert choice(level, a, 0, seed=3) == choice(level, b, 0, seed=3)
    assert choice("hard", a, 0, seed=3, search=True) == choice("hard", b, 0, seed=3, search=True)


# -- the Pika call ---------------------------------------------------------------------------
def test_hard_always_calls_pika_and_easy_sometimes_forgets() -> None:
    """PK-32: hard never forgets; easy lets one call in five pass (PF-50's One Card rates)."""
    state = play(deal([["R1", "R2"], FILLER[:3]], "R7"), 0, "R1")
    for seed in range(50):
        assert choice("hard", state, 0, seed) == {"type": "call_pika"}
    easy = Counter(json.dumps(choice("easy", state, 0, seed)) for seed in range(400))
    assert 40 < easy["null"] < 130 and easy['{"type": "call_pika"}'] > 270


# -- hard heuristics -------------------------------------------------------------------------------
def test_hard_keeps_black_cards_while_a_coloured_card_fits() -> None:
    state = deal([["W+4", "W", "R3", "G5"], FILLER[:4]], "R7")
    assert choice("hard", state, 0) == {"type": "play", "card": "R3"}


def test_hard_names_a_colour_it_holds() -> None:
    state = deal([["W", "G1", "G5", "B2"], FILLER[:4]], "R7")
    assert choice("hard", state, 0) == {"type": "play", "card": "W", "colour": "G"}


def test_hard_chains_a_plus2_before_a_plus4() -> None:
    state = play(deal([["R+2", "R1", "R4"], ["W+4", "B+2", "G3"]], "R7"), 0, "R+2")
    assert choice("hard", state, 1) == {"type": "play", "card": "B+2"}


def test_hard_chains_a_plus4_in_the_colour_of_its_own_plus2s() -> None:
    """Naming the colour whose +2 it holds leaves the next seat fewer chaining cards (PK-24)."""
    # given: W+4/R with a stack of 4 on seat 1, who holds a +4 and a yellow +2
    state = play(deal([["W+4", "R1", "R4"], ["W+4", "Y+2", "G3", "G5"]], "R7"), 0, "W+4", "R")
    assert choice("hard", state, 1) == {"type": "play", "card": "W+4", "colour": "Y"}


def test_hard_hits_a_rival_close_to_going_out() -> None:
    """With the next seat at one card, a +2 instead of a plain card."""
    state = deal([["R+2", "R3", "G5", "B6"], ["Y1"]], "R7")
    assert choice("hard", state, 0) == {"type": "play", "card": "R+2"}
    calm = deal([["R+2", "R3", "G5", "B6"], FILLER[:6]], "R7")
    assert choice("hard", calm, 0) == {"type": "play", "card": "R3"}


def test_hard_saves_a_wild_for_the_last_card() -> None:
    state = deal([["W", "R3"], FILLER[:5]], "R7")
    assert choice("hard", state, 0) == {"type": "play", "card": "R3"}


def test_hard_does_not_keep_a_plus2_as_its_last_card() -> None:
    """PK-39: a last +2 does not end the round."""
    state = deal([["R3", "R+2"], FILLER[:5]], "R7")
    assert choice("hard", state, 0) == {"type": "play", "card": "R+2"}


def test_hard_plays_a_playable_drawn_card() -> None:
    state = ENG.apply(deal([["B5", "B8"], FILLER[:4]], "G3", ["G9"]), 0, {"type": "draw"})[0]
    assert choice("hard", state, 0) == {"type": "play", "card": "G9"}


def test_hard_uses_what_a_rival_drew_on() -> None:
    """PK-51 drew_on: a rival that drew on green, close to going out, gets green."""
    state = deal([["W", "R3", "G4", "B1", "Y2"], ["B5", "Y6"]], "R7", FILLER)
    state = ENG.load(
        {**ENG.dump(state), "drew_on": ["", "G"], "hands": [["W", "G4", "B1", "Y2"], ["B5", "Y6"]]}
    )
    assert choice("hard", state, 0) == {"type": "play", "card": "W", "colour": "G"}


# -- hard: the endgame search -------------------------------------------------------------------
def endgame() -> Any:
    """Seat 0 to play on Y7 with three sensible moves; seat 2 holds one card, seat 1 drew on green."""
    state = deal(
        [["Y5", "BR", "YS", "W"], ["G1", "G2", "G3", "G4", "B9", "R8"], ["Y2"], ["R1", "R2"]],
        "Y7",
        ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"],
    )
    return ENG.load({**ENG.dump(state), "discard": ["G9", "YR"], "colour": "Y", "drew_on": ["", "G", "", ""]})


def test_hard_search_deals_the_hidden_cards_consistently_with_the_view() -> None:
    # given: a real game some twenty easy moves in
    state = ENG.new_game(4, seed=3, options={"turn_seconds": None})
    bots, rng = [get_bot("pika", "easy") for _ in range(4)], random.Random(3)
    for _ in range(20):
        seat = ENG.to_act(state)[0]
        action = bots[seat].choose(ENG.view(state, seat), ENG.legal_actions(state, seat), rng)
        state = ENG.apply(state, seat, action or {"type": "timeout", "timer": "pika"})[0]
    seat = state.turn
    view = ENG.view(state, seat)
    for _ in range(50):
        st = _determinize(view, rng)
        assert [len(h) for h in st.hands] == view["hand_counts"] and list(st.hands[seat]) == view["hand"]
        assert st.discard[-1] == view["top"] and st.match[0] == view["colour"] and st.stack == view["stack"]
        assert len(st.stock) == view["stock_count"] and len(st.discard) == view["discard_count"]
        assert ENG.all_cards(st) == ENG.all_cards(state)  # the whole deck
    # a colour a rival drew on is rarely dealt to it
    view = ENG.view(endgame(), 0)
    assert _determinize(view, rng).drew_on == (0, 4, 0, 0)  # green's bit, as the view shows
    greens = sum(sum(c[0] == "G" for c in _determinize(view, rng).hands[1]) for _ in range(200))
    assert greens / 200 < 1.0
    # random players shed black cards: a rival gets fewer than its share, one that drew far fewer
    deals = [_determinize(view, rng) for _ in range(400)]
    share = 8 / (108 - 4 - 1)  # the unseen cards hold all eight black cards
    blacks = [
        sum(c in ("W", "W+4") for d in deals for c in d.hands[seat]) / (400 * len(deals[0].hands[seat]))
        for seat in (1, 3)
    ]
    assert blacks[0] < 0.2 * share and 0.15 * share < blacks[1] < 0.6 * share


def test_hard_search_stays_deterministic() -> None:
    state = endgame()
    view, legal = ENG.view(state, 0), ENG.legal_actions(state, 0)
    bot = HardBot()
    assert not bot.search  # off by default (docs/bots.md)
    bot.search = True
    answers = [bot.choose(view, legal, random.Random(seed)) for seed in range(3)]
    assert all(a in legal for a in answers)
    assert answers == [bot.choose(view, legal, random.Random(seed)) for seed in range(3)]
    # black cards stay in hand while coloured cards fit, with or without the search
    assert all(a is not None and a["card"] != "W" for a in answers)


def test_search_leaves_the_heuristic_only_for_a_clearly_better_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate: another move must win more rollouts on the same deals, by search_z errors."""
    state = endgame()
    view, legal = ENG.view(state, 0), ENG.legal_actions(state, 0)
    heuristic = choice("hard", state, 0)
    assert heuristic == {"type": "play", "card": "Y5"}
    pika = __import__("cardgames.bots.pika", fromlist=["_playout"])

    def rollouts_favour(card: str, noise: float) -> None:
        def fake(st: Any, me: int, rng: random.Random) -> tuple[float, int]:
            won = 1.0 if st.discard[-1] == card else 0.0
            return (won if rng.random() >= noise else 1.0 - won), 30

        monkeypatch.setattr(pika, "_playout", fake)

    bot = HardBot()
    bot.search = True
    rollouts_favour("BR", noise=0.0)  # the blue Reverse wins every rollout, the others none
    assert bot.choose(view, legal, random.Random(1)) == {"type": "play", "card": "BR"}
    rollouts_favour("BR", noise=0.5)  # coin flips: no move is clearly better, the heuristic stays
    kept = [
        bot.choose(view, legal, random.Random(seed)) == choice("hard", state, 0, seed) for seed in range(20)
    ]
    assert sum(kept) >= 17
    rollouts_favour("none", noise=0.0)  # all moves equal
    assert all(
        bot.choose(view, legal, random.Random(seed)) == choice("hard", state, 0, seed) for seed in range(5)
    )


def test_hard_searches_only_in_the_endgame(monkeypatch: pytest.MonkeyPatch) -> None:
    """No search while every rival holds more than ``search_below`` cards: the heuristic alone."""
    pika = __import__("cardgames.bots.pika", fromlist=["_search"])
    searched: list[int] = []
    monkeypatch.setattr(pika, "_search", lambda view, cands, bot, rng: searched.append(1) or cands[0])
    calm = deal([["R+2", "R3", "G5", "B6"], FILLER[:4], FILLER[4:8]], "R7")
    assert choice("hard", calm, 0, search=True) == {"type": "play", "card": "R3"}
    assert not searched
    close = deal([["R+2", "R3", "G5", "B6"], FILLER[:4], FILLER[4:7]], "R7")
    choice("hard", close, 0, search=True)
    assert searched == [1]


def test_hard_move_in_rollouts_is_the_heuristic_on_a_raw_state() -> None:
    """_hard_move picks a move of _Table's best score on states from real games."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = ENG.new_game(4, seed=seed, options={"turn_seconds": None})
        while not ENG.is_over(state) and checked < 2000:
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            if legal[0]["type"] == "call_pika":
                state = ENG.apply(state, seat, legal[0])[0]
                continue
            plays = [a for a in legal if a["type"] in ("play", "keep")]
            if len(plays) > 1:
                table = _Table(ENG.view(state, seat))
                scores = {
                    (a.get("card"), a.get("colour") or a.get("card", " ")[0]): table.score(a) for a in plays
                }
                move = _hard_move(state, seat, rng)
                key = (None, " ") if move is None else move
                assert scores[key] == pytest.approx(max(scores.values()))
                checked += 1
            state = ENG.apply(state, seat, rng.choice(legal))[0]
    assert checked > 300


def test_normal_move_in_rollouts_is_normals_rule_on_a_raw_state() -> None:
    """The rivals' model mixes easy's random move with normal's rule: _normal_move is that rule."""
    rng, bot, checked = random.Random(6), NormalBot(), 0
    for seed in range(15):
        state = ENG.new_game(4, seed=seed, options={"turn_seconds": None})
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            plays = [a for a in legal if a["type"] == "play"]
            if plays:
                hand = list(state.hands[seat])
                values = {(a["card"], a.get("colour") or a["card"][0]): bot.value(a, hand) for a in plays}
                assert values[_normal_move(state, seat, rng)] == max(values.values())
                checked += 1
            elif legal[0]["type"] in ("draw", "take_stack"):
                assert _normal_move(state, seat, rng) is None
            state = ENG.apply(state, seat, rng.choice(legal))[0]
    assert checked > 300


def test_search_rollouts_end_and_model_easy_exactly() -> None:
    view = ENG.view(endgame(), 0)
    rng = random.Random(2)
    st = _determinize(view, rng)
    assert _easy_move(st, 0, rng) in {("Y5", "Y"), ("BR", "B"), ("YS", "Y")} | {("W", c) for c in "RYGB"}
    results = [_rollout(_determinize(view, rng), 0, random.Random(i)) for i in range(40)]
    assert all(0.0 <= r <= 1.0 for r in results) and 0 < sum(results) < 40


# -- normal ----------------------------------------------------------------------------------------
def test_normal_keeps_black_cards_and_follows_its_longest_colour() -> None:
    state = deal([["W", "R3", "G7", "G1", "G2"], FILLER[:5]], "R7")
    bot = NormalBot()
    bot.whim = 0.0
    action = bot.choose(ENG.view(state, 0), ENG.legal_actions(state, 0), random.Random(1))
    assert action == {"type": "play", "card": "G7"}  # number match into green, held most


def test_hard_beats_easy_more_often_than_not_in_a_small_sample() -> None:
    """A smoke check of the ordering (the real figures come from bench.bots, docs/bots.md)."""
    wins = Counter()
    for seed in range(120):
        seat = seed % 4
        levels = ["easy"] * 4
        levels[seat] = "hard"
        wins[seat in play_game("pika", levels, seed=seed)[1]["winners"]] += 1
    assert wins[True] / 120 > 0.25
