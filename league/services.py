"""League writes (PF-60): points for finished games, corrections, the weekly close and its prizes.

- ``record_game`` turns a finished online or buy-in game into one point row per registered
  human (``league.points``); it listens to ``cardgames.tables.settlement.game_finished`` and
  is idempotent (one row per (game result, user), enforced by the database).
- ``record_missing_games`` is the safety net for a lost signal: it records any game result
  of a week that has no rows yet (the close and the beat call it).
- ``close_week`` freezes the standings (a snapshot and the prize places, one transaction),
  then pays each prize through ``economy.services.pay_league_prize`` — exactly once, even when
  run twice, concurrently, or again after a crash half-way.
- ``add_correction`` appends a signed row with the admin and the reason; nothing is edited.

Locks: ``close_week`` takes the LeagueWeek row, then (per prize) the LeaguePrize row and,
inside the economy, the accounts in pk order. ``add_correction`` takes the LeagueWeek row,
so a correction and a freeze never interleave.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from cardgames.catalogue import CATALOGUE
from cardgames.tables.models import GameResult
from economy.payouts import LEAGUE_PRIZES
from economy.services import pay_league_prize

from . import selectors
from .errors import LeagueError
from .models import LeaguePoint, LeaguePrize, LeagueWeek
from .points import LEAGUE_MODES, table_points
from .weeks import Week

log = logging.getLogger(__name__)

#: a correction's size is bounded: a sanity limit far above any week's points
MAX_CORRECTION = 1_000_000

# Test hook for failure injection: called with a checkpoint name between the close's steps.
fault_hook: Callable[[str], None] | None = None


def checkpoint(name: str) -> None:
    if fault_hook is not None:
        fault_hook(name)


def ensure_week(week: Week) -> LeagueWeek:
    """The stored row of a week (created on first use)."""
    row, _ = LeagueWeek.objects.get_or_create(key=week.key, defaults={"start": week.start, "end": week.end})
    return row


# --- points of finished games ---------------------------------------------------------------


def record_game(*, game_result: GameResult) -> int:
    """Record the league points of a finished game; returns how many rows this call added.

    PF-15: only modes ``online`` and ``buyin``; PF-60/PF-56/PF-16: 10 × (N − p + 1) for place p
    of N, shared places as ranked, half when a simulated player sat; PF-61: registered humans
    only. The week is the one containing ``finished_at``. Idempotent: a second call adds
    nothing (unique (game result, user) for game rows). A game of a week already frozen is
    recorded (its provenance is real) but no longer changes that week's standings or prizes.
    """
    earned = table_points(mode=game_result.mode, seats=game_result.seats, simulated=game_result.simulated)
    if not earned:
        return 0
    week = selectors.week_for(game_result.finished_at)
    with transaction.atomic():
        row = ensure_week(week)
        before = LeaguePoint.objects.filter(game_result=game_result, kind=LeaguePoint.Kind.GAME).count()
        LeaguePoint.objects.bulk_create(
            [
                LeaguePoint(
                    week=row,
                    user_id=e.user_id,
                    kind=LeaguePoint.Kind.GAME,
                    game=game_result.game,
                    table_id=game_result.table_id,
                    game_result=game_result,
                    seat=e.seat,
                    place=e.place,
                    players=e.players,
                    points=e.points,
                    halved=e.halved,
                    earned_at=game_result.finished_at,
                )
                for e in earned
            ],
            ignore_conflicts=True,
        )
        added = (
            LeaguePoint.objects.filter(game_result=game_result, kind=LeaguePoint.Kind.GAME).count() - before
        )
    if added and row.frozen_at is not None:
        log.warning("league: table %s finished in week %s after its close", game_result.table_id, row.key)
    return added


def record_missing_games(*, week: Week) -> int:
    """Record every online or buy-in game of the week that has no point rows yet (a lost
    ``game_finished`` signal); returns the rows added. Safe to run any time, any number of times."""
    recorded = LeaguePoint.objects.filter(week__key=week.key, kind=LeaguePoint.Kind.GAME).values(
        "game_result_id"
    )
    missing = GameResult.objects.filter(
        mode__in=LEAGUE_MODES, finished_at__gte=week.start, finished_at__lt=week.end
    ).exclude(pk__in=recorded)
    return sum(record_game(game_result=result) for result in missing.order_by("finished_at", "pk"))


def on_game_finished(sender: Any, game_result: GameResult, **kwargs: Any) -> None:
    """``game_finished`` receiver (after the settlement's commit). A failure here must not
    undo or repeat the settlement: it is logged, and the beat's ``record_missing_games``
    records the game later."""
    try:
        record_game(game_result=game_result)
    except Exception:
        log.exception("league: recording table %s failed; the beat retries", game_result.table_id)


# --- corrections ------------------------------------------------------------------------------


def add_correction(
    *,
    user: Any,
    week: Week,
    points: int,
    reason: str,
    actor: Any,
    game: str = "",
    request_id: str = "",
    now: datetime | None = None,
) -> LeaguePoint:
    """Append a signed correction for a player's week, recording the admin and the reason.

    ``request_id`` (the admin form's) makes a repeated post return the first row.
    A correction with a game counts overall and in that game's standings; without, overall
    only. Refused: ``not_staff``, ``invalid_points`` (0, not an int, beyond ±1,000,000),
    ``reason_required``, ``unknown_game``, ``unknown_user``, ``week_not_started``, and
    ``week_closed`` once the week is frozen (its standings and prizes are final).
    Lock: the LeagueWeek row (a freeze waits for it, or it sees the freeze).
    """
    moment = now or timezone.now()
    if actor is None or not getattr(actor, "is_staff", False):
        raise LeagueError("not_staff")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0 or abs(points) > MAX_CORRECTION:
        raise LeagueError("invalid_points")
    reason = (reason or "").strip()
    if not reason:
        raise LeagueError("reason_required")
    if game and game not in CATALOGUE:
        raise LeagueError("unknown_game")
    if user is None or not get_user_model().objects.filter(pk=user.pk).exists():
        raise LeagueError("unknown_user")
    if moment < week.start:
        raise LeagueError("week_not_started")
    request_id = (request_id or "")[:64]
    with transaction.atomic():
        row = LeagueWeek.objects.select_for_update().get(pk=ensure_week(week).pk)
        first = LeaguePoint.objects.filter(request_id=request_id).first() if request_id else None
        if first is not None:
            return first
        if row.frozen_at is not None:
            raise LeagueError("week_closed")
        return LeaguePoint.objects.create(
            week=row,
            user_id=user.pk,
            kind=LeaguePoint.Kind.CORRECTION,
            game=game,
            points=points,
            actor_id=actor.pk,
            reason=reason,
            request_id=request_id,
            earned_at=moment,
        )


# --- the weekly close -----------------------------------------------------------------------


def _freeze(row: LeagueWeek, moment: datetime) -> LeagueWeek:
    """Store the standings snapshot and the prize places, in one transaction, once.

    Lock: the LeagueWeek row. Prize places follow the overall ranking (points, wins, who got
    there first, older account): the first three players with points above zero."""
    with transaction.atomic():
        row = LeagueWeek.objects.select_for_update().get(pk=row.pk)
        if row.frozen_at is not None:
            return row
        by_scope = selectors.live_standings_by_scope(week=selectors.week_of_row(row))
        row.standings = {scope: [entry.as_json() for entry in entries] for scope, entries in by_scope.items()}
        row.frozen_at = moment
        row.save(update_fields=["standings", "frozen_at"])
        winners = [entry for entry in by_scope[selectors.ALL] if entry.points > 0][: len(LEAGUE_PRIZES)]
        LeaguePrize.objects.bulk_create(
            LeaguePrize(
                week=row,
                place=place,
                user_id=entry.user_id,
                points=entry.points,
                amount=LEAGUE_PRIZES[place - 1],
            )
            for place, entry in enumerate(winners, start=1)
        )
        checkpoint("close.in_freeze")
    return row


def _pay(row: LeagueWeek, moment: datetime) -> LeagueWeek:
    """Pay every prize place of a frozen week not yet paid, each in its own transaction.

    Lock: the LeaguePrize row, then the wallet and ``house:prize`` (inside the economy).
    ``pay_league_prize`` is keyed on (week, place): if a crash lost the link between a paid
    transfer and its prize row, the second call returns that transfer and pays nothing."""
    for prize_id in row.prizes.filter(transfer__isnull=True).order_by("place").values_list("pk", flat=True):
        with transaction.atomic():
            prize = LeaguePrize.objects.select_for_update().select_related("user").get(pk=prize_id)
            if prize.transfer_id is not None:
                continue
            prize.transfer = pay_league_prize(user=prize.user, week=row.key, place=prize.place)
            checkpoint("close.in_prize")
            prize.paid_at = moment
            prize.save(update_fields=["transfer", "paid_at"])
        checkpoint("close.after_prize")
    with transaction.atomic():
        row = LeagueWeek.objects.select_for_update().get(pk=row.pk)
        if row.paid_at is None and not row.prizes.filter(transfer__isnull=True).exists():
            row.paid_at = moment
            row.save(update_fields=["paid_at"])
    return row


def close_week(*, week: Week, now: datetime | None = None) -> LeagueWeek:
    """Close a finished week (PF-60): record any game whose signal was lost, freeze the
    standings, pay 1,000 / 500 / 250 to the top three.

    Exactly once: the freeze happens once under the week's row lock, and each prize is paid
    under its row lock through a payment keyed on (week, place); running it twice, at once,
    or again after a crash between any two steps finishes the job without paying twice.
    Refused: ``week_not_over`` before the week's end.
    """
    moment = now or timezone.now()
    if moment < week.end:
        raise LeagueError("week_not_over")
    row = ensure_week(week)
    if row.paid_at is not None:
        return row
    if row.frozen_at is None:
        record_missing_games(week=week)
        row = _freeze(row, moment)
        checkpoint("close.after_freeze")
    return _pay(row, moment)


def close_delay() -> timedelta:
    """How long after a week's end the close waits for the last games' settlement."""
    return timedelta(seconds=settings.LEAGUE_CLOSE_DELAY_SECONDS)


def close_due_weeks(*, now: datetime | None = None) -> list[str]:
    """The beat's work: close every week that ended at least ``close_delay()`` ago and is not
    paid yet (the week just ended included, even with no games), then record any game of the
    current week whose signal was lost. Returns the keys of the weeks closed by this run.
    One week failing (logged) does not stop the others; the next beat tries it again."""
    moment = now or timezone.now()
    current = selectors.current_week(moment)
    last = selectors.previous_week(current)
    if moment >= last.end + close_delay():
        ensure_week(last)
    closed = []
    for row in LeagueWeek.objects.filter(paid_at__isnull=True, end__lte=moment - close_delay()).order_by(
        "start"
    ):
        try:
            close_week(week=selectors.week_of_row(row), now=moment)
        except Exception:
            log.exception("league: closing week %s failed; the next beat retries", row.key)
        else:
            closed.append(row.key)
    record_missing_games(week=current)
    return closed
