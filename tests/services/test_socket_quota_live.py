"""Issue 26 (6) across processes: one session's sockets are counted on two daphnes together (Redis),
and the sockets of a daphne killed with SIGKILL stop counting within a lease — nothing leaks."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from typing import Any

import pytest

from bench.live_harness import live_stack, sessions_from

pytestmark = [pytest.mark.services, pytest.mark.timeout(240)]
LEASE = 3.0


async def lobby(port: int, cookie: str) -> tuple[Any, dict[str, Any]]:
    """A lobby socket and its first frame (``hello``, or the refusal)."""
    from websockets.asyncio.client import connect

    socket = await connect(
        f"ws://127.0.0.1:{port}/ws/lobby/",
        additional_headers={"Cookie": cookie},
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        open_timeout=30,
    )
    return socket, json.loads(await asyncio.wait_for(socket.recv(), 30))


async def refused(port: int, cookie: str) -> bool:
    socket, first = await lobby(port, cookie)
    if first["type"] == "hello":
        await socket.close()
        return False
    assert first["code"] == "too_many_sockets"
    await socket.wait_closed()
    assert socket.close_code == 4429
    return True


def test_a_sessions_sockets_are_counted_on_every_daphne_and_a_dead_ones_lapse(
    require_postgres: None, require_redis: str
) -> None:
    env = {
        "SOCKETS_MAX_PER_SESSION": "4",
        "SOCKETS_MAX_PER_ADDRESS": "1000",
        "SOCKET_LEASE_SECONDS": str(LEASE),
    }
    with live_stack(daphnes=2, worker=False, redis_url=require_redis, extra_env=env) as stack:
        (ana,) = sessions_from(stack.django("users", {"prefix": "sq", "count": 1}))
        a, b = stack.ports
        doomed = stack.daphnes[0]

        async def scenario() -> float:
            # given two of Ana's sockets on each daphne
            held = []
            for port in (a, a, b, b):
                socket, first = await lobby(port, ana.cookie)
                assert first["type"] == "hello"
                held.append(socket)
            # then a fifth is refused on either daphne
            assert await refused(b, ana.cookie) and await refused(a, ana.cookie)
            # when daphne A dies with two of them open, without a word to anyone
            stack.kill(doomed, signal.SIGKILL)
            killed = time.monotonic()
            # then within a lease (and a refresh) their places are free on B: two open, a third not
            while await refused(b, ana.cookie):
                assert time.monotonic() - killed < 3 * LEASE, "a dead daphne's sockets still count"
                await asyncio.sleep(0.25)
            freed_after = time.monotonic() - killed
            for _ in range(2):
                socket, first = await lobby(b, ana.cookie)
                assert first["type"] == "hello"
                held.append(socket)
            assert await refused(b, ana.cookie)
            for socket in held[2:]:
                await socket.close()
            return freed_after

        freed_after = asyncio.run(scenario())
        assert freed_after <= 2 * LEASE
