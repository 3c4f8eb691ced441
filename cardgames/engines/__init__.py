"""Pure rules engines, one per game, behind one contract (docs/engines.md).

from cardgames.engines import get_engine, GAMES
eng = get_engine("one_card")
"""

from __future__ import annotations

from importlib import import_module

from .base import Engine, IllegalAction

GAMES: tuple[str, ...] = ("one_card", "pika", "puteo", "skyjo", "guandan")

# name -> "module:Class"; imported lazily so one broken engine cannot take the others down
_REGISTRY: dict[str, str] = {
    "one_card": "cardgames.engines.one_card:OneCardEngine",
    "pika": "cardgames.engines.pika:PikaEngine",
    "puteo": "cardgames.engines.puteo:PuteoEngine",
    "skyjo": "cardgames.engines.skyjo:SkyjoEngine",
    "guandan": "cardgames.engines.guandan:GuandanEngine",
}
_INSTANCES: dict[str, Engine] = {}


def get_engine(name: str) -> Engine:
    """The engine for ``name`` (one of GAMES); engines are stateless singletons."""
    if name not in _REGISTRY:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    if name not in _INSTANCES:
        module_name, class_name = _REGISTRY[name].split(":")
        _INSTANCES[name] = getattr(import_module(module_name), class_name)()
    return _INSTANCES[name]


__all__ = ["GAMES", "Engine", "IllegalAction", "get_engine"]
