"""El Puteo bots: legal and deterministic in whole games, and the behaviour each level promises."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardgames.bots import LEVELS, get_bot
from cardgames.bots.driver import play_game
from cardgames.bots.puteo import BOTS, blind_win_chance, rule_card
from cardgames.engines import get_engine
from cardgames.engines.puteo.cards import CODE_TO_ID, CODES

ENG = get_engine("puteo")
A, B, C, D = 0, 1, 2, 3


def deck_for(*hands: list[str]) -> list[str]:
    top = [card for hand in hands for card in hand]
    return top + [code for code in CODES if code not in top]


def new(n: int, **options: Any) -> Any:
    options.setdefault("turn_seconds", None)
    return ENG.new_game(n, seed=options.pop("seed", 1), options=options)


def choose(level: str, state: Any, seat: int, seed: int = 0) -> dict[str, Any] | None:
    return get_bot("puteo", level).choose(
        ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(seed), {}
    )[0]


def checked_game(levels: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A whole game where every bot answer must be one of the legal actions."""
    bots = [get_bot("puteo", level) for level in levels]
    rngs = [random.Random(f"{seed}:{s}") for s in range(len(levels))]
    state = ENG.new_game(len(levels), seed=seed, options=options)
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        action, memory = bots[seat].choose(ENG.view(state, seat), legal, rngs[seat], {})
        assert memory == {}  # El Puteo bots remember nothing between moves
        assert action in legal, (levels[seat], action, legal)
        state = ENG.apply(state, seat, action)[0]
    result: dict[str, Any] = ENG.result(state)
    return result


def test_bots_registry_has_three_levels() -> None:
    assert set(BOTS) == set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_answer_is_legal_in_many_seeded_games(level: str) -> None:
    sizes = [(2, {}), (3, {"lives": 3}), (4, {}), (6, {}), (10, {"mode": "big"})]
    for seed in range(8 if level == "hard" else 20):
        n, options = sizes[seed % len(sizes)]
        levels = [level if s % 2 == 0 else "easy" for s in range(n)]
        result = checked_game(levels, seed, {"turn_seconds": None, **options})
        assert len(result["placements"]) == n


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level: str) -> None:
    levels = [level, "normal", "easy", level]
    first = play_game("puteo", levels, seed=42)
    second = play_game("puteo", levels, seed=42)
    assert ENG.dump(first[0]) == ENG.dump(second[0]) and first[1] == second[1]


@pytest.mark.parametrize("level", LEVELS)
def test_ready_in_pauses_and_nothing_without_a_legal_action(level: str) -> None:
    state = new(3, start_round=5)
    assert choose(level, state, A) == {"type": "ready"}
    bot = get_bot("puteo", level)
    assert bot.choose(ENG.view(state, A), [], random.Random(0), {}) == (None, {})


def test_rule_card_takes_cheaply_and_sheds_safely() -> None:
    hand = sorted(CODE_TO_ID[c] for c in ["3O", "7C", "11E", "1B"])
    six = CODE_TO_ID["6O"] >> 2
    # still needs a trick: the cheapest card that beats a 6
    assert CODES[rule_card(hand, 1, six, 0)] == "7C"
    # bid made: the strongest card that still loses (a 3 under a 6)
    assert CODES[rule_card(hand, 0, six, 2)] == "3O"
    # an equal card loses to the earlier one (PT-8), so a 7 can be shed under a 7
    assert CODES[rule_card(hand, 0, CODE_TO_ID["7O"] >> 2, 1)] == "7C"
    # leading: the strongest card when tricks are needed, the weakest otherwise
    assert CODES[rule_card(hand, 2, -1, 3)] == "1B" and CODES[rule_card(hand, 0, -1, 3)] == "3O"
    # last to play and every card wins anyway: get rid of the strongest
    assert CODES[rule_card(hand[1:], 0, CODE_TO_ID["2O"] >> 2, 0)] == "1B"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_strong_hand_bids_high_and_weak_hand_bids_zero(level: str) -> None:
    strong = ["1O", "1C", "1E", "1B", "12O"]
    weak = ["2O", "2C", "2E", "2B", "3O"]
    state = new(2, first_dealer=B, deck=deck_for(strong, weak))
    action = choose(level, state, A)
    assert action is not None and action["k"] >= 4
    state = new(2, first_dealer=A, deck=deck_for(strong, weak))
    action = choose(level, state, B)
    assert action == {"type": "bid", "k": 0}


def play_first_trick_to(state: Any, moves: list[tuple[int, str]]) -> Any:
    for seat, card in moves:
        assert ENG.to_act(state) == [seat]
        state = ENG.apply(state, seat, {"type": "play", "card": card})[0]
    return state


def bid_all(state: Any, bids: list[tuple[int, int]]) -> Any:
    for seat, k in bids:
        state = ENG.apply(state, seat, {"type": "bid", "k": k})[0]
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_bot_with_its_bid_made_sheds_its_strongest_losing_card(level: str) -> None:
    # given: dealer C bid 0 with 3C, 4C; B led 5E. Both lose; keeping the 3 is safer later
    hands = (["12E", "11O"], ["5E", "2C"], ["3C", "4C"])
    state = bid_all(new(3, start_round=4, first_dealer=C, deck=deck_for(*hands)), [(A, 1), (B, 0), (C, 0)])
    state = play_first_trick_to(state, [(B, "5E")])
    assert choose(level, state, C) == {"type": "play", "card": "4C"}


def test_normal_takes_a_needed_trick_with_its_cheapest_winner() -> None:
    hands = (["2O", "12E"], ["5E", "2C"], ["6C", "1O"])
    state = bid_all(new(3, start_round=4, first_dealer=B, deck=deck_for(*hands)), [(C, 1), (A, 0), (B, 0)])
    state = play_first_trick_to(state, [(A, "2O"), (B, "5E")])
    assert choose("normal", state, C) == {"type": "play", "card": "6C"}


def test_hard_looks_ahead_instead_of_winning_cheaply() -> None:
    # C needs one trick: the 6 wins now but then the As must win trick 2 as well (two tricks);
    # the As wins now and the 6, led in trick 2, is likely beaten: hard plays the As
    hands = (["2O", "12E"], ["5E", "2C"], ["6C", "1O"])
    state = bid_all(new(3, start_round=4, first_dealer=B, deck=deck_for(*hands)), [(C, 1), (A, 0), (B, 0)])
    state = play_first_trick_to(state, [(A, "2O"), (B, "5E")])
    assert choose("hard", state, C) == {"type": "play", "card": "1O"}


def test_blind_round_inference_from_the_visible_cards() -> None:
    # the others hold 2s: A's unseen card is very likely stronger, so normal and hard bid 1
    weak = new(4, start_round=5, first_dealer=D, deck=deck_for(["1O"], ["2C"], ["2E"], ["2B"]))
    weak = ENG.apply(weak, None, {"type": "timeout", "timer": "reveal"})[0]
    assert blind_win_chance(ENG.view(weak, A), A) == pytest.approx(36 / 37)
    for level in ("normal", "hard"):
        assert choose(level, weak, A) == {"type": "bid", "k": 1}
    # the others hold three Ases: A can only win with the fourth, which comes later than B's As
    strong = new(4, start_round=5, first_dealer=D, deck=deck_for(["7O"], ["1C"], ["1E"], ["1B"]))
    strong = ENG.apply(strong, None, {"type": "timeout", "timer": "reveal"})[0]
    assert blind_win_chance(ENG.view(strong, A), A) == 0.0
    for level in ("normal", "hard"):
        assert choose(level, strong, A) == {"type": "bid", "k": 0}


def test_hard_bot_never_sees_its_own_blind_card() -> None:
    # the view is all a bot gets; in the blind round it carries no trace of the own card
    state = new(4, start_round=5, first_dealer=D, deck=deck_for(["1O"], ["2C"], ["2E"], ["2B"]))
    view = ENG.view(state, A)
    assert "1O" not in str(view)


def test_hard_bid_samples_are_deterministic_given_the_rng() -> None:
    state = new(5, seed=17)
    seat = ENG.to_act(state)[0]
    answers = Counter(str(choose("hard", state, seat, seed=3)) for _ in range(3))
    assert len(answers) == 1
