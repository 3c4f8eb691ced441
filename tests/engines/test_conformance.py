"""The engine contract, checked for every registered game (design.md, "The engine contract").

Each check drives random games through the public contract only, for every
game of GAMES (a game without a working engine fails here, it is never skipped).
"""

from __future__ import annotations

import ast
import json
import pathlib
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.catalogue import CATALOGUE
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


@pytest.mark.parametrize("game", GAMES)
def test_each_engine_seats_the_catalogues_player_range(game: str) -> None:
    """PF-1/PF-12 (One Card, Pika 2–4), PF-37 (El Puteo 2–12 in big mode), PF-41 (Skyjo 2–8),
    PF-43 (Guandan 4): the engine's class attributes agree with the one catalogue, and the engine
    deals exactly that range."""
    spec = CATALOGUE[game]
    eng = get_engine(game)
    assert spec.engine == f"{type(eng).__module__.rpartition('.')[0]}:{type(eng).__name__}"
    assert (eng.min_players, eng.max_players) == (spec.min_players, spec.max_players)
    for n in spec.player_range():
        options = {"mode": "big"} if game == "puteo" and n > 8 else {}
        assert eng.to_act(eng.new_game(n, seed=1, options=options))
    for n in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError):
            eng.new_game(n, seed=1)


#: standard-library modules an engine must not use all the same: the clock (design.md: no clock)
NO_CLOCK = {"time", "datetime"}


def _imports(source: str, module: str) -> list[str]:
    """The absolute names of every module ``source`` imports; ``module`` is its own dotted name
    (a package's ``__init__`` is the package), to resolve relative imports."""
    package = module if module.endswith("__init__") else module.rpartition(".")[0]
    package = package.removesuffix(".__init__")
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - (node.level - 1)]
                found.append(".".join([*base, *([node.module] if node.module else [])]))
            else:
                found.append(node.module or "")
    return found


def _outside_the_engines(name: str) -> bool:
    top = name.split(".")[0]
    if top in sys.stdlib_module_names:
        return top in NO_CLOCK
    return not (name == "cardgames.engines" or name.startswith("cardgames.engines."))


def test_engines_import_only_the_stdlib_and_each_other_and_use_no_clock() -> None:
    """design.md: engines are pure — no Django, no clock, and no other part of the site (SK-22's
    scoring lives in the Skyjo engine and Rulezz imports it, never the other way round). The one
    exception is the registry (``cardgames/engines/__init__.py``), which reads the game catalogue
    (PF-1/PF-12/PF-37/PF-41/PF-43 player ranges), itself pure: it imports only the stdlib."""
    root = ENGINES_DIR.parents[1]
    for path in ENGINES_DIR.rglob("*.py"):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for name in _imports(path.read_text(), module):
            if module == "cardgames.engines.__init__" and name == "cardgames.catalogue":
                continue
            assert not _outside_the_engines(name), f"{module} imports {name}"
    catalogue = root / "cardgames" / "catalogue.py"
    for name in _imports(catalogue.read_text(), "cardgames.catalogue"):
        assert name.split(".")[0] in sys.stdlib_module_names and name.split(".")[0] not in NO_CLOCK, name


def test_the_purity_check_catches_imports_from_outside() -> None:
    """The check above resolves relative imports and refuses features, Django and the clock."""
    module = "cardgames.engines.skyjo.moves"
    assert _imports("from ..base import JSON\nfrom .scoring import x", module) == [
        "cardgames.engines.base",
        "cardgames.engines.skyjo.scoring",
    ]
    assert _imports("from ... import rulezz", module) == ["cardgames"]
    for bad in (
        "from cardgames.rulezz.scoring import round_scores",
        "from ...rulezz import scoring",
        "import django.db",
        "import time",
        "from datetime import datetime",
        "import hypothesis",
    ):
        assert any(_outside_the_engines(name) for name in _imports(bad, module)), bad
    for good in ("import random", "from collections import Counter", "from cardgames.engines import base"):
        assert not any(_outside_the_engines(name) for name in _imports(good, module)), good


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
def test_a_spectator_has_no_hand(game: str) -> None:
    """docs/protocol.md: a spectator's ``view.hand`` is null (no hand, no controls), at every step
    and at the end; a game without private hands (Skyjo) has no ``hand`` at all."""
    eng = get_engine(game)
    n = _player_counts(eng)[0]
    final = None
    for state, _seat, _action, new_state in playout(eng, n, SEEDS[0]):
        assert eng.view(state, None).get("hand") is None
        final = new_state
    assert final is not None and eng.view(final, None).get("hand") is None


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


@pytest.mark.parametrize("game", GAMES)
def test_dump_format_1_and_format_0_dumps_still_load(game: str) -> None:
    """A live table's snapshot may outlive the code that wrote it (PF-54: rooms live for hours, a
    deploy can land in between): every dump says ``"format": 1``, a dump without the key (format 0,
    what the engines wrote before) loads to an equal state, and a newer format is refused."""
    eng = get_engine(game)
    n = eng.min_players
    for steps in (0, 25, 10_000):
        state = advanced_state(eng, n, seed=steps, steps=steps)
        data = eng.dump(state)
        assert data["format"] == 1
        old = json.loads(json.dumps({k: v for k, v in data.items() if k != "format"}))
        assert eng.dump(eng.load(old)) == data
        assert eng.dump(eng.load({**old, "format": 0})) == data
        for future in (99, 2, -1, "1", 1.0, True, None):
            with pytest.raises(ValueError, match="format"):
                eng.load({**data, "format": future})
    with pytest.raises(ValueError):
        eng.load([])
