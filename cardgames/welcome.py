"""The welcome coins of a sign-up unlock with its first finished game (issue 13, PF-57).

``accounts.services.create_account`` creates the account with ``welcome_pending`` set, and the
economy's post-save grant (``economy/signals.py``) skips such an account. When a game
finishes (``cardgames.tables.settlement.game_finished``, after the settlement's commit),
every seated user still waiting who made at least one move of their own in it gets
``economy.services.grant_welcome`` (idempotent, key ``welcome:<user>``) and the flag is
cleared in the same transaction. Accounts made any other way (the admin, tests, fixtures)
keep the grant at creation. Why: an account farm must now play a whole game per account,
on top of the sign-up limit per address (docs/decisions.md). It lives with the games, which
know who played (``CardgamesConfig.ready`` connects it), so that ``accounts`` stays below the
games and the economy (``tests/test_service_boundary.py``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

log = logging.getLogger(__name__)


def unlock_welcome(*, user_id: int) -> bool:
    """Grant ``user_id``'s pending welcome coins now; False if none were pending.

    Lock: the user's row, then (in the economy) the wallet and ``house:welcome``.
    """
    from accounts.models import User
    from economy.services import grant_welcome

    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id, welcome_pending=True).first()
        if user is None:
            return False
        grant_welcome(user=user)
        user.welcome_pending = False
        user.save(update_fields=["welcome_pending"])
    return True


def unlock_for_game(*, game_result: Any) -> list[int]:
    """Unlock the welcome of each waiting user who played (moved at least once) in this game."""
    from accounts.models import User

    from .tables.models import ActionLog

    seats = {row["user_id"]: row["seat"] for row in game_result.seats if row.get("user_id") is not None}
    waiting = User.objects.filter(pk__in=seats, welcome_pending=True).values_list("pk", flat=True)
    unlocked = []
    for user_id in waiting:
        played = ActionLog.objects.filter(
            table_id=game_result.table_id, seat=seats[user_id], source=ActionLog.Source.PLAYER
        ).exists()
        if played and unlock_welcome(user_id=user_id):
            unlocked.append(user_id)
    return unlocked


def on_game_finished(sender: Any, *, game_result: Any, **kwargs: Any) -> None:
    try:
        unlock_for_game(game_result=game_result)
    except Exception:  # the other receivers (ratings, league) must still hear the signal
        log.exception("welcome unlock for game result %s failed", game_result.pk)
