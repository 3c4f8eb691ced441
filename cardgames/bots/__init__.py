"""Bots for the five games, at three levels (docs/bots.md).

A bot sees only what a player sees: ``view(state, seat)`` and
``legal_actions(state, seat)``, plus a seeded ``random.Random`` and its own memory.
Each game module ``cardgames.bots.<game>`` exposes ``BOTS = {"easy": …, "normal": …, "hard": …}``
whose values are classes with
``choose(view, legal, rng, memory) -> (action | None, memory)``.

Bots are stateless: whatever a bot must remember between moves (One Card's decision to
forget a call in this two-card episode, its plan for a catch window, Pika's decision for a
countdown) is the JSON dict ``memory``, passed in and returned, never kept on the instance
and never mutated in place. The table service stores it on the seat, so any process may
ask a bot, twice, and get the same move (design.md): ``decide`` with the same view, legal
actions, memory and a ``bot_rng`` for the same (table, seat, version) answers the same.

``None`` means "nothing now": allowed only for a seat that may act but need not
(a catch or call window, a pre-call). Whoever drives bots (the table service, the
benchmarks) keeps the returned memory even then, and lets a window's timer lapse when
every bot in ``to_act`` says None.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from cardgames.bots.budget import Budget

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

Action = dict[str, Any]
View = dict[str, Any]
Memory = dict[str, Any]


class Bot(Protocol):
    def choose(
        self, view: View, legal: list[Action], rng: random.Random, memory: Memory
    ) -> tuple[Action | None, Memory]:
        """Pick one of ``legal`` for the seat whose ``view`` this is (None: let the moment pass),
        and the memory to keep until the next ask (a new dict; ``memory`` is left as it was)."""
        ...


@dataclass(frozen=True)
class BotMove:
    """A bot's answer: the action (None: nothing now) and the memory to store for its seat."""

    action: dict[str, Any] | None
    memory: dict[str, Any]


def _bot_class(game: str, level: str) -> type[Bot]:
    if level not in LEVELS:
        raise KeyError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    from cardgames.engines import GAMES

    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    cls: type[Bot] = import_module(f"cardgames.bots.{game}").BOTS[level]
    return cls


def get_bot(game: str, level: str, *, budget: Budget | None = None) -> Bot:
    """A bot instance for ``game`` at ``level`` (easy, normal or hard); bots keep no state.

    ``budget``: the thinking time per decision, with its clock, for a bot that searches (a class
    with ``searches = True``; ``cardgames/bots/budget.py``); the others ignore it. None: the
    search's fixed size, no clock.
    """
    cls = _bot_class(game, level)
    if budget is not None and getattr(cls, "searches", False):
        return cls(budget=budget)  # type: ignore[call-arg]
    return cls()


def searches(game: str, level: str) -> bool:
    """Does the ``level`` bot of ``game`` search (class attribute ``searches``)? Such a bot spends its
    whole budget on every decision, so the table service asks it outside the table's lock."""
    return bool(getattr(_bot_class(game, level), "searches", False))


def _as_json(memory: Memory) -> Memory:
    """A fresh copy of ``memory`` exactly as a JSON column gives it back (strict JSON: no NaN)."""
    copy: Memory = json.loads(json.dumps(memory, allow_nan=False))
    return copy


def ask(bot: Bot, view: View, legal: list[Action], *, rng: random.Random, memory: Memory | None) -> BotMove:
    """Ask ``bot`` for a move. The bot gets a copy of ``memory`` and its answer's memory is passed
    through JSON, so a driver that keeps memories in a list sees what a stored seat would."""
    action, new_memory = bot.choose(view, legal, rng, _as_json(memory or {}))
    return BotMove(action, _as_json(new_memory))


def decide(
    game: str,
    level: str,
    view: View,
    legal: list[Action],
    *,
    rng: random.Random,
    memory: Memory | None,
    budget: Budget | None = None,
) -> BotMove:
    """The move of a ``level`` bot of ``game`` for the seat whose ``view`` and ``legal`` these are.

    ``memory`` is what the seat's last ``BotMove`` returned (None or {} for a fresh seat). Store the
    returned memory even when the action is None (a bot that decided to forget a call keeps to it).
    ``budget``: the seconds a searching (hard) bot may think (``get_bot``); it answers by then.
    """
    return ask(get_bot(game, level, budget=budget), view, legal, rng=rng, memory=memory)


def bot_rng(table: str | int, seat: int, version: int) -> random.Random:
    """The dice of the bot in ``seat`` at ``table`` when the table is at ``version``: the same in
    every process and on every ask, so a bot asked twice (or by another worker) decides the same."""
    key = f"tapete-bot:{table}:{seat}:{version}".encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=16).digest(), "big"))


def reaction_seconds(game: str, level: str, action: dict[str, Any] | None) -> float:
    """How long a bot waits before sending ``action``: PF-50's catch delay for One Card (easy 3.5 s,
    normal 2.5 s, hard 1.2 s, the class attribute ``catch_delay``), else 0.0."""
    if action is None or action.get("type") != "catch":
        return 0.0
    return float(getattr(_bot_class(game, level), "catch_delay", 0.0))


__all__ = [
    "LEVELS",
    "Bot",
    "BotMove",
    "Budget",
    "Memory",
    "ask",
    "bot_rng",
    "decide",
    "get_bot",
    "reaction_seconds",
    "searches",
]
