"""The finish of a game: record the result, pay by mode, settle a pot, tell the league — once.

``finish_table`` runs after the last move's commit (``settle_later``) and again from the
sweeper until ``settled_at`` is set, so a crash half-way is finished by the next pass.
Exactly once: the Table row is locked first (Table → Pot → Accounts, the lock order of
docs/architecture.md), ``GameResult`` is one row per table, and the economy's services are
idempotent by key (``reward:table:<id>:<user>``, ``settle:<pot>``).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.dispatch import Signal
from django.utils import timezone

from economy.services import Reward, SeatResult, reward_game, settle_pot
from league.points import table_points

from . import broadcast, flow
from .models import ActionLog, GameResult, Seat, Table

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


def who_played(table: Table) -> set[int]:
    """The seats whose person played the game themselves (PF-13/PF-14, issue 26: a friends game
    pays only when two did): people's seats — never a bot's — whose own moves in the log are at
    least one and at least as many as those made for them (``flow.played_themselves``)."""
    people = set(
        table.seats.filter(kind__in=(Seat.Kind.HUMAN, Seat.Kind.GUEST)).values_list("index", flat=True)
    )
    log = ActionLog.objects.filter(table=table, seat__in=people)
    own: Counter[int] = Counter()
    made_for: Counter[int] = Counter()
    for row in log.order_by().values("seat", "source").annotate(moves=Count("pk")):
        if row["source"] == ActionLog.Source.PLAYER:
            own[row["seat"]] += row["moves"]
        elif row["source"] == ActionLog.Source.BOT:  # a person's seat: the stand-in (PF-63)
            made_for[row["seat"]] += row["moves"]
    for seat, action in log.filter(source=ActionLog.Source.TIMEOUT).values_list("seat", "action"):
        if flow.counts_as_absence({"seat": seat, "name": action.get("timer")}):
            made_for[seat] += 1
    return {seat for seat in people if flow.played_themselves(own[seat], made_for[seat])}


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
        rewards: list[Reward] = []
        won: dict[int, int] = {}
        if table.mode != Table.Mode.BOTS:
            played = who_played(table) if table.mode == Table.Mode.FRIENDS else None
            rewards = reward_game(
                reference=reward_reference(table),
                game=table.game,
                mode=table.mode,
                seats=[
                    SeatResult(
                        row["user_id"],
                        row["place"],
                        simulated=row["kind"] == Seat.Kind.SIMULATED,
                        played=played is None or row["seat"] in played,
                    )
                    for row in rows
                ],
                now=moment,
            )
        if table.pot_id is not None:
            paid = settle_pot(
                pot=table.pot_id,
                results=[(row["user_id"], row["place"]) for row in rows if row["user_id"] is not None],
            )
            won = {
                e.account.user_id: e.amount
                for e in paid.entries.select_related("account")
                if e.amount > 0 and e.account.user_id is not None
            }
        table.earnings = earnings(table, rows, rewards, won)
        table.settled_at = moment
        table.wake_at = None
        table.save(update_fields=["earnings", "settled_at", "wake_at"])
        # the result screens on the table show what each seat took (issue 25 item 4)
        broadcast.table_changed(table.pk, table.version, force=True)
        transaction.on_commit(lambda: game_finished.send(sender=GameResult, game_result=result))
        return result


def earnings(
    table: Table, rows: list[dict[str, Any]], rewards: list[Reward], won: dict[int, int]
) -> list[dict[str, Any]]:
    """What each seat took from the game, for its result screen (issue 25 item 4), in seat order:
    ``coins`` (the game's reward, PF-57, plus a buy-in pot's share, PF-53), ``xp`` (PF-58) and
    ``league_points`` (PF-60; None where the mode earns none, PF-15), and at a buy-in table the
    ``entry`` each person paid to sit (PF-17; None elsewhere). Bots and guests take 0."""
    by_user = {r.user_id: r for r in rewards}
    stake = table.pot.stake if table.pot_id is not None else None
    league = table.mode in (Table.Mode.ONLINE, Table.Mode.BUYIN)
    points = {e.seat: e.points for e in table_points(mode=table.mode, seats=rows, simulated=table.simulated)}
    out = []
    for row in rows:
        reward = by_user.get(row["user_id"]) if row["user_id"] is not None else None
        out.append(
            {
                "seat": row["seat"],
                "coins": (reward.coins if reward else 0) + won.get(row["user_id"], 0),
                "xp": reward.xp if reward else 0,
                "league_points": points.get(row["seat"], 0) if league else None,
                "entry": stake if row["user_id"] is not None else None,
            }
        )
    return out
