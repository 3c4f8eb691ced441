"""Matchmaking's part in the table wing's flow, handed over at start-up (``CardgamesConfig.ready()``).

The tables never import matchmaking (``cardgames.tables.hooks``): this is the one place that
tells them which functions handle online tables.
"""

from __future__ import annotations

from cardgames.tables import hooks

from . import online, services


def register() -> None:
    hooks.register(
        hooks.OnlineHooks(
            wake_waiting=online.wake_waiting,
            stand_up=online.stand_up,
            abort_table=online.abort_table,
            run_wave=services.run_wave,
            queue_again=services.queue_again,
        )
    )
