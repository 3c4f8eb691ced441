"""The Redis channel layer (config/channel_layer.py) forgets channels nobody listens to any more
(issue 13, "Soak": nothing may grow without bound), and a cancelled receive() really stops
(issue 13, "Faults": a Redis crash must not freeze a player's socket).

A message on its way to a consumer that has just stopped (its ``receive()`` cancelled, as a
socket's when it closes) is read by another consumer of the same process and buffered for the
dead channel. channels_redis 4.3.0 keeps that buffer for ever (≈ 3.5 kB a closed table socket,
docs/performance.md); ours drops it once the channel has had no receiver for ``expiry`` seconds.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer as StockLayer

from config.channel_layer import RedisChannelLayer

pytestmark = [pytest.mark.services, pytest.mark.timeout(60)]
EXPIRY = 1


async def until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def orphan_then_message(layer: StockLayer) -> tuple[bool, bool, dict[str, Any]]:
    """A channel stops listening, a message for it arrives anyway; after ``EXPIRY`` seconds another
    channel's message is received. Whether the dead channel's buffer was there before and after."""
    gone, alive = await layer.new_channel(), await layer.new_channel()
    try:
        listening = asyncio.create_task(layer.receive(alive))
        stopping = asyncio.create_task(layer.receive(gone))
        await until(lambda: layer.receive_count == 2, 10, "both to receive")
        stopping.cancel()  # the consumer closed
        with pytest.raises(asyncio.CancelledError):
            await stopping
        stopped_at = time.monotonic()
        await layer.send(gone, {"type": "late"})  # sent before it left its group, say
        await until(lambda: gone in layer.receive_buffer, 10, "the other receiver to buffer it")
        await until(lambda: time.monotonic() > stopped_at + EXPIRY, 10, "the expiry")
        await layer.send(alive, {"type": "news"})
        message = await asyncio.wait_for(listening, 10)
        return True, gone in layer.receive_buffer, message
    finally:
        await layer.close_pools()


@pytest.mark.parametrize(("layer_class", "kept"), [(StockLayer, True), (RedisChannelLayer, False)])
def test_a_closed_consumers_late_message_is_not_kept_for_ever(
    require_redis: str, layer_class: type[StockLayer], kept: bool
) -> None:
    layer = layer_class(hosts=[require_redis], expiry=EXPIRY)
    buffered, still_there, message = asyncio.run(orphan_then_message(layer))
    assert buffered  # the stray message was buffered for the dead channel, with either layer
    assert message == {"type": "news"}  # the living one, waiting past the expiry, got its own
    assert still_there is kept  # channels_redis keeps it for ever; ours drops it


async def cancelled_receives(layer: StockLayer, tries: int) -> tuple[int, int]:
    """Cancel a fresh channel's receive() ``tries`` times, each after a different number of event
    loop turns (so that some cancellations land while redis-py is sending a command); how many
    were cancelled and how many were still running a second later."""
    cancelled = running = 0
    try:
        for attempt in range(tries):
            receiving = asyncio.ensure_future(layer.receive(await layer.new_channel()))
            for _ in range(attempt % 13):
                await asyncio.sleep(0)
            receiving.cancel()
            cancelled += 1
            await asyncio.wait([receiving], timeout=1)
            if not receiving.done():
                running += 1
                while not receiving.done():  # the stock layer's: stop it, whatever it takes
                    receiving.cancel()
                    await asyncio.wait([receiving], timeout=0.05)
                break
    finally:
        await layer.close_pools()
    return cancelled, running


def test_a_cancelled_receive_stops_even_when_python_3_11_drops_the_cancellation(
    require_redis: str,
) -> None:
    # given redis-py 8 with a socket timeout, which sends each command through asyncio.wait_for:
    # on Python 3.11 the stock layer's receive() swallows a cancellation that lands as a send
    # ends and polls Redis for ever (its consumer, and the player's socket, with it) ...
    host = {"address": require_redis, "socket_timeout": 15.0}
    _, running = asyncio.run(cancelled_receives(StockLayer(hosts=[host]), 39))
    assert running == 1, "the stock layer stopped every time: the workaround may have had its day"
    # ... ours stops every time, within a second
    cancelled, running = asyncio.run(cancelled_receives(RedisChannelLayer(hosts=[host]), 130))
    assert (cancelled, running) == (130, 0)


def test_the_site_uses_it_with_redis() -> None:
    from config import settings as site_settings

    if site_settings.REDIS_URL:
        assert site_settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.RedisChannelLayer"
    else:
        assert "channels_redis" not in str(site_settings.CHANNEL_LAYERS)
