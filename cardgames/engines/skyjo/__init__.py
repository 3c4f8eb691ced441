"""Skyjo (rules: ../shared/rules/skyjo.md, seed 003): 2-8 players, rounds until someone reaches 100.

Summary with rule IDs:
- SK-2: 150 cards, values -2..12 (5 x -2, 10 x -1, 15 x 0, 10 of each other value); codes are "-2" .. "12".
- SK-3/SK-4: 12 face-down cards per seat in 4 columns x 3 rows (the i-th dealt card at position i,
  reading order), a discard starter, the rest the draw pile.
- SK-5/SK-6/SK-7: everyone reveals two cards at once; round 1 starts with the highest pair (ties: the
  higher card, then at random); later rounds with the previous closer. SK-8: ascending seats.
- SK-9 to SK-13: take the discard and swap it, or draw (public) and swap it or discard it and reveal.
- SK-14 to SK-17: a column of three face-up equal values goes to the discard pile, also at the final reveal.
- SK-18 to SK-20: the first seat with every card face up closes; every other seat plays once more.
- SK-21 to SK-26: scoring (closer doubling, totals, end at 100, ties share) in ``scoring`` (also Rulezz).
- SK-27 to SK-29: face-down values are hidden from everyone, the owner included.
- SK-30 to SK-32: timers (reveal, turn, 8 s score screen) and their automatic actions.

Options and the fixed-deck rules are documented on ``SkyjoEngine.new_game``.
"""

from __future__ import annotations

from .engine import SkyjoEngine
from .state import CARD_CODES, COUNTS, FULL_DECK, SkyjoState

__all__ = ["CARD_CODES", "COUNTS", "FULL_DECK", "SkyjoEngine", "SkyjoState"]
