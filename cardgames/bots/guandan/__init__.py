"""Guandan bots at three levels (docs/bots.md, "Guandan"): see ``policies`` for what each does."""

from __future__ import annotations

from .policies import EasyBot, HardBot, NormalBot

BOTS: dict[str, type[EasyBot] | type[NormalBot] | type[HardBot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot"]
