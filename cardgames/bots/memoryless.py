"""The base of the bots that remember nothing between moves (El Puteo, Skyjo, Guandan).

Their policy is ``act(view, legal, rng)``; ``choose`` wraps it in the interface of
``cardgames.bots.Bot`` and returns an empty memory.
"""

from __future__ import annotations

import random
from typing import Any


class Memoryless:
    """A bot whose every move follows from the view, the legal actions and the dice alone."""

    def choose(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, memory: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        return self.act(view, legal, rng), {}

    def act(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        raise NotImplementedError
