"""Issue 26 item 11 under a server that speaks the ASGI lifespan protocol (uvicorn, hypercorn):
``lifespan.startup`` starts the in-process table runner, ``lifespan.shutdown`` stops it.
(Under daphne, which has no lifespan, tests/hardening/test_bin_run_embedded.py proves it.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardgames.tables import runner
from config.asgi import application


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lifespan_scope_starts_and_stops_the_in_process_runner(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLE_RUNNER = "inprocess"
    settings.TABLE_RUNNER_INTERVAL = 0.05
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    server = asyncio.create_task(
        application({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put)
    )
    try:
        await inbox.put({"type": "lifespan.startup"})
        assert (await asyncio.wait_for(outbox.get(), 5))["type"] == "lifespan.startup.complete"
        assert runner._task is not None and not runner._task.done()
        await inbox.put({"type": "lifespan.shutdown"})
        assert (await asyncio.wait_for(outbox.get(), 5))["type"] == "lifespan.shutdown.complete"
        assert runner._task is None
        await asyncio.wait_for(server, 5)
    finally:
        await runner.stop()
        server.cancel()
