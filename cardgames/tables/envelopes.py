"""The one envelope of a table for each viewer (docs/protocol.md), built from rows already in hand.

``selectors.table_view_for`` builds one envelope from the database; the table service builds
every seat's and the spectator's at once from the state it has just written, so a move's
broadcast carries them and no socket reads the table back (docs/performance.md, "Live tables").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from cardgames.engines import Engine, get_engine

from . import flow
from .models import ActionLog, Seat, Table
from .protocol import PROTOCOL_VERSION

SPECTATOR = "spectator"


def ms(seconds: float) -> int:
    """Epoch seconds as the protocol's epoch milliseconds."""
    return round(seconds * 1000)


def last_move(row: ActionLog | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"seq": row.seq, "seat": row.seat, "type": row.action.get("type"), "source": row.source}


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


def _public(table: Table, seats: Sequence[Seat], last: dict[str, Any] | None) -> dict[str, Any]:
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
        "result": None,
        "last": last,
        "view": None,
    }


def _played(envelope: dict[str, Any], table: Table, eng: Engine, state: Any) -> None:
    """The public facts of a game in play or over: whose turn, the deadlines, the result."""
    if eng.is_over(state):
        envelope["result"] = eng.result(state)
        return
    envelope["to_act"] = eng.to_act(state)
    envelope["timers"] = [
        {**t, "deadline": ms(flow.deadline(t, table.timer_starts))}
        for t in eng.timers(state)
        if t["id"] in table.timer_starts
    ]


def _for_seat(
    public: dict[str, Any], eng: Engine | None, state: Any, seat: Seat | None, host_key: str
) -> dict[str, Any]:
    envelope = dict(public)
    index = seat.index if seat is not None else None
    if seat is not None:
        envelope["you"] = {"seat": index, "role": "player"}
        envelope["is_host"] = bool(seat.player_key) and seat.player_key == host_key
    if eng is not None:
        envelope["view"] = eng.view(state, index)
        if index is not None and index in envelope["to_act"]:
            envelope["legal"] = [dict(a) for a in eng.legal_actions(state, index)]
    return envelope


def envelope_for(
    table: Table, seats: Sequence[Seat], last: dict[str, Any] | None, viewer_key: str | None
) -> dict[str, Any]:
    """One viewer's envelope (``viewer_key``: a Player's key, None for an anonymous spectator)."""
    public = _public(table, seats, last)
    mine = next((s for s in seats if viewer_key and s.player_key == viewer_key), None)
    eng, state = None, None
    if table.state is not None:
        eng = get_engine(table.game)
        state = eng.load(table.state)
        _played(public, table, eng, state)
    envelope = _for_seat(public, eng, state, mine, table.host_key)
    envelope["is_host"] = viewer_key is not None and viewer_key == table.host_key
    return envelope


def every_envelope(
    table: Table, seats: Sequence[Seat], last: dict[str, Any] | None, eng: Engine, state: Any
) -> dict[str, dict[str, Any]]:
    """Each seat's envelope (keyed by the seat number as text) and the spectator's, for one version."""
    public = _public(table, seats, last)
    _played(public, table, eng, state)
    envelopes = {str(s.index): _for_seat(public, eng, state, s, table.host_key) for s in seats}
    envelopes[SPECTATOR] = _for_seat(public, eng, state, None, table.host_key)
    return envelopes
