"""The table row's own writes, shared by every writer of tables (issue 26).

``services`` (rooms, moves, wake-ups) and the online tables that matchmaking seats
(``cardgames.matchmaking.online``, ``seating``) change a Table through these, by their public
names, so neither reaches into the other's privates. They run inside the caller's
transaction and never open one.

- ``lock`` takes the Table row (``SELECT … FOR UPDATE``): the first lock of every writer
  (lock order Table → QueueEntry → Pot → Accounts, docs/architecture.md).
- ``touch``, ``deal``, ``store``, ``close`` **need the row locked** by the caller (or the table
  created in this transaction): each saves the row and tells the table's group on commit;
  ``deal`` and ``close`` also expire the room's pending invitations (``invitations.py``).
- ``new_code``, ``engine_options``, ``wake_of`` only compute.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from cardgames.catalogue import CODE_DIGITS, CODE_LETTERS
from cardgames.engines import Engine, get_engine

from . import broadcast, envelopes, flow, statements
from .errors import TableError
from .invitations import expire_invitations
from .models import ActionLog, Seat, Table

TURN_SECONDS = 30  # PF-4, PF-30


def _at(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=UTC)


def lock(table_id: Any, *, skip_locked: bool = False) -> Table | None:
    """The Table row, locked for this transaction (None when another worker holds it)."""
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise TableError("no_such_table")
    table = statements.table(table_id, lock=True, skip_locked=skip_locked)
    if table is None and not skip_locked:
        raise TableError("no_such_table")
    return table


def touch(table: Table, now: datetime, *, fields: list[str] | None = None) -> None:
    """Bump the version of a table whose seats or room changed, and tell its group (row locked)."""
    table.version += 1
    table.last_activity_at = now
    table.save(update_fields=["version", "last_activity_at", *(fields or [])])
    broadcast.table_changed(table.pk, table.version)


def new_code(style: str, length: int) -> str:
    """A random room code in the game's style (PF-55); the caller retries on a taken one."""
    alphabet = CODE_LETTERS if style == "letters" else CODE_DIGITS
    return "".join(secrets.choice(alphabet) for _ in range(length))


def engine_options(table: Table) -> dict[str, Any]:
    """What the engine gets: the room's choices and the per-player clock (none against bots)."""
    turn = None if table.mode == Table.Mode.BOTS else TURN_SECONDS
    return {**table.options, "turn_seconds": turn}


def deal(table: Table, moment: datetime) -> Table:
    """Start a full table (row locked): a secret seed, its SHA-256 published, the first state."""
    eng = get_engine(table.game)
    table.seed = secrets.token_hex(16)
    table.seed_hash = hashlib.sha256(table.seed.encode()).hexdigest()
    table.options = engine_options(table)
    state = eng.new_game(table.num_players, seed=table.seed, options=table.options)
    table.status = Table.Status.PLAYING
    table.started_at = moment
    table.timer_starts = {}
    store(table, eng, state, moment, fields=["seed", "seed_hash", "options", "status", "started_at"])
    expire_invitations(table)  # a room that started is no longer there to be invited to
    return table


def store(
    table: Table,
    eng: Engine,
    state: Any,
    moment: datetime,
    *,
    fields: list[str] | None = None,
    last: ActionLog | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Save the snapshot and the next wake-up, bump the version, and on commit send the group every
    viewer's envelope of this version (no socket reads the table back). Row locked."""
    from .settlement import settle_later

    now_ts = moment.timestamp()
    table.state = eng.dump(state)
    table.version += 1
    timers = eng.timers(state)
    table.timer_starts = flow.sync_starts(timers, table.timer_starts, now_ts)
    over = eng.is_over(state)
    seats = statements.seats(table) if seats is None else seats
    schedule(table, eng, state, seats, now_ts)
    extra = list(fields or [])
    if over:
        table.status = Table.Status.FINISHED
        table.result = eng.result(state)
        table.finished_at = moment
        table.deadline_at = table.bots_at = None
        extra += ["status", "result", "finished_at"]
    table.wake_at = wake_of(table)
    statements.update(
        table, ["state", "version", "timer_starts", "deadline_at", "bots_at", "wake_at", *extra]
    )
    broadcast.wake_later(table.pk, table.wake_at)
    views = envelopes.every_envelope(table, seats, envelopes.shown_move(table, last), eng, state)
    broadcast.table_changed(table.pk, table.version, envelopes=views)
    if over:
        settle_later(table.pk)


def schedule(table: Table, eng: Engine, state: Any, seats: list[Seat], now_ts: float) -> None:
    """The next deadline and the bots' turn of a table in play, from its stored timer starts —
    neither while everyone is gone (``gone``: the table waits for a person, PF-63)."""
    if gone(table, seats) and not eng.is_over(state):
        table.deadline_at = table.bots_at = None
        return
    timers = eng.timers(state)
    table.deadline_at = _at(flow.next_deadline(timers, table.timer_starts))
    bot_seats = [s.index for s in seats if s.plays_by_bot]
    asks_bots = not eng.is_over(state) and flow.wanted_bot_seats(eng.to_act(state), bot_seats)
    think = float(getattr(settings, "TABLE_BOT_THINK_SECONDS", flow.THINK_SECONDS))
    table.bots_at = _at(flow.bot_wake(now_ts, delay=think)) if asks_bots else None


def gone(table: Table, seats: list[Seat]) -> bool:
    """Has every person at this table been gone for their timeouts (``flow.everyone_gone``)? A
    buy-in game never waits: its pot must be decided, so the stand-ins play it to the end."""
    return table.pot_id is None and flow.everyone_gone(
        (s.stand_in, s.connections > 0) for s in seats if s.is_person
    )


def wait_or_resume(table: Table, seats: list[Seat], was_gone: bool, moment: datetime) -> None:
    """A person's presence changed at a table in play (row locked): when everyone is now gone the
    table stops waking; when someone is back at a table that waited, its timers start again from
    now (the returner gets a whole turn) and the bots are asked."""
    if table.status != Table.Status.PLAYING or table.state is None or gone(table, seats) == was_gone:
        return
    eng = get_engine(table.game)
    state = eng.load(table.state)
    now_ts = moment.timestamp()
    if was_gone:
        table.timer_starts = {t["id"]: now_ts for t in eng.timers(state)}
    schedule(table, eng, state, seats, now_ts)
    table.wake_at = wake_of(table)
    statements.update(table, ["timer_starts", "deadline_at", "bots_at", "wake_at"])
    broadcast.wake_later(table.pk, table.wake_at)


def wake_of(table: Table) -> datetime | None:
    """The sweeper's column: the earliest of the deadline and the bots' turn (or a settlement owed)."""
    moments = [m for m in (table.deadline_at, table.bots_at) if m is not None]
    if table.status == Table.Status.FINISHED and table.settled_at is None:
        moments.append(table.finished_at or timezone.now())
    return min(moments) if moments else None


def close(table: Table, moment: datetime) -> None:
    """Close the room (row locked): its code is free again, nothing wakes it, invitations expire."""
    table.status = Table.Status.CLOSED
    table.code = None
    table.wake_at = table.deadline_at = table.bots_at = None
    table.save(update_fields=["status", "code", "wake_at", "deadline_at", "bots_at"])
    expire_invitations(table)
    broadcast.table_changed(table.pk, table.version, force=True)
