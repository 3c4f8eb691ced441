"""The engine contract, checked for every registered game (design.md, "The engine contract").

Each check drives random games through the public contract only, for every
game of GAMES (a game without a working engine fails here, it is never skipped).
"""

from __future__ import annotations

import ast
import json
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import GAMES, get_engine
from tests.engines.harness import (
    advanced_state,
    final_state,
    json_round_trip,
    leaked,
    playout,
    rejects,
)

ENGINES_DIR = pathlib.Path(__file__).resolve().parents[2] / "cardgames" / "engines"
SEEDS = range(6)


def _player_counts(eng) -> list[int]:
    return sorted({eng.min_players, eng.max_players, min(eng.max_players, 4)})


def test_registry_lists_the_five_games() -> None:
    assert GAMES == ("one_card", "pika", "puteo", "skyjo", "guandan")
    with pytest.raises(KeyError):
        get_engine("chess")
    for game in GAMES:
        eng = get_engine(game)
        assert eng.name == game and eng is get_engine(game)
        assert 2 <= eng.min_players <= eng.max_players


def test_engines_import_nothing_from_django_and_use_no_clock() -> None:
    forbidden = {"django", "time", "datetime", "channels", "celery", "rest_framework"}
    for path in ENGINES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str) -> None:
    eng = get_engine(game)
    for n in _player_counts(eng):
        a = [eng.dump(s) for s, *_ in playout(eng, n, seed=7)]
        b = [eng.dump(s) for s, *_ in playout(eng, n, seed=7)]
        assert a == b
        c = eng.dump(eng.new_game(n, seed=8))
        assert eng.dump(eng.new_game(n, seed=7)) != c


@pytest.mark.parametrize("game", GAMES)
def test_every_step_keeps_the_contract(game: str) -> None:
    """Round trip, purity, conservation, to_act, and no leaks at every step."""
    eng = get_engine(game)
    for n in _player_counts(eng):
        for seed in SEEDS:
            first = eng.new_game(n, seed=seed)
            cards = eng.all_cards(first)
            for state, _seat, action, new_state in playout(eng, n, seed):
                before = json.dumps(eng.dump(state), sort_keys=True)
                assert eng.to_act(state), "nobody may act in a live game"
                for s in eng.to_act(state):
                    assert eng.legal_actions(state, s), f"seat {s} must act but has no legal action"
                assert eng.dump(json_round_trip(eng, state)) == eng.dump(state)
                assert eng.all_cards(new_state) == cards, f"cards changed after {action}"
                assert json.dumps(eng.dump(state), sort_keys=True) == before, "apply mutated its input"
                for viewer in [None, *range(n)]:
                    assert not leaked(eng, state, viewer), f"seat {viewer} sees {leaked(eng, state, viewer)}"
                json.dumps(eng.view(state, None))
            assert eng.is_over(new_state)


@pytest.mark.parametrize("game", GAMES)
def test_result_ranks_every_seat(game: str) -> None:
    eng = get_engine(game)
    for n in _player_counts(eng):
        for seed in SEEDS:
            state = final_state(eng, n, seed)
            result = eng.result(state)
            places = result["placements"]
            assert len(places) == n and len(result["scores"]) == n
            assert min(places) == 1
            for p in places:  # competition ranking: a place p has p-1 seats strictly before it
                assert sum(1 for q in places if q < p) == p - 1
            assert sorted(result["winners"]) == [s for s in range(n) if places[s] == 1]
            json.dumps(result)


@pytest.mark.parametrize("game", GAMES)
def test_malformed_actions_raise_illegal_action_and_change_nothing(game: str) -> None:
    eng = get_engine(game)
    state = eng.new_game(eng.min_players, seed=3)
    seat = eng.to_act(state)[0]
    bad = [
        None,
        "play",
        {},
        {"type": 3},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "ZZ"},
        {"type": "play", "cards": "nope"},
        {"type": "play", "card": ["AS"]},
        {"type": "bid", "k": "three"},
        {"type": "swap", "pos": 99},
        {"type": "timeout", "timer": "nope"},
    ]
    for action in bad:
        rejects(eng, state, seat, action)
    for wrong_seat in (-1, eng.max_players + 5, "0", None, 1.5):
        legal = eng.legal_actions(state, seat)
        rejects(eng, state, wrong_seat, legal[0])


@pytest.mark.parametrize("game", GAMES)
def test_an_idle_seat_is_told_it_is_not_its_turn(game: str) -> None:
    eng = get_engine(game)
    for seed in SEEDS:
        state = eng.new_game(eng.max_players, seed=seed)
        idle = [s for s in range(eng.max_players) if s not in eng.to_act(state)]
        acting = eng.to_act(state)[0]
        for seat in idle:
            for action in eng.legal_actions(state, acting):
                if action not in eng.legal_actions(state, seat):
                    rejects(eng, state, seat, action)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**31), steps=st.integers(min_value=0, max_value=400))
def test_hypothesis_random_prefixes_round_trip_and_hide_cards(game: str, seed: int, steps: int) -> None:
    eng = get_engine(game)
    n = random.Random(seed).randint(eng.min_players, eng.max_players)
    state = advanced_state(eng, n, seed, steps)
    assert eng.dump(json_round_trip(eng, state)) == eng.dump(state)
    for viewer in [None, *range(n)]:
        assert not leaked(eng, state, viewer)
    assert sum(eng.all_cards(state).values()) == sum(eng.all_cards(eng.new_game(n, seed=seed)).values())
    assert isinstance(eng.timers(state), list)
    for timer in eng.timers(state):
        assert set(timer) >= {"id", "name", "seat", "seconds"}
