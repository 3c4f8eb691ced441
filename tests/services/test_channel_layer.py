"""The Redis channel layer forgets channels nobody listens to any more (config/channel_layer.py;
issue 13, "Soak": nothing may grow without bound).

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


def test_the_site_uses_it_with_redis() -> None:
    from config import settings as site_settings

    if site_settings.REDIS_URL:
        assert site_settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.RedisChannelLayer"
    else:
        assert "channels_redis" not in str(site_settings.CHANNEL_LAYERS)
