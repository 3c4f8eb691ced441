"""Rulezz: the Skyjo score assistant for games played with physical cards (SK-35 to SK-39).

Pure Python (no Django). The Skyjo engine uses the same scoring module for the
closer doubling and the end of the game, so there is one implementation.

    from cardgames.rulezz import score_sheet, Sheet, RoundEntry, RulezzError
"""

from __future__ import annotations

from .scoring import (
    END_AT,
    MAX_PLAYERS,
    MAX_POINTS,
    MIN_PLAYERS,
    MIN_POINTS,
    RoundEntry,
    RulezzError,
    ScoredRound,
    Sheet,
    SheetResult,
    closer_is_doubled,
    game_over,
    placements,
    round_scores,
    score_sheet,
    winners,
)

__all__ = [
    "END_AT",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MIN_PLAYERS",
    "MIN_POINTS",
    "RoundEntry",
    "RulezzError",
    "ScoredRound",
    "Sheet",
    "SheetResult",
    "closer_is_doubled",
    "game_over",
    "placements",
    "round_scores",
    "score_sheet",
    "winners",
]
