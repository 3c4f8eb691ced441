"""Issue 26 (6): open sockets are bounded per session and per address, across processes, and
the lobby socket has the table socket's frame limit. With two real daphnes:
tests/services/test_socket_quota_live.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from accounts.socket_quota import Ledger
from cardgames.tables import protocol
from config.asgi import application
from tests.tables.test_socket import ORIGIN, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


def lobby(cookie: bytes | None, address: str = "10.0.0.1") -> WebsocketCommunicator:
    headers = [(b"origin", ORIGIN), (b"host", b"127.0.0.1:8000")] + ([(b"cookie", cookie)] if cookie else [])
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    socket.scope["client"] = (address, 50000)  # the coroutine has not started: it sees this
    return socket


async def opens(socket: WebsocketCommunicator) -> bool:
    """True if the socket opened for good (hello); False if it was told too_many_sockets and closed."""
    assert (await socket.connect(timeout=10))[0]
    frame = await socket.receive_json_from(timeout=10)
    if frame["type"] == "hello":
        return True
    assert frame["code"] == "too_many_sockets" and frame["message"]
    assert (await socket.receive_output(timeout=10)) == {"type": "websocket.close", "code": 4429}
    return False


@pytest.mark.asyncio
@override_settings(SOCKETS_MAX_PER_SESSION=3, SOCKETS_MAX_PER_ADDRESS=100)
async def test_a_sessions_sockets_are_bounded_and_a_closed_one_frees_its_place() -> None:
    _ana, cookie = await signed_in("Ana")
    sockets = [lobby(cookie) for _ in range(3)]
    assert [await opens(s) for s in sockets] == [True, True, True]
    assert not await opens(lobby(cookie))
    assert not await opens(lobby(cookie, address="10.0.0.2"))  # the same session elsewhere
    await sockets[0].disconnect()
    assert await opens(lobby(cookie))  # its place is free again
    _bea, other = await signed_in("Bea")
    assert await opens(lobby(other))  # another session is not counted with Ana's


@pytest.mark.asyncio
@override_settings(SOCKETS_MAX_PER_SESSION=100, SOCKETS_MAX_PER_ADDRESS=2)
async def test_an_addresss_sockets_are_bounded_whatever_the_session() -> None:
    cookies = [(await signed_in(name))[1] for name in ("Ana", "Bea", "Eva")]
    kept = [lobby(cookies[0]), lobby(cookies[1])]  # a communicator dropped would end its socket
    assert [await opens(s) for s in kept] == [True, True]
    assert not await opens(lobby(cookies[2]))
    assert not await opens(lobby(None))  # no session at all: the address still counts
    assert await opens(lobby(cookies[2], address="10.0.0.9"))


@override_settings(SOCKET_LEASE_SECONDS=1)
def test_counts_hold_across_processes_and_a_dead_processs_lapse() -> None:
    """Two processes' ledgers on one cache: each sees the other's sockets; when one dies (stops
    refreshing) its sockets stop counting within a lease."""
    first, second = Ledger(), Ledger()
    first.refresh()
    second.refresh()
    first.refresh()
    bound = {"s:ana": 3}
    assert first.acquire(bound) is None and first.acquire(bound) is None
    assert second.acquire(bound) is None
    assert second.acquire(bound) == "s:ana" and first.acquire(bound) == "s:ana"
    second.release(bound)
    assert first.acquire(bound) is None  # the place the other process gave back
    # the first process dies with three sockets open: nobody refreshes its counts
    time.sleep(1.2)
    second.refresh()
    assert [second.acquire(bound) for _ in range(4)] == [None, None, None, "s:ana"]


@pytest.mark.asyncio
async def test_the_lobby_socket_limits_frames_as_the_table_socket_does() -> None:
    _ana, cookie = await signed_in("Ana")
    socket = lobby(cookie)
    assert await opens(socket)
    for _ in range(protocol.RATE_FRAMES + 5):
        await socket.send_json_to({"type": "ping"})
    answers = [await socket.receive_json_from(timeout=10) for _ in range(protocol.RATE_FRAMES + 5)]
    assert [a["type"] for a in answers].count("pong") == protocol.RATE_FRAMES
    assert {a.get("code") for a in answers if a["type"] == "error"} == {"rate_limited"}
    await asyncio.sleep(protocol.RATE_SECONDS)
    await socket.send_json_to({"type": "ping", "echo": 1})
    assert await socket.receive_json_from(timeout=10) == {"type": "pong", "echo": 1}  # still open
    await socket.disconnect()
