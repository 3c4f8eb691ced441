"""The thinking time of a searching bot: a per-decision budget and its deadline (docs/bots.md).

A hard bot that searches gets a budget in seconds from whoever asks it (the table service reads
``settings.BOT_HARD_BUDGET_SECONDS``, the benchmarks their own flag) and must answer by the
deadline: it searches in small steps, looks at its ``Deadline`` between steps and answers with
what it has found so far (anytime search), or with its fallback move when no step fitted.

``budget=None`` means no clock at all: the search runs its fixed number of steps, so its move
depends only on the view, the legal actions, the memory and the dice (tests, fingerprints).
The clock comes with the budget, from the caller (the table service and the benchmarks pass
``time.perf_counter``): the bots, like the engines, never read a clock of their own (design.md:
time enters as an argument), and tests drive time without depending on the machine's speed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


@dataclass(frozen=True)
class Budget:
    """A searching bot's thinking time per decision, in ``seconds`` read on ``clock``."""

    seconds: float
    clock: Clock


class Deadline:
    """The moment a decision must be returned: the budget's seconds after it is made (None: never)."""

    __slots__ = ("clock", "end")

    def __init__(self, budget: Budget | None) -> None:
        self.clock: Clock | None = None if budget is None else budget.clock
        self.end: float | None = None if budget is None else budget.clock() + max(0.0, budget.seconds)

    @property
    def timed(self) -> bool:
        """True when a clock bounds the search (False: it runs its fixed number of steps)."""
        return self.end is not None

    def passed(self) -> bool:
        """True once the deadline is reached (always False without a budget)."""
        return self.end is not None and self.clock is not None and self.clock() >= self.end


__all__ = ["Budget", "Clock", "Deadline"]
