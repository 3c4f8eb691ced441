"""Pure rules engines, one per game, behind one contract (docs/engines.md).

from cardgames.engines import get_engine, GAMES
eng = get_engine("one_card")

Which games exist and which class plays each comes from the one game catalogue
(``cardgames.catalogue``, pure like the engines); the engines keep their own ``min_players`` /
``max_players`` (a test checks that they agree with the catalogue).
"""

from __future__ import annotations

from importlib import import_module

from cardgames.catalogue import CATALOGUE, GAMES

from .base import Engine, IllegalAction

_INSTANCES: dict[str, Engine] = {}


def get_engine(name: str) -> Engine:
    """The engine for ``name`` (one of GAMES); engines are stateless singletons.

    Engine modules are imported lazily (on first use), so one broken engine cannot take the
    others down.
    """
    spec = CATALOGUE.get(name) if isinstance(name, str) else None
    if spec is None:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    if name not in _INSTANCES:
        module_name, class_name = spec.engine.split(":")
        _INSTANCES[name] = getattr(import_module(module_name), class_name)()
    return _INSTANCES[name]


__all__ = ["GAMES", "Engine", "IllegalAction", "get_engine"]
