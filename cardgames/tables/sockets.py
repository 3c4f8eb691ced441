"""What a table socket's life asks of the table, one call each, so the consumer stays thin.

Each runs on a database thread (the consumer's ``database_sync_to_async``). Those that write keep
their group messages in an ``Outbox`` for the event loop to send (``broadcast.deliver``): the
database thread never waits on the channel layer.
"""

from __future__ import annotations

from typing import Any

from accounts.identity import Player

from . import access, broadcast, selectors, services
from .errors import TableError


def admit(table_id: int, player: Player | None, code: str = "", address: str = "") -> str | None:
    """None if ``player`` may open this table's socket, else an error code.

    A room (friends or practice) opens to its seats, its invitees, staff and whoever sends its
    ``code`` (the page's link carries it: PF-24, PF-26, issue 26), never to its id alone
    (``private_room``; a wrong code counts as a guess from ``address``). Online tables are public
    to watch for users; a guest watches only one they sit at or hold the code of
    (``guests_not_allowed``). An anonymous socket never opens (``identity_required``).
    """
    if player is None:
        return "identity_required"
    try:
        table = selectors.get_table(table_id)
        access.require_watch(table, player, code or None, address=address)
    except TableError as exc:
        return exc.code
    if player.is_user or not access.is_public(table) or access.holds_code(table, code):
        return None
    return None if selectors.seat_for(table, player) is not None else "guests_not_allowed"


def envelope(table_id: int, player: Player | None) -> dict[str, Any]:
    """``player``'s envelope at the table's current version."""
    return selectors.table_view_for(table=selectors.get_table(table_id), viewer=player)


def log(table_id: int, player: Player | None, version: int) -> list[dict[str, Any]] | None:
    """``player``'s move log of the current deal up to ``version`` (None before the deal)."""
    table = selectors.get_table(table_id)
    if table.state is None:
        return None
    return selectors.deal_log(table=table, viewer=player, version=version)


def opened(
    table_id: int, player: Player | None
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]] | None, broadcast.Outbox]:
    """A socket opened: its seat counted (the others told, PF-63), then its own envelope (the
    one presence built, else read), the chat and the move log — one trip to the database thread."""
    with broadcast.outbox() as box:
        own = services.mark_connected(table_id=table_id, player=player, connected=True)
    if own is None:
        own = envelope(table_id, player)
    moves = log(table_id, player, own["version"]) if own["view"] is not None else None
    return own, selectors.chat_history(table=table_id), moves, box


def hint(table_id: int, player: Player | None) -> tuple[int, dict[str, Any] | None]:
    """The normal bot's choice for ``player``'s turn, not played (``selectors.hint_for``)."""
    return selectors.hint_for(table=selectors.get_table(table_id), viewer=player)


def snapshot_and_log(
    table_id: int, player: Player | None
) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """``player``'s envelope and, once dealt, the move log up to its version: a client that fell
    behind (docs/protocol.md, "The move log")."""
    own = envelope(table_id, player)
    return own, log(table_id, player, own["version"]) if own["view"] is not None else None


def closed(table_id: int, player: Player | None) -> broadcast.Outbox:
    """A socket closed: its seat counted (the others told when that changes what they see)."""
    with broadcast.outbox() as box:
        services.mark_connected(table_id=table_id, player=player, connected=False)
    return box


def submit(**kwargs: Any) -> tuple[services.Applied, broadcast.Outbox]:
    """A client's move (``services.submit_action``), its group message kept for the event loop."""
    with broadcast.outbox() as box:
        return services.submit_action(**kwargs), box
