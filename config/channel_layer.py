"""The Redis channel layer (``CHANNEL_LAYERS`` with ``REDIS_URL``): channels_redis's, without the
receive buffers of channels that nobody listens to any more.

channels_redis 4.3.0 buffers each message for a process-local channel (``specific.…!…``) in
``receive_buffer[channel]``, an ``asyncio.Queue`` made on demand. When a consumer stops (a socket
closed), its ``receive()`` is cancelled; a message to it that was already on its way (a table's
group message sent just before the consumer left the group) is then read by another
consumer's ``receive()`` and buffered for the dead channel for good: ≈ 3.5 kB a closed table
socket in the socket-churn check (docs/performance.md, "Soak"). Upstream:
django/channels_redis#426 (open, unreleased).

It also makes sure that a cancelled ``receive()`` stops. On Python 3.11, redis-py 8 sends each
command through ``asyncio.wait_for`` (when ``socket_timeout`` is set), and 3.11's ``wait_for``
drops a cancellation that arrives just as the send finishes (CPython gh-86296; 3.12 rewrote
``wait_for``). channels_redis's ``receive()`` then carries on and polls Redis for ever. The
consumer that cancelled it waits for it to end (channels' ``await_many_dispatch``), so it never
ends, and daphne never closes its socket: a player sits before a table that no longer answers.
That is how a crash of Redis left a seat frozen (tests/services/test_faults.py). Here the
upstream ``receive()`` runs in a task of its own, and a cancelled ``receive()`` cancels that task
again until it has stopped.

A channel whose last ``receive()`` ended (returned, raised or was cancelled) ``expiry``
seconds ago, and that nobody is receiving on now, loses its buffer — its messages would have
expired in Redis by then. The bookkeeping is one dict entry per channel that received within
the last ``expiry`` seconds, oldest first, trimmed on every ``receive()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, OrderedDict
from collections.abc import Coroutine
from typing import Any, TypeVar

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer

T = TypeVar("T")


class RedisChannelLayer(BaseRedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receiving: Counter[str] = Counter()  # channel -> receive() calls in progress
        # channel -> when its last receive() ended, oldest first
        self.last_received: OrderedDict[str, float] = OrderedDict()

    async def receive(self, channel: str) -> dict[str, Any]:
        self.receiving[channel] += 1
        self.last_received.pop(channel, None)
        try:
            return await _cancelled_for_sure(super().receive(channel))
        finally:
            self.receiving[channel] -= 1
            if self.receiving[channel] <= 0:
                del self.receiving[channel]
            now = time.monotonic()
            self.last_received[channel] = now
            self.forget_abandoned(now)

    def forget_abandoned(self, now: float) -> None:
        """Drop the buffers of channels last received on more than ``expiry`` seconds ago."""
        while self.last_received:
            channel, at = next(iter(self.last_received.items()))
            if at > now - self.expiry:
                break  # the rest are newer
            del self.last_received[channel]
            if channel not in self.receiving:
                self.receive_buffer.pop(channel, None)


#: how often a cancelled receive() is cancelled again until it stops
RECANCEL_SECONDS = 0.05


async def _cancelled_for_sure(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work`` in a task of its own. When cancelled, cancel that task again and again
    until it has stopped, however often it swallows the cancellation, then raise."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        while not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):  # cancelled again: stopping anyway
                await asyncio.wait([task], timeout=RECANCEL_SECONDS)
        if not task.cancelled():
            task.exception()  # retrieved: a failure after the cancellation is of no interest
        raise
