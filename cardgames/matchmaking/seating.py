"""Seating the queue (issue 11): a wave's placements, each one table in one transaction.

``place_new_table`` opens an online (free) or buy-in table for waiting queue entries;
``place_at_table`` sits more at a waiting one. Lock order **Table → QueueEntry → Pot →
Accounts** (``online``'s conventions); a buy-in is taken when the player sits
(``economy.services.buy_in_many``: ``buy_in``'s rules and keys, one lock round for the players
sitting together). A full table starts at once (``online.start``); the first person to sit at
a partial one starts its fill clock (``online.FILL_SECONDS``, ``online.CANCEL_SECONDS``).

**Racing at the deadline.** A late person and the deadline both take the Table lock, so one
of the two wins: a seat that completes the table is taken even past the deadline (the game
starts, and the deadline finds a started table), while a seat that would not complete it is
refused past the deadline (``table_closing``); after the cancellation the table is closed
(``table_closed``). A refused queue entry stays in the queue for the next wave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardgames.catalogue import game_spec
from cardgames.tables import broadcast, core
from cardgames.tables.errors import MESSAGES, TableError
from cardgames.tables.models import Seat, Table
from economy.errors import MESSAGES as ECONOMY_MESSAGES
from economy.errors import EconomyError
from economy.services import buy_in_many, open_pot
from economy.services.common import UserRef

from .models import QueueEntry
from .online import (
    CANCEL_SECONDS,
    FILL_SECONDS,
    close_empty,
    lock_waiting,
    options_for,
    seated_event,
    stake_of,
    start,
)


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


@dataclass
class Seating:
    """What happened to the entries offered to a table: who sat, who was refused and why.

    ``table`` is None when no table was opened (none of the entries could sit)."""

    table: Table | None
    seated: list[int] = field(default_factory=list)  # entry ids
    #: entry id -> code; ``insufficient_coins`` ends the entry, the others leave it queued
    refused: dict[int, str] = field(default_factory=dict)
    started: bool = False


#: refusals after which the entry is over (the others leave it in the queue for the next wave)
FINAL_REFUSALS = frozenset({"insufficient_coins"})


def place_new_table(
    *, game: str, players: int, stake: int, entry_ids: list[int], now: datetime | None = None
) -> Seating:
    """Open an online (``stake`` 0) or buy-in table and seat these waiting queue entries.

    One transaction: the entries (locked, still waiting; a brand-new table cannot be locked by
    anyone else, so taking them before it keeps the lock order), the new Table and its pot
    (buy-in), each buy-in. A full table starts at once; a partial one gets its fill deadline.
    No table is opened when none of the entries can sit (they left, or cannot pay).
    """
    moment = _now(now)
    with transaction.atomic():
        entries = _lock_entries(entry_ids)
        outcome = Seating(table=None)
        if stake:
            entries = _refuse_the_poor(entries, stake, outcome, moment)
        if not entries:
            return outcome
        table = _create(game=game, players=players, stake=stake, moment=moment)
        outcome.table = table
        _seat_entries(table, entries, moment, outcome, taken={})
        if not outcome.seated:  # every buy-in was refused after all (a wallet spent meanwhile)
            close_empty(table, moment)
        return outcome


def place_at_table(*, table_id: int, entry_ids: list[int], now: datetime | None = None) -> Seating:
    """Seat these waiting queue entries at a waiting online table, oldest first.

    Lock: the Table row, then the entries, then (buy-in) the pot and the accounts. Refusals
    per entry: ``table_full``, ``table_closing`` (past the deadline and not completing the
    table), ``insufficient_coins``; the whole call is refused with ``table_closed`` when the
    table is no longer waiting (started, cancelled or closed).
    """
    moment = _now(now)
    with transaction.atomic():
        table = lock_waiting(table_id, refusal="table_closed")
        outcome = Seating(table=table)
        entries = _lock_entries(entry_ids)
        taken = {s.index: s.user_id for s in table.seats.all()}
        return _seat_entries(table, entries, moment, outcome, taken=taken)


def _lock_entries(entry_ids: list[int]) -> list[Any]:
    """The queue entries still waiting among ``entry_ids``, locked, oldest first."""
    return list(
        QueueEntry.objects.select_for_update(of=("self",))
        .filter(pk__in=entry_ids, status=QueueEntry.Status.WAITING)
        .select_related("user")
        .order_by("pk")
    )


def _refuse_the_poor(entries: list[Any], stake: int, outcome: Seating, moment: datetime) -> list[Any]:
    """Before a buy-in table opens: the entries whose wallet cannot pay ``stake`` now end (failed)."""
    from economy.models import Account

    balances = dict(
        Account.objects.filter(user_id__in=[e.user_id for e in entries]).values_list("user_id", "balance")
    )
    rich = [e for e in entries if balances.get(e.user_id, 0) >= stake]
    _fail([e for e in entries if balances.get(e.user_id, 0) < stake], "insufficient_coins", outcome, moment)
    return rich


def _fail(entries: list[Any], code: str, outcome: Seating, moment: datetime) -> None:
    if not entries:
        return
    QueueEntry.objects.filter(pk__in=[e.pk for e in entries]).update(
        status=QueueEntry.Status.FAILED, reason=code, ended_at=moment
    )
    for entry in entries:
        outcome.refused[entry.pk] = code
    broadcast.to_users([e.user_id for e in entries], failed_event(code))


def _create(*, game: str, players: int, stake: int, moment: datetime) -> Table:
    spec = game_spec(game)
    options = options_for(spec.slug, players)
    mode = Table.Mode.BUYIN if stake else Table.Mode.ONLINE
    for _ in range(20):
        try:
            with transaction.atomic():  # a savepoint: a taken code is drawn again
                table = Table.objects.create(
                    game=spec.slug,
                    mode=mode,
                    code=core.new_code(spec.code_style, spec.code_length),
                    host_key="",  # online tables have no host: they start when full
                    num_players=players,
                    options=options,
                    last_activity_at=moment,
                )
            break
        except IntegrityError:
            continue
    else:  # pragma: no cover - 10^6 codes, 20 draws
        raise TableError("no_such_table", "No free table code; try again.")
    if stake:
        table.pot = open_pot(reference=f"table:{table.pk}", stake=stake)
        table.save(update_fields=["pot"])
    return table


def _seat_entries(
    table: Table, entries: list[Any], moment: datetime, outcome: Seating, *, taken: dict[int, int | None]
) -> Seating:
    """Seat the locked ``entries`` at ``table`` (its row locked, or new, in this transaction)."""
    free = [i for i in range(table.num_players) if i not in taken]
    late = table.deadline_at is not None and moment >= table.deadline_at
    if late and len(taken) + min(len(entries), len(free)) < table.num_players:
        outcome.refused.update({e.pk: "table_closing" for e in entries})
        return outcome
    if late:
        try:
            with transaction.atomic():  # a savepoint: a late seating that does not fill the table is undone
                _sit_each(table, entries, taken, free, outcome, moment)
                if len(taken) < table.num_players:
                    raise _NotCompleted
        except _NotCompleted:
            outcome.seated = []
            outcome.refused.update({e.pk: "table_closing" for e in entries})
            return outcome
    else:
        _sit_each(table, entries, taken, free, outcome, moment)
    if not outcome.seated:
        return outcome
    humans = [uid for uid in taken.values() if uid is not None]
    if len(taken) == table.num_players:
        start(table, moment, humans)
        outcome.started = True
        return outcome
    fields = []
    if table.deadline_at is None:  # the first player sat: the fill clock starts (PF-51, PF-52)
        seconds = CANCEL_SECONDS if table.mode == Table.Mode.BUYIN else FILL_SECONDS
        table.deadline_at = table.wake_at = moment + timedelta(seconds=seconds)
        fields = ["deadline_at", "wake_at"]
        _deadline_later(table.pk, table.deadline_at)
    core.touch(table, moment, fields=fields)
    broadcast.to_users(humans, seated_event(table, seated=len(taken), now=moment))
    return outcome


class _NotCompleted(Exception):
    pass


def _sit_each(
    table: Table,
    entries: list[Any],
    taken: dict[int, int | None],
    free: list[int],
    outcome: Seating,
    moment: datetime,
) -> None:
    """Seat the entries that may sit, in order; a buy-in table takes every entry at once
    (``buy_in_many``: one lock of the pot and the wallets), and a refused buy-in keeps no seat."""
    candidates = []
    room = len(free)
    for entry in entries:
        code = _check_entry(table, entry, taken, room - len(candidates))
        if code is None:
            candidates.append(entry)
        else:
            outcome.refused[entry.pk] = code
    poor: list[Any] = []
    if table.pot_id is not None and candidates:
        paid = buy_in_many(users=[UserRef(e.user_id) for e in candidates], pot=table.pot_id)
        sitting = []
        for entry in candidates:
            result = paid[entry.user_id]
            if isinstance(result, EconomyError):
                if result.code in FINAL_REFUSALS:
                    poor.append(entry)
                else:
                    code = "table_closed" if result.code.startswith("pot_") else result.code
                    outcome.refused[entry.pk] = code
            else:
                sitting.append(entry)
        candidates = sitting
    seats = []
    for entry in candidates:
        index = free.pop(0)
        seats.append(
            Seat(
                table=table,
                index=index,
                kind=Seat.Kind.HUMAN,
                user_id=entry.user_id,
                player_key=f"user:{entry.user_id}",
                name=entry.user.username,
            )
        )
        taken[index] = entry.user_id
        outcome.seated.append(entry.pk)
    _fail(poor, "insufficient_coins", outcome, moment)
    if seats:
        Seat.objects.bulk_create(seats)
        QueueEntry.objects.filter(pk__in=outcome.seated).update(
            status=QueueEntry.Status.SEATED, table=table, seated_at=moment
        )


def _check_entry(table: Table, entry: Any, taken: dict[int, int | None], room: int) -> str | None:
    if (entry.game, entry.players, entry.stake) != (table.game, table.num_players, stake_of(table)):
        return "bad_mode"
    if entry.user_id in taken.values():
        return "already_seated"
    if room <= 0:
        return "table_full"
    return None


def failed_event(code: str) -> dict[str, Any]:
    message = ECONOMY_MESSAGES.get(code) or MESSAGES.get(code) or code
    return {"type": "queue", "state": "failed", "code": code, "detail": str(message)}


def _deadline_later(table_id: int, at: datetime) -> None:
    """With Celery running the tables: a countdown task at the fill deadline (the sweeper is the backstop)."""
    if settings.TABLE_RUNNER != "celery":
        return
    from .tasks import table_deadline

    broadcast.countdown(table_deadline, table_id, at)
