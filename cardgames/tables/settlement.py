"""The finish of a game: record the result, pay by mode, settle a pot, tell the league — once.

``finish_table`` runs after the last move's commit (``settle_later``) and again from the
sweeper until ``settled_at`` is set, so a crash half-way is finished by the next pass.
Exactly once: the Table row is locked first (Table → Pot → Accounts, the lock order of
docs/architecture.md), ``GameResult`` is one row per table, and the economy's services are
idempotent by key (``reward:table:<id>:<user>``, ``settle:<pot>``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from economy.services import SeatResult, reward_game, settle_pot

from .models import GameResult, Seat, Table

log = logging.getLogger(__name__)

#: sent after the commit that recorded a finished game (the league listens; PF-60)
game_finished = Signal()  # kwargs: game_result


def reward_reference(table: Table) -> str:
    return f"table:{table.pk}"


def settle_later(table_id: int) -> None:
    """After this transaction commits, try to finish the table (the sweeper retries on failure)."""

    def run() -> None:
        try:
            finish_table(table_id=table_id)
        except Exception:
            log.exception("settling table %s failed; the sweeper retries", table_id)

    transaction.on_commit(run)


def _seat_rows(table: Table, placements: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.index,
            "kind": seat.kind,
            "user_id": seat.user_id,
            "name": seat.name,
            "place": placements[seat.index],
        }
        for seat in table.seats.order_by("index")
    ]


def finish_table(*, table_id: int, now: datetime | None = None) -> GameResult | None:
    """Record, pay and announce a finished table's result; a second call changes nothing.

    Lock: the Table row, then (inside the economy's services) the Pot and the accounts.
    """
    moment = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Table.Status.FINISHED or table.result is None:
            return None
        existing = GameResult.objects.filter(table=table).first()
        if table.settled_at is not None:
            return existing
        placements = list(table.result["placements"])
        rows = _seat_rows(table, placements)
        result = existing or GameResult.objects.create(
            table=table,
            game=table.game,
            mode=table.mode,
            seats=rows,
            result=table.result,
            simulated=table.simulated,
            finished_at=table.finished_at or moment,
        )
        if table.mode != Table.Mode.BOTS:
            reward_game(
                reference=reward_reference(table),
                game=table.game,
                mode=table.mode,
                seats=[
                    SeatResult(row["user_id"], row["place"], simulated=row["kind"] == Seat.Kind.SIMULATED)
                    for row in rows
                ],
                now=moment,
            )
        if table.pot_id is not None:
            settle_pot(
                pot=table.pot_id,
                results=[(row["user_id"], row["place"]) for row in rows if row["user_id"] is not None],
            )
        table.settled_at = moment
        table.wake_at = None
        table.save(update_fields=["settled_at", "wake_at"])
        transaction.on_commit(lambda: game_finished.send(sender=GameResult, game_result=result))
        return result
