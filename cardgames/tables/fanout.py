"""A process's table sockets hear their groups through one channel of the channel layer.

Channels gives every consumer a channel of its own: a queue and a layer subscription per socket,
each group joined per socket, and every socket decoding every message of its table for itself.
Here a process (an event loop) holds one channel: it joins a group once, when the first of its
sockets needs it, decodes each message once and hands it to that group's sockets in this process
(``listener.hear``), and leaves the group with the last of them. Any channel layer serves
(in-memory, Redis, Redis pub/sub): only its public API is used. A message names its group
(``broadcast`` adds ``"group"``), since the layer does not say which group a message came by.

A listener's ``hear`` runs on the fanout's one task, one message after another, so it must not
wait on anything slow (a socket sends the frame it was given, or ``spawn``s a read).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


class Listener(Protocol):
    async def hear(self, message: dict[str, Any]) -> None: ...


class _Group:
    """The process's sockets in one group, and the layer membership they share."""

    __slots__ = ("members", "op", "wanted")

    def __init__(self) -> None:
        self.members: set[Listener] = set()
        self.wanted = False  # whether the fanout's channel is (or is being made) a member
        self.op: asyncio.Future[None] | None = None  # the last layer call for it, until done


class Fanout:
    """One event loop's table sockets, by group, behind one channel of ``layer``."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.groups: dict[str, _Group] = {}
        self.channel: str | None = None
        self._opening = asyncio.Lock()
        self._receiving: asyncio.Task[None] | None = None

    async def join(self, name: str, listener: Listener) -> None:
        """``listener`` hears ``name``'s messages from when this returns (the layer has the
        channel in the group: a state read after this misses no message sent after it)."""
        group = self.groups.get(name)
        if group is None:
            group = self.groups[name] = _Group()
        group.members.add(listener)
        if not group.wanted:
            group.wanted = True
            channel = await self._channel()
            self._chain(name, group, lambda: self.layer.group_add(name, channel), adding=True)
        if group.op is not None:
            await asyncio.shield(group.op)

    def leave(self, name: str, listener: Listener) -> None:
        """``listener`` hears no more of ``name``; the layer is left with the group's last socket.
        Synchronous, so that a socket cancelled mid-way leaves too (its ``finally``)."""
        group = self.groups.get(name)
        if group is None or listener not in group.members:
            return
        group.members.discard(listener)
        if group.members:
            return
        if group.wanted:
            group.wanted = False
            channel = self.channel
            self._chain(name, group, lambda: self.layer.group_discard(name, channel), adding=False)
        elif group.op is None:  # its joining had failed: nothing to leave in the layer
            del self.groups[name]

    def _chain(self, name: str, group: _Group, call: Callable[[], Awaitable[Any]], *, adding: bool) -> None:
        """Run ``call`` after the group's previous layer call: a leave and the next join of one
        group reach the layer in that order."""
        previous = group.op

        async def run() -> None:
            if previous is not None:
                with contextlib.suppress(Exception):
                    await previous
            try:
                await call()
            except BaseException:
                if adding:  # not a member after all: the next join tries again
                    group.wanted = False
                raise
            finally:
                if group.op is current:
                    group.op = None
                    if not group.members and not group.wanted and self.groups.get(name) is group:
                        del self.groups[name]

        current = group.op = asyncio.ensure_future(run())
        current.add_done_callback(_done)

    async def _channel(self) -> str:
        async with self._opening:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
                self._receiving = asyncio.ensure_future(self._receive(self.channel))
        return self.channel

    async def _receive(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the layer's server is down: its clients reconnect
                log.warning("fanout: receive failed", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            group = self.groups.get(message.get("group", ""))
            if group is None:
                continue
            for listener in tuple(group.members):
                try:
                    await listener.hear(message)
                except Exception:
                    log.exception("fanout: a socket failed on a %s message", message.get("type"))

    def close(self) -> None:
        if self._receiving is not None:
            self._receiving.cancel()


_fanouts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Fanout] = weakref.WeakKeyDictionary()


def fanout() -> Fanout:
    """The running event loop's fanout on the current channel layer."""
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    found = _fanouts.get(loop)
    if found is None or found.layer is not layer:
        if found is not None:  # the layer was replaced (tests): the old one's task goes
            found.close()
        found = _fanouts[loop] = Fanout(layer)
    return found


_spawned: set[asyncio.Task[Any]] = set()


def spawn(coroutine: Coroutine[Any, Any, Any]) -> None:
    """Run ``coroutine`` beside the fanout's task (a socket's read of the table), kept alive
    until done; its failure is logged."""
    task = asyncio.ensure_future(coroutine)
    _spawned.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Future[Any]) -> None:
    _spawned.discard(task)  # type: ignore[arg-type]
    if not task.cancelled() and task.exception() is not None:
        log.error("fanout: a task failed", exc_info=task.exception())
