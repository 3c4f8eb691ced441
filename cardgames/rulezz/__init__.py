"""Rulezz: the Skyjo score assistant for games played with physical cards (SK-35 to SK-39, PF-38, PF-39).

All of Rulezz is in this package:

- ``scoring``: pure Python (no Django) — the ``Sheet``, validation, totals; the closer doubling,
  totals and the end of the game come from the Skyjo engine's ``cardgames.engines.skyjo.scoring``,
  so there is one implementation. This ``__init__`` re-exports it and imports nothing else.
- ``models`` (``ScoreSheet``, in the ``cardgames`` app), ``stores`` (a user's sheets in the
  database, a guest's in their session), ``services`` (writes), ``selectors`` (reads),
  ``messages`` (translated error messages), ``views`` + ``urls`` (pages), ``api`` + ``api_urls``
  (JSON API), ``admin``.

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
