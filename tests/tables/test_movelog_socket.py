"""The move log over the table socket (docs/protocol.md, "The move log"): each move's envelope
carries that move as its viewer may know it (``last``), a socket that opens gets the current
deal's whole log, per viewer, and so does one that asks or that skipped versions; a hand reorder
is nobody's last move (PK-46: tests/tables/test_movelog_service.py)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from accounts.identity import Player
from cardgames.tables import envelope_parts, selectors, services
from cardgames.tables.models import ActionLog
from tests.tables.test_socket import Client_, _move_without_broadcast, _table, friends_room, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def _play_until_bea_drew(table_id: int, ana: Player, bea: Player) -> ActionLog:
    """Both play their first legal action until Bea (seat 1) has drawn a card: that row."""
    services.start_table(table_id=table_id, player=ana)
    for step in range(400):
        table = selectors.get_table(table_id)
        drew = ActionLog.objects.filter(table=table, seat=1, action__type="draw").order_by("-seq").first()
        if drew is not None and drew.events[0].get("cards"):
            connection.close()
            return drew
        for player in (ana, bea):
            legal = selectors.table_view_for(table=table, viewer=player)["legal"]
            if legal:
                action = legal[-1]  # a draw when it is the only move, else the hand's last card
                services.submit_action(
                    table_id=table_id,
                    player=player,
                    action=action,
                    action_id=f"s{step}",
                    version=table.version,
                )
                break
    raise AssertionError("Bea never drew")


@sync_to_async
def _expected_log(table_id: int, seat: int | None) -> list[dict[str, Any]]:
    table = selectors.get_table(table_id)
    rows = ActionLog.objects.filter(table=table).order_by("-seq")
    entries = [envelope_parts.log_entry(row, table.game, seat) for row in rows]
    connection.close()
    return [e for e in entries if e is not None]


async def _opened(client: Client_) -> tuple[dict[str, Any], dict[str, Any]]:
    """A socket's opening frames: its snapshot and its log (before the chat history)."""
    assert await client.connect()
    snapshot = await client.next()
    log = await client.next()
    assert (snapshot["type"], log["type"]) == ("snapshot", "log")
    assert (await client.next())["type"] == "chat_history"
    return snapshot, log


async def test_oc52_every_viewer_gets_the_whole_log_with_drawn_cards_named_to_the_drawer_alone() -> None:
    ana, ana_cookie = await signed_in("Ana")
    bea, bea_cookie = await signed_in("Bea")
    _mira, mira_cookie = await signed_in("Mira")
    table_id = await friends_room(ana, bea, "one_card", players=2)
    drew = await _play_until_bea_drew(table_id, ana, bea)
    cards = drew.events[0]["cards"]

    logs = {}
    clients = {}
    code = (await _table(table_id)).code  # Mira watches with the room's link
    for seat, cookie in ((0, ana_cookie), (1, bea_cookie), (None, mira_cookie)):
        clients[seat] = Client_(table_id, cookie, code=code)
        snapshot, log = await _opened(clients[seat])
        assert log["version"] == snapshot["version"]
        assert log["entries"] == await _expected_log(table_id, seat)  # every move, newest first
        last = dict(snapshot["table"]["last"])
        last.pop("entered", None)
        assert last == log["entries"][0] and last["seq"] == snapshot["version"]
        logs[seat] = {e["seq"]: e for e in log["entries"]}
    # OC-52: Bea's draw names its cards in her log only
    assert logs[1][drew.seq]["facts"][0] == {"kind": "draw", "seat": 1, "count": len(cards), "cards": cards}
    for seat in (0, None):
        assert logs[seat][drew.seq]["facts"][0] == {"kind": "draw", "seat": 1, "count": len(cards)}

    # a move: each socket's envelope of it carries it as its viewer may know it, and no log frame
    client = clients[0]
    envelope = client.snapshot["table"]
    mover = 0 if envelope["legal"] else 1
    action = (envelope if mover == 0 else clients[1].snapshot["table"])["legal"][-1]
    await clients[mover].send(
        {"type": "action", "action": action, "action_id": "m1", "version": envelope["version"]}
    )
    version = envelope["version"] + 1
    for seat, each in clients.items():
        frame = await each.until_version(version)
        last = frame["table"]["last"]
        assert last["seq"] == version and last["seat"] == mover and last["type"] == action["type"]
        expected = (await _expected_log(table_id, seat))[0]
        assert {k: v for k, v in last.items() if k != "entered"} == expected
        if action["type"] == "draw":
            assert ("entered" in last) == (seat == mover)
    # the client asks for the log: it comes
    await clients[None].send({"type": "log"})
    answer = await clients[None].until(lambda f: f["type"] == "log")
    assert answer["version"] == version and answer["entries"] == await _expected_log(table_id, None)
    # a socket that skips versions (two moves, the first one's push lost) gets the log after the snapshot
    lost = await _move_without_broadcast(table_id, [ana, bea])
    moved = await _move_without_broadcast_then_pushed(table_id, [ana, bea])
    assert moved == lost + 1
    for each in clients.values():
        await each.until_version(moved)
        log = await each.until(lambda f: f["type"] == "log")
        assert log["version"] == moved and [e["seq"] for e in log["entries"][:2]] == [moved, lost]
    for each in clients.values():
        await each.close()


@sync_to_async
def _move_without_broadcast_then_pushed(table_id: int, players: list[Player]) -> int:
    table = selectors.get_table(table_id)
    for player in players:
        legal = selectors.table_view_for(table=table, viewer=player)["legal"]
        if legal:
            applied = services.submit_action(
                table_id=table_id, player=player, action=legal[-1], action_id="pushed", version=table.version
            )
            connection.close()
            return applied.version
    raise AssertionError("nobody may move")
