"""The parts of a table's envelope that only the engine and the log decide (docs/protocol.md).

Pure (no Django, no clock): the live tables (``envelopes.py``, from rows) and offline practice
(``cardgames.practice``, in the browser's Pyodide, PF-62) build their envelopes from these same
functions, so a practice table tells its player exactly what a live table would.

A log row here is anything with ``seq``, ``seat``, ``action``, ``events`` and ``source``
attributes: the database's ``ActionLog`` or practice's ``LogRow``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from cardgames.engines.base import Engine

from . import flow, legal_wire, movelog


class Row(Protocol):
    seq: int
    seat: int | None
    action: dict[str, Any]
    events: list[Any]
    source: str


def ms(seconds: float) -> int:
    """Epoch seconds as the protocol's epoch milliseconds."""
    return round(seconds * 1000)


def log_entry(row: Row, game: str, viewer: int | None) -> dict[str, Any] | None:
    """A row of the move log as ``viewer`` may know it (``movelog.describe``), with its place in
    the log (``seq``) and who or what made it (``source``); None for a row that is no move."""
    entry = movelog.describe(game, row.seat, row.action, row.events, viewer)
    if entry is None:
        return None
    return {"seq": row.seq, "source": row.source, **entry}


def last_move(
    row: Row | None, game: str, viewer: int | None, *, version: int, hand: list[str] | None = None
) -> dict[str, Any] | None:
    """The envelope's ``last``: the last move shown as ``viewer`` may know it; when it is this
    version's own row, with the cards it put into the viewer's ``hand``."""
    if row is None:
        return None
    entry = log_entry(row, game, viewer)
    if entry is not None and row.seq == version:
        cards = movelog.entered(game, row.seat, row.events, viewer, hand)
        if cards:
            entry["entered"] = cards
    return entry


def fill_played(envelope: dict[str, Any], eng: Engine, state: Any, timer_starts: Mapping[str, float]) -> None:
    """The public facts of a game in play or over: whose turn, the deadlines, the result."""
    if eng.is_over(state):
        envelope["result"] = eng.result(state)
        return
    envelope["to_act"] = eng.to_act(state)
    envelope["timers"] = [
        {**t, "deadline": ms(flow.deadline(t, timer_starts))}
        for t in eng.timers(state)
        if t["id"] in timer_starts
    ]


def fill_view(
    envelope: dict[str, Any], game: str, eng: Engine, state: Any, viewer: int | None, last: Row | None
) -> None:
    """What ``viewer`` (a seat, None for a spectator) sees: the engine's view, its legal actions
    when it may act (Guandan's plays packed, ``legal_wire``) and the last move shown."""
    view = envelope["view"] = eng.view(state, viewer)
    if viewer is not None and viewer in envelope["to_act"]:
        listed, envelope["plays"] = legal_wire.pack(game, eng.legal_actions(state, viewer))
        envelope["legal"] = [dict(a) for a in listed]
    hand = view.get("hand") if isinstance(view, dict) else None
    envelope["last"] = last_move(last, game, viewer, version=envelope["version"], hand=hand)


def deal_entries(
    rows_newest_first: Iterable[Row], game: str, viewer: int | None, *, limit: int
) -> list[dict[str, Any]]:
    """The move log of the current deal (or round), newest first, as ``viewer`` may know it
    (docs/protocol.md, "The move log"): from the newest row back to the row that dealt it
    (``movelog.starts_deal``), at most ``limit`` moves."""
    entries: list[dict[str, Any]] = []
    for row in rows_newest_first:
        entry = log_entry(row, game, viewer)
        if entry is not None:
            entries.append(entry)
        if len(entries) >= limit or movelog.starts_deal(game, row.events):
            break
    return entries
