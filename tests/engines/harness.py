"""Shared machinery of the conformance suite: random playouts and invariant checks.

Every engine registered in ``cardgames.engines.GAMES`` is driven only through
the public contract (plus the two test hooks ``all_cards`` and ``visible_cards``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardgames.engines import Engine, IllegalAction

MAX_STEPS = 60_000
TIMEOUT_PROBABILITY = 0.08


def cards_in(data: Any, codes: frozenset[str]) -> Counter[str]:
    """Every card code found anywhere in a JSON value (keys included)."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in codes:
                found[item] += 1
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def leaked(eng: Engine, state: Any, seat: int | None) -> Counter[str]:
    """Cards in ``view(state, seat)`` beyond what the seat may see (empty = no leak)."""
    shown = cards_in(eng.view(state, seat), eng.card_codes)
    return shown - eng.visible_cards(state, seat)


def random_step(eng: Engine, state: Any, rng: random.Random) -> tuple[int | None, dict[str, Any]]:
    """A seat and action as a random player or a lapsing clock would choose them."""
    timers = eng.timers(state)
    if timers and rng.random() < TIMEOUT_PROBABILITY:
        timer = rng.choice(timers)
        return timer["seat"], {"type": "timeout", "timer": timer["name"]}
    seat = rng.choice(eng.to_act(state))
    return seat, rng.choice(eng.legal_actions(state, seat))


def playout(
    eng: Engine, num_players: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[Any, int | None, dict[str, Any], Any]]:
    """Yield (state, seat, action, next_state) for one random game until it ends."""
    rng = random.Random(seed)
    state = eng.new_game(num_players, seed=seed, options=options or {})
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return
        seat, action = random_step(eng, state, rng)
        new_state, _events = eng.apply(state, seat, action)
        yield state, seat, action, new_state
        state = new_state
    raise AssertionError(f"{eng.name}: game with seed {seed} did not end within {MAX_STEPS} steps")


def advanced_state(
    eng: Engine, num_players: int, seed: int, steps: int, options: dict[str, Any] | None = None
) -> Any:
    """The state after ``steps`` random moves (or the final state, if the game ends first)."""
    state = eng.new_game(num_players, seed=seed, options=options or {})
    for i, (_, _, _, new_state) in enumerate(playout(eng, num_players, seed, options)):
        if i >= steps:
            break
        state = new_state
    return state


def final_state(eng: Engine, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
    return advanced_state(eng, num_players, seed, MAX_STEPS, options)


def json_round_trip(eng: Engine, state: Any) -> Any:
    return eng.load(json.loads(json.dumps(eng.dump(state))))


def rejects(eng: Engine, state: Any, seat: Any, action: Any) -> IllegalAction:
    """Apply an action that must be refused; return the error and check nothing moved."""
    before = json.dumps(eng.dump(state), sort_keys=True)
    try:
        eng.apply(state, seat, action)
    except IllegalAction as err:
        assert json.dumps(eng.dump(state), sort_keys=True) == before
        return err
    raise AssertionError(f"{eng.name}: {action!r} by seat {seat!r} was accepted")
