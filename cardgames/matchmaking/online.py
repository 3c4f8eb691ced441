"""Online and buy-in tables (issue 11) once the queue has seated them (``seating``).

Matchmaking's own tables: the table wing (``cardgames.tables``) runs their games like any
other, and reaches what is special about them only through the hooks this app registers
(``cardgames.tables.hooks``, ``matchmaking.hooks``): a waiting table's fill deadline
(``wake_waiting``), a person standing up before the start (``stand_up``), the admin's abort
(``abort_table``). The table service's conventions hold here too: every public function runs
in one transaction and locks the Table row first (``core.lock``) — **lock order Table →
QueueEntry → Pot → Accounts** (the queue entries sit between the table and the economy's
locks) — and raises ``TableError`` (nothing changed) for what it refuses. Broadcasts leave
after commit (``broadcast``). These tables have no host: they start when full, dealt by the
same ``core.deal`` as a host's start, with the 30 s turn clock (PF-4, PF-30).

- **Free online** (``mode=online``, PF-15, PF-16, PF-51): if a table is not full 30 s after
  its first player sat, simulated players fill the empty seats: ``Seat.Kind.SIMULATED``
  seats with a generated display name and the normal bot level, shown as "jugador
  simulado" in the envelope and the admin; the table is flagged ``simulated`` (the league
  halves its points, PF-60) and they earn nothing (PF-58, ``reward_game``).
- **Buy-in** (``mode=buyin``, PF-17, PF-18, PF-52, PF-53, PF-63): people only. The entry is
  taken when the player sits (``seating``), standing up before the start returns
  it (``stand_up``); if the table is not full 120 s after the first player sat it
  is cancelled and every entry refunded once (``cancel_pot``, open pots only); the game's
  start closes the pot (``start_pot``), the finish settles it (``settlement.finish_table``).
  Nobody leaves a started buy-in table with their entry; only an admin may abort it
  (``abort_table`` → ``abort_pot``).

**Deadlines.** A waiting table's fill deadline is its ``deadline_at`` (and ``wake_at``), set
when the first player sits: the sweeper (``deadlines.sweep`` → ``services.wake_table``, or
the in-process runner) wakes it like any other table and calls the ``wake_waiting`` hook;
with Celery a countdown task (``matchmaking.table_deadline``, at the deadline) gets there
first. Both take the Table row lock, so whichever runs first does the work and the other
finds nothing to do.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from cardgames.catalogue import CatalogueError, clean_options
from cardgames.tables import broadcast, core
from cardgames.tables.envelope_parts import ms
from cardgames.tables.errors import TableError
from cardgames.tables.models import Seat, Table
from economy.errors import EconomyError
from economy.services import abort_pot, cancel_pot, start_pot
from economy.services import stand_up as economy_stand_up
from economy.services.common import UserRef

from .models import QueueEntry

ONLINE_MODES = (Table.Mode.ONLINE, Table.Mode.BUYIN)
#: PF-51: simulated players fill a free online table this long after its first player sat
FILL_SECONDS = 30
#: PF-52: a buy-in table not full this long after its first player sat is cancelled
CANCEL_SECONDS = 120
#: the bot level of simulated players (PF-63's stand-in level)
SIMULATED_LEVEL = "normal"
#: first names for simulated players' generated display names (a number is added)
SIMULATED_NAMES = (
    "lucia", "martin", "sofia", "mateo", "valeria", "hugo", "paula", "leo", "julia", "daniel",
    "carmen", "pablo", "elena", "diego", "alba", "alvaro", "sara", "mario", "irene", "javi",
    "noa", "adrian", "marta", "bruno", "clara", "sergio", "lola", "ivan", "nerea", "raul",
    "vera", "oscar", "ines", "tomas", "aitana", "gael", "olivia", "marcos", "chloe", "rocio",
)  # fmt: skip


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def lock_waiting(table_id: Any, *, refusal: str) -> Table:
    """The online Table row, locked, while it still waits for players (else ``refusal``)."""
    table = core.lock(table_id)
    assert table is not None  # core.lock raises no_such_table unless asked to skip locked rows
    if table.mode not in ONLINE_MODES:
        raise TableError("bad_mode")
    if table.status != Table.Status.WAITING:
        raise TableError(refusal)
    return table


def table_url(table: Table) -> str:
    return f"/mesa/{table.code}/" if table.code else ""


def stake_of(table: Table) -> int:
    return table.pot.stake if table.pot_id is not None else 0


def options_for(game: str, players: int) -> dict[str, Any]:
    """The options of an online table: the game's defaults (El Puteo plays big above 8, PT-2)."""
    try:
        return clean_options(game, players, None)[1]
    except CatalogueError as exc:
        if exc.code == "bad_players" and game == "puteo":
            return clean_options(game, players, {"mode": "big"})[1]
        raise TableError(exc.code, exc.message) from None


# -- lobby events (per-user groups, broadcast.to_users) ------------------------------------------
def seated_event(table: Table, *, seated: int, now: datetime | None = None) -> dict[str, Any]:
    """What a player sitting at a waiting online table sees: seats taken and the countdown."""
    moment = _now(now)
    deadline = table.deadline_at
    return {
        "type": "queue",
        "state": "seated",
        "game": table.game,
        "players": table.num_players,
        "stake": stake_of(table),
        "table": table.pk,
        "code": table.code,
        "seated": seated,
        # PF-51: simulated players arrive then (free); PF-52: the table is cancelled then (buy-in)
        "then": "cancel" if table.mode == Table.Mode.BUYIN else "simulated",
        "deadline": ms(deadline.timestamp()) if deadline else None,
        "seconds": max(0, round((deadline - moment).total_seconds())) if deadline else None,
        "server_time": ms(moment.timestamp()),
    }


def started_event(table: Table) -> dict[str, Any]:
    return {
        "type": "table_started",
        "table": table.pk,
        "code": table.code,
        "game": table.game,
        "mode": table.mode,
        "url": table_url(table),
    }


def _tell_seated(table: Table, moment: datetime) -> None:
    humans = list(table.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    broadcast.to_users(humans, seated_event(table, seated=table.seats.count(), now=moment))


def start(table: Table, moment: datetime, humans: list[int] | None = None) -> None:
    """Deal a full online table (the Table row is locked); a buy-in pot closes to entries first."""
    if table.pot_id is not None:
        start_pot(pot=table.pot_id)
    table.deadline_at = table.wake_at = None
    core.deal(table, moment)
    if humans is None:
        humans = list(table.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    broadcast.to_users(humans, started_event(table))


# -- the fill deadline (PF-51, PF-52) ------------------------------------------------------------------
def wake_waiting(table: Table, moment: datetime) -> str:
    """A waiting online table at its fill deadline (its row locked by the caller).

    Free: simulated players take the empty seats and the game starts. Buy-in: the table is
    cancelled, every entry refunded once, and the table closed. Before the deadline nothing
    happens. Returns what was done: ``"waiting"``, ``"simulated"``, ``"cancelled"``, ``"closed"``.
    """
    if table.deadline_at is None or moment < table.deadline_at:
        if table.wake_at != table.deadline_at:
            table.wake_at = table.deadline_at
            table.save(update_fields=["wake_at"])
        return "waiting"
    if not table.seats.exists():
        close_empty(table, moment)
        return "closed"
    if table.mode == Table.Mode.BUYIN:
        _cancel(table, moment)
        return "cancelled"
    _fill_with_simulated(table, moment)
    return "simulated"


def expire_table(*, table_id: int, now: datetime | None = None, skip_locked: bool = False) -> str:
    """The fill-deadline task's service: do what ``wake_waiting`` does, in its own transaction.

    Safe to run twice, late, or concurrently with a late person sitting (the Table lock
    decides): a table that started, was cancelled or closed meanwhile returns ``"started"``
    or ``"closed"`` and changes nothing; ``"busy"`` when ``skip_locked`` and another worker
    holds the table.
    """
    moment = _now(now)
    with transaction.atomic():
        table = Table.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id).first()
        if table is None:
            return "busy" if skip_locked and Table.objects.filter(pk=table_id).exists() else "closed"
        if table.mode not in ONLINE_MODES:
            return "closed"
        if table.status == Table.Status.WAITING:
            return wake_waiting(table, moment)
        return "started" if table.status in (Table.Status.PLAYING, Table.Status.FINISHED) else "closed"


def simulated_name(table_id: int, index: int, taken: set[str]) -> str:
    """A generated display name for a simulated player (seeded by table and seat: stable)."""
    rng = random.Random(f"tapete-simulated:{table_id}:{index}")
    for _ in range(50):
        name = f"{rng.choice(SIMULATED_NAMES)}{rng.randint(10, 99)}"
        if name.lower() not in taken:
            return name
    return f"jugador{table_id % 1000}_{index}"  # pragma: no cover


def _fill_with_simulated(table: Table, moment: datetime) -> None:
    """PF-16, PF-51: simulated players (bots shown as players) take every empty seat; it starts."""
    seats = list(table.seats.all())
    taken_names = {s.name.lower() for s in seats}
    used = {s.index for s in seats}
    for index in range(table.num_players):
        if index in used:
            continue
        name = simulated_name(table.pk, index, taken_names)
        taken_names.add(name.lower())
        Seat.objects.create(
            table=table, index=index, kind=Seat.Kind.SIMULATED, name=name, bot_level=SIMULATED_LEVEL
        )
    table.simulated = True
    table.save(update_fields=["simulated"])
    start(table, moment)


def _cancel(table: Table, moment: datetime) -> None:
    """PF-18, PF-52: cancel a buy-in table that did not fill; every entry is refunded once."""
    refunded = cancel_pot(pot=table.pot_id)  # an open pot only: a started game is never ended here
    stake = stake_of(table)
    users = {b.user_id for b in refunded} | set(
        table.seats.filter(user__isnull=False).values_list("user_id", flat=True)
    )
    QueueEntry.objects.filter(table=table, status=QueueEntry.Status.SEATED).update(
        status=QueueEntry.Status.CANCELLED, reason="table_cancelled", ended_at=moment
    )
    core.close(table, moment)
    broadcast.to_users(
        sorted(users),
        {
            "type": "queue",
            "state": "cancelled",
            "code": "table_cancelled",
            "table": table.pk,
            "refunded": stake,
        },
    )


def close_empty(table: Table, moment: datetime) -> None:
    """Close a table nobody sits at (row locked); a buy-in pot is closed, with nothing to refund."""
    if table.pot_id is not None:
        cancel_pot(pot=table.pot_id)  # nobody is seated: nothing to refund, the pot is closed
    core.close(table, moment)


# -- leaving ------------------------------------------------------------------------------------------
def stand_up(*, table_id: int, user_id: int, now: datetime | None = None) -> int:
    """A person stands up from a waiting online table; the buy-in entry comes back at once (PF-57).

    Lock: the Table row, the queue entry, then (buy-in) the pot and the accounts. After the
    start nobody stands up (``not_waiting``; PF-63: the seat keeps its place and a buy-in
    entry stays in the pot). An emptied table closes. Returns the coins given back.
    """
    moment = _now(now)
    with transaction.atomic():
        table = lock_waiting(table_id, refusal="not_waiting")
        seat = table.seats.filter(user_id=user_id).first()
        if seat is None:
            raise TableError("not_seated")
        returned = 0
        if table.pot_id is not None:
            returned = economy_stand_up(user=UserRef(user_id), pot=table.pot_id).amount
        seat.delete()
        QueueEntry.objects.filter(table=table, user_id=user_id, status=QueueEntry.Status.SEATED).update(
            status=QueueEntry.Status.LEFT, ended_at=moment
        )
        if not table.seats.exists():
            close_empty(table, moment)
        else:
            core.touch(table, moment)
            _tell_seated(table, moment)
        return returned


# -- the admin's abort ------------------------------------------------------------------------------------
def abort_table(*, table_id: int, actor: Any, reason: str, now: datetime | None = None) -> int:
    """An admin aborts a buy-in table's game (waiting or playing) and refunds every entry once.

    The explicit action for a game that cannot finish: nobody else may take a started buy-in
    entry back (PF-63), and the fill-deadline task never ends a game in progress. Lock: the
    Table row, then the pot and the accounts (``abort_pot``: staff and a reason required).
    A finished game is settled, not aborted (``not_playing``). Returns the entries refunded.
    """
    moment = _now(now)
    with transaction.atomic():
        table = core.lock(table_id)
        assert table is not None
        if table.pot_id is None:
            raise TableError("bad_mode")
        if table.status not in (Table.Status.WAITING, Table.Status.PLAYING):
            raise TableError("not_playing")
        try:
            refunded = abort_pot(pot=table.pot_id, actor=actor, reason=reason)
        except EconomyError as exc:
            raise TableError(exc.code, exc.message) from None
        QueueEntry.objects.filter(table=table, status=QueueEntry.Status.SEATED).update(
            status=QueueEntry.Status.CANCELLED, reason="table_aborted", ended_at=moment
        )
        core.close(table, moment)
        broadcast.to_users(
            [b.user_id for b in refunded],
            {
                "type": "queue",
                "state": "cancelled",
                "code": "table_aborted",
                "table": table.pk,
                "refunded": stake_of(table),
            },
        )
        return len(refunded)
