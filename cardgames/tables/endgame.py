"""The end of a game and leaving a table (issue 25 items 4 and 5): rematch, leave, close.

- ``rematch``: one control in every mode. A friends room's host offers "Revancha": a new room with
  the same game, options, bots (each at its seat and level) and the host at their seat; the other
  people from the old room are invited (registered users get an invitation, which reaches every
  page as a toast) and every player still on the old result screen sees the offer, which they
  accept with the same call; the host starts the new room as any room. A bots room's "Otra
  partida" opens the same room again and deals it at once. An online or buy-in table's "Buscar
  otra" queues the player again with the same game, players and stake through matchmaking (the
  wallet is checked there, as for any queue: ``hooks.online().queue_again``).
- ``leave_table``: "Salir de la mesa". Before the start a seated player stands up (``services.
  leave_room``); the host of a room closes it instead (``close_room``). In a started friends or
  bots game the PF-63 stand-in plays the seat from now on (the player takes it back if they come
  back, as PF-63 says). A started online or buy-in table keeps PF-63's rule: nothing changes —
  the seat's timeouts play for it, then the stand-in, and a buy-in entry stays in the pot.
- ``close_room``: the host closes a room that has not started; everyone on its page is told and
  its pending invitations expire (``core.close``).

Each runs in one transaction and locks the Table row first (lock order Table → Pot → Accounts).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.identity import Player
from cardgames.catalogue import CatalogueError, clean_options, game_spec

from . import broadcast, core, flow, hooks, quotas, services, statements
from .errors import TableError
from .models import Invitation, Seat, Table

#: what a room's options keep for its rematch: the deal's clock comes back at the deal (``core.
#: engine_options``) and a Guandan match set up late (``start_levels``) starts afresh at 2
NOT_CARRIED = ("turn_seconds", "levels")


class Outcome:
    """What ``leave_table`` did (the page says it)."""

    LEFT = "left"  # stood up before the start
    CLOSED = "closed"  # the host closed the room
    STAND_IN = "stand_in"  # the PF-63 stand-in plays the seat from now on
    KEPT = "kept"  # nothing changed: PF-63 keeps the seat (online, buy-in) or the game is over


@dataclass(frozen=True)
class Rematch:
    """A rematch's answer: a room (``table`` … ``seat``) or, for an online table, the queue entry."""

    kind: str  # "room" or "queue"
    table: Table | None = None
    seat: int | None = None
    queued: dict[str, Any] | None = None


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def _seat_of(table: Table, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return Seat.objects.filter(table=table, player_key=player.key).first()


# -- rematch ---------------------------------------------------------------------------------------
def rematch(
    *, table_id: Any, player: Player | None, address: str = "", now: datetime | None = None
) -> Rematch:
    """The rematch of a finished table for ``player``, who sat at it (see the module's docstring).

    Refusals (nothing changes): ``identity_required``, ``no_such_table`` (also a closed one),
    ``not_finished``, ``spectator`` (who did not sit at it), ``no_rematch_yet`` (a friends room's
    rematch is the host's to offer: the others accept it once offered), the room quotas
    (``too_many_rooms`` …) and, online, ``login_required`` and the queue's own refusals
    (``insufficient_coins``, ``already_queued`` …).
    Calling again returns the same room: a double click opens one room.
    """
    if player is None:
        raise TableError("identity_required")
    moment = _now(now)
    with transaction.atomic():
        old = services._lock_live(table_id)
        if old.status != Table.Status.FINISHED:
            raise TableError("not_finished")
        if _seat_of(old, player) is None:
            raise TableError("spectator")
        if old.mode in services.ROOM_MODES:
            return _room_rematch(old, player, address, moment)
    # online and buy-in: the queue's own transaction, after this one let the table go
    if player.user_id is None:
        raise TableError("login_required")
    return Rematch("queue", queued=hooks.online().queue_again(table_id=old.pk, user_id=player.user_id))


def _room_rematch(old: Table, player: Player, address: str, moment: datetime) -> Rematch:
    """A friends or bots room's rematch (``old``'s row locked): the room offered already (accepted
    by ``player``), or a new one when ``player`` may open it (a friends room's host, a bots room's
    player)."""
    if old.rematch_id is not None:
        room = services._lock(old.rematch_id)
        assert room is not None
        if room.status != Table.Status.CLOSED:  # its host closed it: a new offer may follow
            return Rematch("room", room, _accept(room, old, player, moment))
    if old.mode == Table.Mode.FRIENDS and old.host_key != player.key:
        raise TableError("no_rematch_yet")
    room = _open_again(old, player, address, moment)
    old.rematch = room
    old.save(update_fields=["rematch"])
    broadcast.table_changed(old.pk, old.version, force=True)  # every result screen sees the offer
    mine = _seat_of(room, player)
    return Rematch("room", room, mine.index if mine else None)


def _open_again(old: Table, player: Player, address: str, moment: datetime) -> Table:
    """A new room like ``old`` (row locked): the same game, options and bots, ``player`` at their
    seat; a bots room is dealt at once, a friends room invites the old room's other users."""
    options = {k: v for k, v in old.options.items() if k not in NOT_CARRIED}
    try:
        count, options = clean_options(old.game, old.num_players, options)
    except CatalogueError as exc:  # pragma: no cover - the old room's options were checked already
        raise TableError(exc.code, exc.message) from None
    spec = game_spec(old.game)
    with quotas.room_slot(player=player, address=address) as created:
        room = services._open_room(
            player, spec.slug, spec.code_style, spec.code_length, old.mode, count, options, moment
        )
        created.append(room.pk)
    old_seats = list(old.seats.order_by("index"))
    mine = next(s for s in old_seats if s.player_key == player.key)
    services._seat_human(room, player, mine.index)
    for seat in old_seats:
        if seat.kind == Seat.Kind.BOT:
            services._seat_bot(room, seat.index, seat.bot_level or "normal")
    if old.mode == Table.Mode.BOTS:
        core.deal(room, moment)
        return room
    _invite_again(
        room, player, [s.user_id for s in old_seats if s.user_id and s.player_key != player.key], moment
    )
    return room


def _invite_again(room: Table, host: Player, user_ids: list[int], moment: datetime) -> None:
    """Invite the old room's users to its rematch (guests follow the offer on the old page)."""
    if not host.is_user:
        return  # a guest cannot invite (PF-61): the others accept on the old result screen
    names = get_user_model().objects.filter(pk__in=user_ids).values_list("username", flat=True)
    for username in names:
        try:
            services.invite(table_id=room.pk, sender=host, username=username, now=moment)
        except TableError:
            continue  # too many pending invitations: they still see the offer on the old page


def _accept(room: Table, old: Table, player: Player, moment: datetime) -> int | None:
    """``player`` accepts the rematch ``room`` of ``old`` (both rows locked): their invitation, if
    pending, is answered (their toasts drop it), and they sit at their old seat while the room
    waits; a room already started makes them a spectator (None)."""
    mine = _seat_of(room, player)
    if mine is not None:
        return mine.index
    if player.user_id is not None:
        Invitation.objects.filter(
            table=room, recipient_id=player.user_id, status=Invitation.Status.PENDING
        ).update(status=Invitation.Status.ACCEPTED)
        for invitation in Invitation.objects.filter(
            table=room, recipient_id=player.user_id, status=Invitation.Status.ACCEPTED
        ).select_related("table", "sender", "recipient"):
            broadcast.to_users(
                [invitation.sender_id, invitation.recipient_id],
                {"type": "invitation", "invitation": services.invitation_dict(invitation)},
            )
    seat = services.join_room(table_id=room.pk, player=player, code=room.code, now=moment)
    return seat.index if seat else None


# -- leaving -----------------------------------------------------------------------------------------
def leave_table(*, table_id: Any, player: Player | None, now: datetime | None = None) -> str:
    """ "Salir de la mesa" (see the module's docstring); returns an ``Outcome``.

    Refusals: ``identity_required``, ``no_such_table``, ``not_seated``.
    """
    if player is None:
        raise TableError("identity_required")
    moment = _now(now)
    with transaction.atomic():
        table = services._lock_live(table_id)
        if table.status == Table.Status.WAITING:
            if table.mode in services.ROOM_MODES and table.host_key == player.key:
                _close_locked(table, moment)
                return Outcome.CLOSED
            services.leave_room(table_id=table.pk, player=player, now=moment)
            return Outcome.LEFT
        seats = statements.seats(table)
        seat = next((s for s in seats if s.player_key == player.key), None)
        if seat is None:
            raise TableError("not_seated")
        if table.status != Table.Status.PLAYING or table.mode not in services.ROOM_MODES:
            return Outcome.KEPT  # PF-63: an online seat keeps its place, a buy-in its entry
        if not seat.stand_in:
            seat.stand_in = True
            seat.timeouts_in_row = max(seat.timeouts_in_row, flow.TIMEOUTS_BEFORE_BOT)
            statements.update(seat, ["stand_in", "timeouts_in_row"])
            _reschedule(table, seats, moment)
            services._announce_presence(table, seats)
        return Outcome.STAND_IN


def _reschedule(table: Table, seats: list[Seat], moment: datetime) -> None:
    """The stand-in is asked at once when the seat is to act (the bots' next turn, row locked)."""
    if table.state is None:
        return
    from cardgames.engines import get_engine

    eng = get_engine(table.game)
    core.schedule(table, eng, eng.load(table.state), seats, moment.timestamp())
    table.wake_at = core.wake_of(table)
    statements.update(table, ["deadline_at", "bots_at", "wake_at"])
    broadcast.wake_later(table.pk, table.wake_at)


def close_room(*, table_id: Any, player: Player | None, now: datetime | None = None) -> None:
    """The host closes a room (friends or bots) that has not started: its page tells everyone on
    it, its code is free again and its pending invitations expire (``core.close``).

    Refusals: ``identity_required``, ``no_such_table``, ``not_host``, ``not_waiting``, ``bad_mode``.
    """
    if player is None:
        raise TableError("identity_required")
    with transaction.atomic():
        table = services._lock_live(table_id)
        if table.host_key != player.key:
            raise TableError("not_host")
        if table.mode not in services.ROOM_MODES:
            raise TableError("bad_mode")
        if table.status != Table.Status.WAITING:
            raise TableError("not_waiting")
        _close_locked(table, _now(now))


def _close_locked(table: Table, moment: datetime) -> None:
    core.close(table, moment)
