"""Skyjo bots at three levels (rules: ../shared/rules/skyjo.md; docs/bots.md, "## Skyjo").

A bot sees only ``view(state, seat)`` and the legal actions. Everything in Skyjo
is public except face-down values (SK-27/SK-28), so the unseen-card distribution
is the 150-card deck (SK-2) minus every card the view shows (face-up grid cards,
the discard's top, a held card). The discard pile below its top is not
browsable (SK-29), so those cards stay in the "unseen" pool: a small bias that
a stateless bot accepts.

- easy: a beginner. Keeps low cards (drawn: up to 4, discard: up to 2), puts
  them over its highest face-up card or a random face-down one, reveals at
  random, and sometimes (20 %) does something arbitrary. Blind to columns and
  to the closer doubling.
- normal: thresholds plus column building (SK-14) and a guard against closing
  a round it would not win (SK-22).
- hard: expected values. Each option (take the discard, draw, where to swap,
  what to reveal) is scored by the expected value of its own grid, where a
  face-down card is worth the mean of the unseen cards, a column with a pair
  is discounted by the chance to complete it (at the final reveal or in the
  turns left), and closing the round is weighed against the chance of the
  doubling given the rivals' visible boards (SK-18, SK-22). It also decides
  between the discard and a draw by the expected value over the unseen cards.
"""

from __future__ import annotations

from .board import PATIENCE, Table
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot

BOTS: dict[str, type[EasyBot] | type[NormalBot] | type[HardBot]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
}

__all__ = ["BOTS", "PATIENCE", "EasyBot", "HardBot", "NormalBot", "Table"]
