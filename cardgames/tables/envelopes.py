"""The one envelope of a table for each viewer (docs/protocol.md), built from rows already in hand.

What only the engine and the log decide is in the pure ``envelope_parts`` (offline practice
builds its envelopes from it too); this module adds the rows: seats, room, rematch.

``selectors.table_view_for`` builds one envelope from the database; the table service builds
every seat's and the spectator's at once from the state it has just written, so a move's
broadcast carries them and no socket reads the table back (docs/performance.md, "Live tables").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from cardgames.engines import Engine, get_engine

from . import movelog
from .envelope_parts import fill_played, fill_view, ms
from .models import ActionLog, Seat, Table
from .protocol import PROTOCOL_VERSION

SPECTATOR = "spectator"


#: rows looked back through for the last move shown when the newest is none (a run of reorders)
LOOKBACK = 200


def shown_move(table: Table, row: ActionLog | None) -> ActionLog | None:
    """The newest row the table sees as a move, from ``row`` (the newest) back: a hand reorder
    (PK-46) or a Guandan return pick (GD-54) is nobody's last move."""
    if row is None or movelog.shown(table.game, row.action):
        return row
    older = ActionLog.objects.filter(table=table, seq__lt=row.seq).order_by("-seq")[:LOOKBACK]
    return next((r for r in older if movelog.shown(table.game, r.action)), None)


def seat_dict(seat: Seat, table: Table) -> dict[str, Any]:
    return {
        "seat": seat.index,
        "name": seat.name,
        # PF-16: a simulated player is disclosed as such (docs/decisions.md)
        "kind": seat.kind,
        "level": seat.bot_level or None,
        "connected": seat.is_bot or seat.connections > 0,
        "stand_in": seat.stand_in,
        "host": bool(seat.player_key) and seat.player_key == table.host_key,
        "muted": seat.muted,
    }


def _public(table: Table, seats: Sequence[Seat]) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "id": table.pk,
        "code": table.code,
        "game": table.game,
        "mode": table.mode,
        "status": table.status,
        "version": table.version,
        "server_time": ms(timezone.now().timestamp()),
        "num_players": table.num_players,
        "options": table.options,
        "you": {"seat": None, "role": SPECTATOR},
        "is_host": False,
        "seats": [seat_dict(s, table) for s in seats],
        "seed_hash": table.seed_hash or None,
        "seed": table.seed if table.status in (Table.Status.FINISHED, Table.Status.CLOSED) else None,
        "to_act": [],
        "timers": [],
        "legal": [],
        "plays": None,
        "result": None,
        # issue 25 item 4: what each seat took once settled (None before), and a rematch offer
        "earnings": table.earnings,
        "rematch": None,
        "last": None,
        "view": None,
    }


def rematch_offer(table: Table) -> dict[str, Any] | None:
    """The room that plays ``table``'s rematch, as its players' envelopes carry it (issue 25 item 4):
    its id, its code and its page (the code is the room's key: players only, never spectators)."""
    if table.rematch_id is None:
        return None
    room = Table.objects.filter(pk=table.rematch_id).only("pk", "code", "status", "host_key").first()
    if room is None or room.status == Table.Status.CLOSED:
        return None
    return {
        "table": room.pk,
        "code": room.code,
        "url": f"/mesa/{room.code}/",
        "status": room.status,
        "seats": list(
            Seat.objects.filter(table=room).exclude(player_key="").values_list("player_key", flat=True)
        ),
    }


def _offer_for(offer: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    """A player's view of the rematch offer: the room, and whether they sit at it already."""
    if offer is None:
        return None
    mine = {k: v for k, v in offer.items() if k != "seats"}
    mine["joined"] = key in offer["seats"]
    return mine


def _for_seat(
    public: dict[str, Any],
    table: Table,
    eng: Engine | None,
    state: Any,
    seat: Seat | None,
    last: ActionLog | None,
    offer: dict[str, Any] | None = None,
) -> dict[str, Any]:
    envelope = dict(public)
    index = seat.index if seat is not None else None
    if seat is not None:
        envelope["you"] = {"seat": index, "role": "player"}
        envelope["is_host"] = bool(seat.player_key) and seat.player_key == table.host_key
        if offer is not None and seat.player_key:
            envelope["rematch"] = _offer_for(offer, seat.player_key)
    if eng is not None:
        # Guandan's plays travel packed by reading (legal_wire: frames of 287 KB otherwise)
        fill_view(envelope, table.game, eng, state, index, last)
    return envelope


def envelope_for(
    table: Table, seats: Sequence[Seat], last: ActionLog | None, viewer_key: str | None
) -> dict[str, Any]:
    """One viewer's envelope (``viewer_key``: a Player's key, None for an anonymous spectator);
    ``last`` is the last move shown (``shown_move``)."""
    public = _public(table, seats)
    mine = next((s for s in seats if viewer_key and s.player_key == viewer_key), None)
    eng, state = None, None
    if table.state is not None:
        eng = get_engine(table.game)
        state = eng.load(table.state)
        fill_played(public, eng, state, table.timer_starts)
    envelope = _for_seat(public, table, eng, state, mine, last, rematch_offer(table) if mine else None)
    envelope["is_host"] = viewer_key is not None and viewer_key == table.host_key
    return envelope


def every_envelope(
    table: Table, seats: Sequence[Seat], last: ActionLog | None, eng: Engine, state: Any
) -> dict[str, dict[str, Any]]:
    """Each seat's envelope (keyed by the seat number as text) and the spectator's, for one version;
    ``last`` is the last move shown (``shown_move``), told to each viewer as they may know it."""
    public = _public(table, seats)
    fill_played(public, eng, state, table.timer_starts)
    offer = rematch_offer(table)
    envelopes = {str(s.index): _for_seat(public, table, eng, state, s, last, offer) for s in seats}
    envelopes[SPECTATOR] = _for_seat(public, table, eng, state, None, last)
    return envelopes
