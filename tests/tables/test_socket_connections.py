"""A table socket's database threads give their PostgreSQL connections back to the process's
pool after every call (config/settings.py, "The connection budget"): a socket that opened,
played and closed leaves no connection checked out, so sockets never drain the pool.

channels' test communicator once made its socket threads keep them (tests/conftest.py,
``_socket_threads_give_their_connections_back``): one pytest worker's pool ran dry and its
socket tests waited out their timeouts in CI."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from cardgames.tables import selectors
from tests.tables.test_socket import Client_, _dealt_two_player_one_card, _settled

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@sync_to_async
def _close_own_connection() -> None:
    connection.close()


def _checked_out() -> int:
    stats = connection.pool.get_stats()
    return int(stats.get("pool_size", 0)) - int(stats.get("pool_available", 0))


async def test_sockets_that_open_play_and_close_keep_no_connection_of_the_pool(
    require_postgres: None,
) -> None:
    table_id, _ana, _bea, ana_cookie, bea_cookie = await _dealt_two_player_one_card()
    await _close_own_connection()  # the set-up's thread gives its connection back
    before = _checked_out()

    clients = [Client_(table_id, ana_cookie), Client_(table_id, bea_cookie)]
    for client in clients:
        await _settled(client)
    mover = next(c for c in clients if c.snapshot["table"]["legal"])
    action = mover.snapshot["table"]["legal"][-1]
    moved = mover.version + 1
    await mover.send({"type": "action", "action": action, "action_id": "a1", "version": mover.version})
    for client in clients:
        await client.until_version(moved)
        for _ in range(5):  # calls on the socket's database threads, each ending mid-receive
            await client.send({"type": "log"})
            await client.until(lambda f: f["type"] == "log")
    for client in clients:
        await client.close()

    assert await sync_to_async(selectors.table_version)(table_id) == moved
    await _close_own_connection()
    assert _checked_out() <= before
