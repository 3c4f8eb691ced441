"""Play whole games between bots, through the engine contract only.

Used by the benchmarks and tests; the live table service asks bots one move at
a time instead, but follows the same protocol (see ``cardgames.bots``).
"""

from __future__ import annotations

import random
from typing import Any

from cardgames.bots import Bot, get_bot
from cardgames.engines import Engine, get_engine

MAX_STEPS = 100_000


def step(eng: Engine, state: Any, bots: list[Bot], rngs: list[random.Random]) -> Any:
    """One move: the first bot in ``to_act`` that wants to act, else a lapsing timer."""
    seats = eng.to_act(state)
    for seat in seats:
        action = bots[seat].choose(eng.view(state, seat), eng.legal_actions(state, seat), rngs[seat])
        if action is not None:
            return eng.apply(state, seat, action)[0]
    timers = eng.timers(state)
    if not timers:
        raise RuntimeError(f"{eng.name}: every bot passed and no timer can lapse")
    # Windows and pauses lapse before anybody's turn clock: the shortest deadline first.
    timer = min(timers, key=lambda t: t["seconds"])
    return eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]


def play_game(
    game: str,
    levels: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Play one game with ``levels[seat]`` bots; returns (final state, result)."""
    eng = get_engine(game)
    bots = [get_bot(game, level) for level in levels]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    state = eng.new_game(len(levels), seed=seed, options=dict(options or {"turn_seconds": None}))
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return state, eng.result(state)
        state = step(eng, state, bots, rngs)
    raise RuntimeError(f"{game}: bot game with seed {seed} did not end")
