"""The thinking time of a searching bot: a per-decision budget and its deadline (docs/bots.md).

A hard bot that searches gets a budget in seconds from whoever asks it (the table service reads
``settings.BOT_HARD_BUDGET_SECONDS``, the benchmarks their own flag) and must answer by the
deadline: it searches in small steps, looks at its ``Deadline`` between steps and answers with
what it has found so far (anytime search), or with its fallback move when no step fitted.

``budget=None`` means no clock at all: the search runs its fixed number of steps, so its move
depends only on the view, the legal actions, the memory and the dice (tests, fingerprints).
The clock is injectable so that tests can drive time without depending on the machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


class Deadline:
    """The moment a decision must be returned: ``seconds`` after it is made (None: never)."""

    __slots__ = ("clock", "end")

    def __init__(self, seconds: float | None, clock: Clock = time.perf_counter) -> None:
        self.clock = clock
        self.end: float | None = None if seconds is None else clock() + max(0.0, seconds)

    @property
    def timed(self) -> bool:
        """True when a clock bounds the search (False: it runs its fixed number of steps)."""
        return self.end is not None

    def passed(self) -> bool:
        """True once the deadline is reached (always False without a budget)."""
        return self.end is not None and self.clock() >= self.end


__all__ = ["Clock", "Deadline"]
