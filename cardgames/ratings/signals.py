"""Rate every finished game when the settlement announces it (``game_finished``, after commit).

Imported by ``CardgamesConfig.ready``. A failure is logged, never raised: the other receivers (the
league) still hear the signal, and ``manage.py rate_games`` rates what was missed.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import receiver

from cardgames.tables.models import GameResult
from cardgames.tables.settlement import game_finished

from .services import rate_game

log = logging.getLogger(__name__)


@receiver(game_finished, dispatch_uid="cardgames.ratings.rate_finished_game")
def rate_finished_game(sender: Any, *, game_result: GameResult, **kwargs: Any) -> None:
    try:
        rate_game(game_result=game_result)
    except Exception:
        log.exception("rating game result %s failed; manage.py rate_games retries", game_result.pk)
