"""Pika bots: always legal, deterministic, and the heuristics docs/bots.md promises."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardgames.bots import get_bot
from cardgames.bots.driver import play_game
from cardgames.bots.pika import BOTS, HardBot, NormalBot
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
    return bot.choose(ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(seed), {})[0]


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
        memories: list[dict[str, Any]] = [{} for _ in range(players)]
        # timers on: the lapsing countdown and turn timeouts happen too
        state = ENG.new_game(players, seed=seed, options={"turn_seconds": 30})
        for _ in range(5000):
            if ENG.is_over(state):
                break
            moved = False
            for seat in ENG.to_act(state):
                legal = ENG.legal_actions(state, seat)
                action, memories[seat] = bots[seat].choose(
                    ENG.view(state, seat), legal, rngs[seat], memories[seat]
                )
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


# -- normal ----------------------------------------------------------------------------------------
def test_normal_keeps_black_cards_and_follows_its_longest_colour() -> None:
    state = deal([["W", "R3", "G7", "G1", "G2"], FILLER[:5]], "R7")
    bot = NormalBot()
    bot.whim = 0.0
    action, _ = bot.choose(ENG.view(state, 0), ENG.legal_actions(state, 0), random.Random(1), {})
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
