"""Database models of cardgames, gathered here so Django finds them: live tables from
``cardgames/tables/models.py``, Rulezz score sheets from ``cardgames/rulezz/models.py``."""

from __future__ import annotations

from .matchmaking.models import QueueEntry  # noqa: F401 (the matchmaking queue, issue 11)
from .ratings.models import PlayerRating, RatingChange  # noqa: F401 (skill ratings, issue 11)
from .rulezz.models import ScoreSheet
from .tables.models import ActionLog, ChatMessage, GameResult, Invitation, Seat, Table

__all__ = ["ActionLog", "ChatMessage", "GameResult", "Invitation", "ScoreSheet", "Seat", "Table"]
