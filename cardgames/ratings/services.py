"""The only writer of skill ratings: ``rate_game`` rates one finished online or buy-in game, once.

Who takes part: every seat of the game, with its place. Registered players (``human`` seats with a
user) are rated; simulated players and bots take part with the fixed ``FIXED_SIMULATED`` skill and
are never updated; guests take part as a new person would and are never rated (PF-61: guests earn
nothing). Games of the modes ``bots`` and ``friends`` are not rated.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from cardgames.tables.models import GameResult, Seat, Table

from .models import PlayerRating, RatingChange
from .skill import DEFAULT, FIXED_SIMULATED, Entrant, rate

log = logging.getLogger(__name__)

#: PF-15/PF-60: only online tables count, buy-in tables included
RATED_MODES = frozenset({Table.Mode.ONLINE, Table.Mode.BUYIN})


def rated_user(row: dict[str, Any]) -> int | None:
    """The user a ``GameResult.seats`` row rates, or None (guest, bot, simulated)."""
    if row.get("kind") == Seat.Kind.HUMAN and row.get("user_id") is not None:
        return int(row["user_id"])
    return None


def _entrant(row: dict[str, Any], current: dict[int, PlayerRating]) -> Entrant:
    user_id = rated_user(row)
    if user_id is not None:
        return Entrant(current[user_id].skill, int(row["place"]))
    if row.get("kind") in (Seat.Kind.SIMULATED, Seat.Kind.BOT):
        return Entrant(FIXED_SIMULATED, int(row["place"]), fixed=True)
    return Entrant(DEFAULT, int(row["place"]), fixed=True)  # a guest: a new person, not kept


def rate_game(*, game_result: GameResult | int, now: datetime | None = None) -> list[RatingChange]:
    """Rate a finished game's registered players; a second call changes nothing and returns the
    rows of the first. Returns [] for modes that are not rated or games without a registered player.

    Lock: the GameResult row, then the players' ``PlayerRating`` rows in user-id order.
    """
    result_id = game_result if isinstance(game_result, int) else game_result.pk
    moment = now or timezone.now()
    with transaction.atomic():
        result = GameResult.objects.select_for_update().get(pk=result_id)
        if result.mode not in RATED_MODES:
            return []
        done = list(RatingChange.objects.filter(game_result=result).order_by("user_id"))
        if done:
            return done
        rows = sorted(result.seats, key=lambda row: row["seat"])
        user_ids = sorted({uid for uid in map(rated_user, rows) if uid is not None})
        if not user_ids:
            return []
        for user_id in user_ids:
            PlayerRating.objects.get_or_create(user_id=user_id, game=result.game)
        current = {
            rating.user_id: rating
            for rating in PlayerRating.objects.select_for_update()
            .filter(game=result.game, user_id__in=user_ids)
            .order_by("user_id")
        }
        after = rate(result.game, [_entrant(row, current) for row in rows])
        changes = []
        for row, new in zip(rows, after, strict=True):
            user_id = rated_user(row)
            if user_id is None:
                continue
            rating = current[user_id]
            changes.append(
                RatingChange(
                    user_id=user_id,
                    game=result.game,
                    game_result=result,
                    place=int(row["place"]),
                    mu_before=rating.mu,
                    sigma_before=rating.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    at=result.finished_at,
                )
            )
            rating.mu, rating.sigma = new.mu, new.sigma
            rating.games += 1
            rating.updated_at = moment
            rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingChange.objects.bulk_create(changes)
        return sorted(changes, key=lambda change: change.user_id)


def rate_unrated_games(*, now: datetime | None = None) -> int:
    """Rate, oldest first, the finished online and buy-in games that have no rating rows yet (a
    backfill, or a retry after ``game_finished``'s receiver failed). Returns how many it rated."""
    pending = list(
        GameResult.objects.filter(mode__in=RATED_MODES, rating_changes__isnull=True)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return sum(1 for pk in pending if rate_game(game_result=pk, now=now))
