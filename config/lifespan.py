"""Work that starts with the server process, not with its first websocket (issue 26 item 11).

On the embedded defaults the table runner (``cardgames.tables.runner``: timeouts, bot moves,
settlement, matchmaking waves) lives inside the ASGI process. Started by the first socket, a
restarted daphne left HTTP-only clients (the API, a phone whose page polls) with no bot moves,
timeouts or waves until some page opened a socket. It starts with the process instead:

- servers that speak the ASGI lifespan protocol (uvicorn, hypercorn) send ``lifespan.startup``
  to ``Lifespan``, which starts it, and ``lifespan.shutdown``, which stops it;
- daphne has no lifespan protocol: ``start_with_daphne`` (called when daphne imports
  ``config.asgi``) asks its Twisted reactor, which runs on asyncio's loop, to start the runner
  as soon as it runs, before the first connection.

Either way ``runner.ensure_started`` is a no-op unless ``TABLE_RUNNER`` is ``inprocess``.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

log = logging.getLogger(__name__)


def _start() -> None:
    from cardgames.tables import runner

    runner.ensure_started()


def start_with_daphne() -> bool:
    """Under daphne (its asyncio Twisted reactor installed), start the runner as the reactor
    starts running. Returns whether it was scheduled (False under any other server)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return False
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return False
    # a delayed call runs inside asyncio's running loop (startup triggers run before it)
    reactor.callLater(0, _start)
    return True


class Lifespan:
    """The ASGI lifespan scope: start the process's background work at startup, stop it at
    shutdown."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        from cardgames.tables import runner

        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    _start()
                except Exception as exc:  # the server reports it and does not start
                    log.exception("lifespan startup failed")
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await runner.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return
