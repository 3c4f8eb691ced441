"""Play whole games between bots, through the engine contract only.

Used by the benchmarks and tests; the live table service asks bots one move at
a time instead, but follows the same protocol (see ``cardgames.bots``).

Engines have no clock, so the driver keeps one (``TableClock``): a table paces bot
moves like people's, ``MOVE_SECONDS`` each, and a window nobody uses (a One Card
catch window, a Pika countdown, a pause) lapses at its deadline even while turns go
on — a forgotten Pika call costs its penalty (PK-32) as it would at a real table.
"""

from __future__ import annotations

import random
from typing import Any

from cardgames.bots import Bot, get_bot
from cardgames.engines import Engine, get_engine

MAX_STEPS = 100_000
#: seconds a table lets pass per move (bots are paced for the people watching): an assumption
#: of the driver, recorded in docs/decisions.md; the rules fix only the windows' own seconds
MOVE_SECONDS = 2.0


class TableClock:
    """Time at a bot table: it advances by ``MOVE_SECONDS`` a move; a timer starts when first seen."""

    def __init__(self) -> None:
        self.now = 0.0
        self._started: dict[str, float] = {}

    def due(self, timers: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The first window or pause whose deadline has passed (turn timers never lapse: bots act)."""
        live = {t["id"] for t in timers}
        for key in [k for k in self._started if k not in live]:
            del self._started[key]  # ended or replaced: a later timer with this id starts afresh
        for timer in timers:
            start = self._started.setdefault(timer["id"], self.now)
            if timer["name"] != "turn" and self.now - start >= timer["seconds"]:
                return timer
        return None

    def tick(self) -> None:
        self.now += MOVE_SECONDS


def step(
    eng: Engine, state: Any, bots: list[Bot], rngs: list[random.Random], clock: TableClock | None = None
) -> Any:
    """One move: a lapsed window (with a clock), else the first bot in ``to_act`` that wants to
    act, else the timer with the shortest deadline."""
    if clock is not None:
        timer = clock.due(eng.timers(state))
        if timer is not None:
            return eng.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
    seats = eng.to_act(state)
    for seat in seats:
        action = bots[seat].choose(eng.view(state, seat), eng.legal_actions(state, seat), rngs[seat])
        if action is not None:
            if clock is not None:
                clock.tick()
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
    """Play one game with ``levels[seat]`` bots on a ``TableClock``; returns (final state, result)."""
    eng = get_engine(game)
    bots = [get_bot(game, level) for level in levels]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    state = eng.new_game(len(levels), seed=seed, options=dict(options or {"turn_seconds": None}))
    clock = TableClock()
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return state, eng.result(state)
        state = step(eng, state, bots, rngs, clock)
    raise RuntimeError(f"{game}: bot game with seed {seed} did not end")
