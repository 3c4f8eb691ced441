"""Play whole games between bots, through the engine contract only.

Used by the benchmarks and tests; the live table service asks bots one move at a time
(``cardgames.bots.decide``) instead, but follows the same protocol and the same "what happens
next" logic: the pure ``cardgames.tables.flow`` module.

Engines have no clock, so a ``BotTable`` keeps a simulated one: a table paces bot moves like
people's, ``MOVE_SECONDS`` each; every timer id starts when first seen (``flow.sync_starts``) and
a window nobody uses (a One Card catch window, a Pika countdown, a pause) lapses at its deadline
(``flow.due``) even while turns go on — a forgotten Pika call costs its penalty (PK-32) as it
would at a real table. Turn timers never lapse here: the bots always act. Each seat's memory
is kept between moves as the table service keeps it on the seat (``cardgames.bots.ask``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from cardgames.bots import Bot, Memory, ask, get_bot
from cardgames.bots.budget import Budget
from cardgames.engines import Engine, get_engine
from cardgames.tables import flow

MAX_STEPS = 100_000
#: seconds a table lets pass per move (bots are paced for the people watching): an assumption
#: of the driver, recorded in docs/decisions.md; the rules fix only the windows' own seconds
MOVE_SECONDS = 2.0
#: the timer the bots always beat: it never lapses at a bot table
TURN = "turn"


@dataclass
class BotTable:
    """A table of bots: one bot, one stream of dice and one memory per seat, and the table's time.

    ``paced=False`` turns the clock off: then windows lapse only when every bot passes.
    """

    bots: list[Bot]
    rngs: list[random.Random]
    memories: list[Memory] = field(default_factory=list)
    paced: bool = True
    now: float = 0.0
    #: the simulated start of every live timer id (``flow.sync_starts``)
    starts: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.memories:
            self.memories = [{} for _ in self.bots]

    @classmethod
    def seated(
        cls, game: str, levels: list[str], seed: int, *, paced: bool = True, budget: Budget | None = None
    ) -> BotTable:
        """``levels[seat]`` bots of ``game`` with the driver's dice: one stream per (seed, seat);
        ``budget``: seconds per decision of the searching bots (``cardgames.bots.get_bot``)."""
        return cls(
            bots=[get_bot(game, level, budget=budget) for level in levels],
            rngs=[random.Random(f"{seed}:{seat}") for seat in range(len(levels))],
            paced=paced,
        )


def _timeout(eng: Engine, state: Any, timer: flow.Timer) -> Any:
    return eng.apply(state, timer["seat"], flow.timeout_action(timer))[0]


def step(eng: Engine, state: Any, table: BotTable) -> Any:
    """One move: a lapsed window (on a paced table), else the first bot in ``to_act`` that wants
    to act, else the timer with the shortest ``seconds`` (every bot passed)."""
    timers = eng.timers(state)
    if table.paced:
        table.starts = flow.sync_starts(timers, table.starts, table.now)
        windows = [t["name"] for t in timers if t["name"] != TURN]
        lapsed = flow.due(timers, table.starts, table.now, names=windows)
        if lapsed:
            return _timeout(eng, state, lapsed[0])
    for seat in eng.to_act(state):
        move = ask(
            table.bots[seat],
            eng.view(state, seat),
            eng.legal_actions(state, seat),
            rng=table.rngs[seat],
            memory=table.memories[seat],
        )
        table.memories[seat] = move.memory  # kept even when the bot passes: it decided something
        if move.action is not None:
            if table.paced:
                table.now += MOVE_SECONDS
            return eng.apply(state, seat, move.action)[0]
    if not timers:
        raise RuntimeError(f"{eng.name}: every bot passed and no timer can lapse")
    # Windows and pauses lapse before anybody's turn clock: the shortest deadline first.
    return _timeout(eng, state, min(timers, key=lambda t: t["seconds"]))


def play_game(
    game: str,
    levels: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    budget: Budget | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Play one game with ``levels[seat]`` bots on a paced ``BotTable``; returns (final state, result).
    ``budget``: seconds per decision of the searching bots (None: their fixed search, no clock)."""
    eng = get_engine(game)
    table = BotTable.seated(game, levels, seed, budget=budget)
    state = eng.new_game(len(levels), seed=seed, options=dict(options or {"turn_seconds": None}))
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return state, eng.result(state)
        state = step(eng, state, table)
    raise RuntimeError(f"{game}: bot game with seed {seed} did not end")
