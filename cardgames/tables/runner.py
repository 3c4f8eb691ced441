"""The in-process table runner of the embedded defaults (``TABLE_RUNNER=inprocess``).

With no Redis the channel layer lives in daphne's memory, so a Celery worker could apply a
timeout but never tell the sockets. On those defaults the sweeper runs inside daphne
instead: an asyncio task, started with the process (config/lifespan.py: the ASGI lifespan, or
daphne's reactor; a socket starts it again should it have stopped), wakes due tables every
``TABLE_RUNNER_INTERVAL`` seconds through the same ``deadlines.sweep`` that Celery beat
runs in production. Its broadcasts reach the sockets of this process directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from . import hooks

log = logging.getLogger(__name__)
_task: asyncio.Task[None] | None = None
#: a matchmaking wave is wanted at the next tick (set from any thread by ``kick_wave``)
_wave_wanted = False
#: seconds between the runner's own matchmaking waves (joins kick one sooner)
WAVE_SECONDS = 2.0


def kick_wave() -> None:
    """Ask for a matchmaking wave at the runner's next tick (cardgames/matchmaking, issue 11)."""
    global _wave_wanted
    _wave_wanted = True


def ensure_started() -> None:
    """Start the runner in the running event loop, once (a no-op unless TABLE_RUNNER is inprocess)."""
    global _task
    if settings.TABLE_RUNNER != "inprocess":
        return
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return
    _task = loop.create_task(_run(), name="tapete-table-runner")


async def stop() -> None:
    """Cancel the runner (tests; daphne simply exits)."""
    global _task
    if _task is not None:
        _task.cancel()
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await _task
        _task = None


async def _run() -> None:
    global _wave_wanted
    from .deadlines import sweep
    from .services import close_idle_rooms

    sweep_async = database_sync_to_async(sweep)
    close_async = database_sync_to_async(close_idle_rooms)
    wave_async = database_sync_to_async(hooks.online().run_wave)  # matchmaking's, registered at start-up
    interval = float(settings.TABLE_RUNNER_INTERVAL)
    ticks = 0
    while True:
        try:
            await sweep_async()
            if _wave_wanted or ticks % max(1, int(WAVE_SECONDS / interval)) == 0:
                _wave_wanted = False
                await wave_async()
            if ticks % max(1, int(300 / interval)) == 0:
                await close_async()
        except Exception:
            log.exception("table runner pass failed")
        ticks += 1
        await asyncio.sleep(interval)
