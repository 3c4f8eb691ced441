"""The fanout: a process's table sockets hear their groups through one channel of the layer
(cardgames/tables/fanout.py), joined with the first socket of a group and left with the last."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer

from cardgames.tables.fanout import Fanout

pytestmark = pytest.mark.asyncio


class RecordingLayer(InMemoryChannelLayer):
    """The in-memory layer, noting the group calls in the order they reach it; a join can be
    made slow or made to fail."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str]] = []
        self.slow_add = 0.0
        self.failing_adds = 0

    async def group_add(self, group: str, channel: str) -> None:
        if self.slow_add:
            await asyncio.sleep(self.slow_add)
        if self.failing_adds:
            self.failing_adds -= 1
            raise ConnectionError("the layer's server is down")
        self.calls.append(("add", group))
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        self.calls.append(("discard", group))
        await super().group_discard(group, channel)


class Socket:
    def __init__(self) -> None:
        self.heard: list[dict[str, Any]] = []

    async def hear(self, message: dict[str, Any]) -> None:
        self.heard.append(message)


async def _settle(fanout: Fanout) -> None:
    for _ in range(100):
        if all(group.op is None for group in fanout.groups.values()):
            return
        await asyncio.sleep(0.005)


async def test_every_socket_of_a_group_hears_its_messages_and_only_those() -> None:
    layer = RecordingLayer()
    fanout = Fanout(layer)
    ana, bea, other = Socket(), Socket(), Socket()
    await fanout.join("table.1", ana)
    await fanout.join("table.1", bea)
    await fanout.join("table.2", other)
    await layer.group_send("table.1", {"type": "table.changed", "version": 3, "group": "table.1"})
    await asyncio.sleep(0.05)
    assert ana.heard == bea.heard == [{"type": "table.changed", "version": 3, "group": "table.1"}]
    assert other.heard == []
    assert layer.calls == [("add", "table.1"), ("add", "table.2")]  # one join per group
    fanout.close()


async def test_the_group_is_left_with_its_last_socket() -> None:
    layer = RecordingLayer()
    fanout = Fanout(layer)
    ana, bea = Socket(), Socket()
    await fanout.join("table.1", ana)
    await fanout.join("table.1", bea)
    fanout.leave("table.1", ana)
    await _settle(fanout)
    assert layer.calls == [("add", "table.1")]
    fanout.leave("table.1", bea)
    fanout.leave("table.1", bea)  # twice (a socket's disconnect, then its end): nothing more
    await _settle(fanout)
    assert layer.calls == [("add", "table.1"), ("discard", "table.1")]
    assert fanout.groups == {}
    await layer.group_send("table.1", {"type": "table.changed", "version": 4, "group": "table.1"})
    await asyncio.sleep(0.02)
    assert bea.heard == []
    fanout.close()


async def test_a_leave_and_the_next_join_reach_the_layer_in_that_order() -> None:
    """The last socket closes and a new one opens at once: the layer must end with the channel
    in the group (a discard after the add would leave the new socket deaf)."""
    layer = RecordingLayer()
    fanout = Fanout(layer)
    ana, bea = Socket(), Socket()
    await fanout.join("table.1", ana)
    fanout.leave("table.1", ana)
    await fanout.join("table.1", bea)
    await _settle(fanout)
    assert layer.calls == [("add", "table.1"), ("discard", "table.1"), ("add", "table.1")]
    await layer.group_send("table.1", {"type": "table.changed", "version": 5, "group": "table.1"})
    await asyncio.sleep(0.05)
    assert [m["version"] for m in bea.heard] == [5]
    fanout.close()


async def test_a_second_socket_waits_until_the_group_is_joined() -> None:
    """A socket reads the table once ``join`` returns: the channel must be in the group by then,
    even when another socket's join of the same group is still on its way."""
    layer = RecordingLayer()
    layer.slow_add = 0.05
    fanout = Fanout(layer)
    first = asyncio.ensure_future(fanout.join("table.1", Socket()))
    await asyncio.sleep(0)
    await fanout.join("table.1", Socket())
    assert layer.calls == [("add", "table.1")]
    await first
    fanout.close()


async def test_a_failed_join_is_tried_again_by_the_next_socket() -> None:
    layer = RecordingLayer()
    layer.failing_adds = 1
    fanout = Fanout(layer)
    ana, bea = Socket(), Socket()
    with pytest.raises(ConnectionError):
        await fanout.join("table.1", ana)
    fanout.leave("table.1", ana)  # the socket that failed to open goes
    assert fanout.groups == {}
    await fanout.join("table.1", bea)
    await layer.group_send("table.1", {"type": "table.changed", "version": 1, "group": "table.1"})
    await asyncio.sleep(0.05)
    assert [m["version"] for m in bea.heard] == [1]
    fanout.close()


async def test_a_socket_that_fails_on_a_message_does_not_deafen_the_others() -> None:
    layer = RecordingLayer()
    fanout = Fanout(layer)

    class Broken(Socket):
        async def hear(self, message: dict[str, Any]) -> None:
            raise RuntimeError("boom")

    ana = Socket()
    await fanout.join("table.1", Broken())
    await fanout.join("table.1", ana)
    for version in (1, 2):
        await layer.group_send("table.1", {"type": "table.changed", "version": version, "group": "table.1"})
    await asyncio.sleep(0.05)
    assert [m["version"] for m in ana.heard] == [1, 2]
    fanout.close()


async def test_a_receive_that_fails_is_tried_again_and_the_groups_are_heard_after() -> None:
    """The layer's server goes away for a moment (Redis restarting): the fanout's one task keeps
    receiving, so the process's sockets are not deaf for the rest of their lives."""

    class Flaky(RecordingLayer):
        failures = 1

        async def receive(self, channel: str) -> dict[str, Any]:
            if self.failures:
                self.failures -= 1
                raise ConnectionError("the layer's server is down")
            return await super().receive(channel)

    layer = Flaky()
    fanout = Fanout(layer)
    ana = Socket()
    await fanout.join("table.1", ana)
    await layer.group_send("table.1", {"type": "table.changed", "version": 7, "group": "table.1"})
    for _ in range(100):
        if ana.heard:
            break
        await asyncio.sleep(0.02)
    assert [m["version"] for m in ana.heard] == [7]
    fanout.close()


async def test_the_sites_layer_holds_a_burst_of_every_table_of_a_process() -> None:
    """One channel now queues every table's messages of the process: a burst of moves at 300
    tables (more than channels' default capacity of 100 a channel) reaches every table."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    fanout = Fanout(layer)
    sockets = [Socket() for _ in range(300)]
    for table, socket in enumerate(sockets):
        await fanout.join(f"table.{table}", socket)
    await asyncio.gather(
        *(
            layer.group_send(
                f"table.{table}", {"type": "table.changed", "version": 1, "group": f"table.{table}"}
            )
            for table in range(len(sockets))
        )
    )
    for _ in range(200):
        if all(socket.heard for socket in sockets):
            break
        await asyncio.sleep(0.02)
    assert sum(1 for socket in sockets if socket.heard) == len(sockets)
    fanout.close()
