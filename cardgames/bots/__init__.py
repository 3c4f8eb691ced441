"""Bots for the five games, at three levels (docs/bots.md).

A bot sees only what a player sees: ``view(state, seat)`` and
``legal_actions(state, seat)``, plus a seeded ``random.Random``. Each game
module ``cardgames.bots.<game>`` exposes ``BOTS = {"easy": …, "normal": …, "hard": …}``
whose values are classes with ``choose(view, legal, rng) -> action | None``.

``None`` means "nothing now": allowed only for a seat that may act but need not
(a catch or call window, a pre-call). Whoever drives bots (the table service, the
benchmarks) lets a window's timer lapse when every bot in ``to_act`` says None.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any, Protocol

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


class Bot(Protocol):
    def choose(
        self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any] | None:
        """Pick one of ``legal`` for the seat whose ``view`` this is (None: let the moment pass)."""
        ...


def get_bot(game: str, level: str) -> Bot:
    """A bot instance for ``game`` at ``level`` (easy, normal or hard)."""
    if level not in LEVELS:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    module = import_module(f"cardgames.bots.{game}")
    bot: Bot = module.BOTS[level]()
    return bot


__all__ = ["LEVELS", "Bot", "get_bot"]
