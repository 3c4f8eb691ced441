"""The end of a game on the table socket (issue 25 items 4 and 5), through the real consumer: the
settlement's earnings and a host's rematch offer reach every seat's open socket at once; a room
its host closes tells the sockets on it; a spectator's chat line is refused with an error frame."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from accounts.identity import Player
from cardgames.tables import endgame, services, settlement
from cardgames.tables.models import Table
from tests.tables.helpers import Clock, play_out
from tests.tables.test_socket import Client_, as_guest, friends_room, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def snapshot_with(key: str, check: Any) -> Any:
    return lambda f: f.get("type") == "snapshot" and check(f["table"].get(key))


@sync_to_async
def _start(table_id: int, host: Player) -> None:
    services.start_table(table_id=table_id, player=host)
    connection.close()


@sync_to_async
def _play_out(table_id: int, people: dict[int, Player], monkeypatch: Any) -> None:
    """Play to the end, its settlement held back (the live site settles on the last move's commit)."""
    from django.utils import timezone

    with monkeypatch.context() as patched:
        patched.setattr(settlement, "finish_table", lambda **kwargs: None)
        play_out(Table.objects.get(pk=table_id), people, Clock(timezone.now()))
    connection.close()


@sync_to_async
def _call(function: Any, **kwargs: Any) -> Any:
    try:
        return function(**kwargs)
    finally:
        connection.close()


async def test_earnings_and_the_rematch_offer_reach_every_seat_socket(monkeypatch) -> None:
    ana, ana_cookie = await signed_in("ana")
    bea, bea_cookie = await signed_in("bea")
    table_id = await friends_room(ana, bea, "one_card", players=2)
    await _start(table_id, ana)
    await _play_out(table_id, {0: ana, 1: bea}, monkeypatch)
    host, friend = Client_(table_id, ana_cookie), Client_(table_id, bea_cookie)
    assert await host.connect() and await friend.connect()
    for client in (host, friend):
        await client.until(lambda f: f.get("type") == "chat_history")
        assert client.snapshot["table"]["result"] and client.snapshot["table"]["earnings"] is None

    await _call(settlement.finish_table, table_id=table_id)

    for client in (host, friend):  # the settlement's numbers reach the open result screens
        frame = await client.until(snapshot_with("earnings", lambda e: e is not None))
        assert [row["seat"] for row in frame["table"]["earnings"]] == [0, 1]
    assert friend.snapshot["table"]["rematch"] is None

    offered = await _call(endgame.rematch, table_id=table_id, player=ana)

    frame = await friend.until(snapshot_with("rematch", lambda r: r is not None))
    assert frame["table"]["rematch"]["table"] == offered.table.pk
    assert frame["table"]["rematch"]["joined"] is False
    await _call(endgame.rematch, table_id=table_id, player=bea)
    await host.close()
    await friend.close()


async def test_a_room_closed_by_its_host_tells_the_sockets_on_it_and_spectators_cannot_chat() -> None:
    ana, _ana_cookie = await signed_in("ana")
    pepe, pepe_cookie = await as_guest("Pepe", "g1")
    table_id = await friends_room(ana, pepe, "one_card", players=3)
    friend = Client_(table_id, pepe_cookie)
    assert await friend.connect()
    await friend.until(lambda f: f.get("type") == "chat_history")
    _mira, mira_cookie = await as_guest("Mira", "g2")
    code = (await _call(Table.objects.get, pk=table_id)).code
    watcher = Client_(table_id, mira_cookie, code=code)
    assert await watcher.connect()
    await watcher.until(lambda f: f.get("type") == "chat_history")
    assert watcher.snapshot["table"]["you"]["role"] == "spectator"

    await watcher.send({"type": "chat", "text": "hola"})
    refused = await watcher.until(lambda f: f.get("type") == "error")
    assert refused["code"] == "spectator"

    await _call(endgame.leave_table, table_id=table_id, player=ana)  # the host: closes the room

    frame = await friend.until(snapshot_with("status", lambda s: s == "closed"))
    assert frame["table"]["code"] is None
    await friend.close()
    await watcher.close()
