"""The Redis channel layer the site runs (channels_redis's pub/sub layer, config/settings.py):
the properties the live tables rely on, on the real Redis.

- a table's group message reaches every socket of the group in every process (a process gets it
  once and hands it to its own sockets: docs/performance.md, "Live tables");
- two sites or test stacks on one Redis server, each on a database of its own, never hear each
  other's groups (pub/sub channels ignore the database number; the prefix carries it);
- a closed consumer leaves nothing behind in the process (issue 13, "Soak": nothing may grow
  without bound);
- a cancelled receive() stops at once (issue 13, "Faults": the core layer's receive() polled
  Redis and, on Python 3.11, could swallow its cancellation and freeze a player's socket).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from config.settings import channel_prefix

pytestmark = [pytest.mark.services, pytest.mark.timeout(60)]


def layer_on(redis_url: str, prefix: str) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(hosts=[{"address": redis_url, "socket_timeout": 15.0}], prefix=prefix)


async def receive(layer: RedisPubSubChannelLayer, channel: str, seconds: float = 5) -> dict[str, Any]:
    return await asyncio.wait_for(layer.receive(channel), timeout=seconds)


def test_a_group_message_reaches_every_member_in_every_process(require_redis: str) -> None:
    prefix = f"test-{uuid.uuid4().hex}."

    async def scenario() -> list[dict[str, Any]]:
        # two layers stand for two daphne processes: two sockets in one, one in the other
        first, second = layer_on(require_redis, prefix), layer_on(require_redis, prefix)
        try:
            members = [
                (first, await first.new_channel()),
                (first, await first.new_channel()),
                (second, await second.new_channel()),
            ]
            for layer, channel in members:
                await layer.group_add("table.1", channel)
            await first.group_send("table.1", {"type": "table.changed", "version": 7})
            return [await receive(layer, channel) for layer, channel in members]
        finally:
            await first.flush()
            await second.flush()

    assert asyncio.run(scenario()) == [{"type": "table.changed", "version": 7}] * 3


def test_sites_on_other_redis_databases_never_hear_each_others_groups(require_redis: str) -> None:
    """The failure this prevents: two test stacks, each with its own PostgreSQL database where
    table ids start at 1, shared table 1's group, and one's snapshots reached the other's sockets."""
    assert channel_prefix("redis://127.0.0.1:6379/3") != channel_prefix("redis://127.0.0.1:6379/4")
    assert channel_prefix("redis://127.0.0.1:6379") == channel_prefix("redis://127.0.0.1:6379/0")
    run = uuid.uuid4().hex

    async def scenario() -> tuple[dict[str, Any], bool]:
        ours = layer_on(require_redis, f"{run}{channel_prefix('redis://h/3')}")
        theirs = layer_on(require_redis, f"{run}{channel_prefix('redis://h/4')}")
        try:
            mine, other = await ours.new_channel(), await theirs.new_channel()
            await ours.group_add("table.1", mine)
            await theirs.group_add("table.1", other)
            await theirs.group_send("table.1", {"type": "table.changed", "version": 99})
            await ours.group_send("table.1", {"type": "table.changed", "version": 1})
            got = await receive(ours, mine)
            try:
                await receive(ours, mine, seconds=0.5)
                heard_more = True
            except TimeoutError:
                heard_more = False
            return got, heard_more
        finally:
            await ours.flush()
            await theirs.flush()

    got, heard_more = asyncio.run(scenario())
    assert got == {"type": "table.changed", "version": 1} and not heard_more


def test_a_closed_consumer_leaves_nothing_behind(require_redis: str) -> None:
    """As channels runs a consumer: receive() until the socket closes (cancelled), then the
    groups discarded. A message already on its way to it is dropped, not kept."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        layer = layer_on(require_redis, f"test-{uuid.uuid4().hex}.")
        inner = layer._get_layer()
        try:
            for _ in range(20):
                channel = await layer.new_channel()
                await layer.group_add("table.5", channel)
                receiving = asyncio.ensure_future(layer.receive(channel))
                await asyncio.sleep(0)
                receiving.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await receiving
                await layer.group_send("table.5", {"type": "late"})  # on its way as it closed
                await layer.group_discard("table.5", channel)
            await asyncio.sleep(0.3)  # the late messages arrive, for nobody
            shard = inner._shards[0]
            return dict(inner.channels), dict(inner.groups), {"subscribed": set(shard._subscribed_to)}
        finally:
            await layer.flush()

    channels, groups, subscriptions = asyncio.run(scenario())
    assert channels == {} and groups == {} and subscriptions == {"subscribed": set()}


def test_a_cancelled_receive_stops_at_once(require_redis: str) -> None:
    async def scenario() -> int:
        layer = layer_on(require_redis, f"test-{uuid.uuid4().hex}.")
        running = 0
        try:
            for attempt in range(130):
                receiving = asyncio.ensure_future(layer.receive(await layer.new_channel()))
                for _ in range(attempt % 13):  # cancelled at every stage of its start
                    await asyncio.sleep(0)
                receiving.cancel()
                await asyncio.wait([receiving], timeout=1)
                running += not receiving.done()
        finally:
            await layer.flush()
        return running

    assert asyncio.run(scenario()) == 0


def test_the_site_uses_it_with_redis() -> None:
    from config import settings as site_settings

    if site_settings.REDIS_URL:
        layer = site_settings.CHANNEL_LAYERS["default"]
        assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
        assert layer["CONFIG"]["prefix"] == channel_prefix(site_settings.REDIS_URL)
    else:
        assert "channels_redis" not in str(site_settings.CHANNEL_LAYERS)
