"""What the table wing asks of the app that seats online tables (issue 26).

Matchmaking builds on the tables, never the reverse: nothing under ``cardgames/tables``
imports ``cardgames.matchmaking`` (tests/test_service_boundary.py). Where a table's own flow
meets what only matchmaking knows — its queue entries and buy-ins — the tables call what
matchmaking registered here when Django started (``CardgamesConfig.ready()`` →
``cardgames.matchmaking.hooks.register``):

- ``wake_waiting``: a waiting online table woken by the sweeper (``services.wake_table``) — its
  fill deadline (PF-51 simulated players, PF-52 cancel and refund);
- ``stand_up``: a person leaving a waiting online table (``services.leave_room``): the seat, the
  queue entry and a buy-in entry go back together;
- ``abort_table``: the admin's abort of a buy-in game (``admin.TableAdmin``);
- ``run_wave``: the in-process runner's periodic matchmaking wave (``runner``);
- ``queue_again``: "Buscar otra" on a finished online table (``endgame.rematch``): the player
  queues for the same game, players and stake, through the queue's own checks (the wallet too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from .models import Table


class WakeWaiting(Protocol):
    def __call__(self, table: Table, moment: datetime, /) -> str: ...


class StandUp(Protocol):
    def __call__(self, *, table_id: int, user_id: int, now: datetime | None = None) -> int: ...


class AbortTable(Protocol):
    def __call__(self, *, table_id: int, actor: Any, reason: str, now: datetime | None = None) -> int: ...


class RunWave(Protocol):
    def __call__(self) -> object: ...


class QueueAgain(Protocol):
    def __call__(self, *, table_id: int, user_id: int) -> dict[str, Any]: ...


@dataclass(frozen=True)
class OnlineHooks:
    #: the caller (``wake_table``) holds the Table row lock and its transaction
    wake_waiting: WakeWaiting
    #: opens its own transaction (a savepoint inside the caller's) and locks the Table row first
    stand_up: StandUp
    abort_table: AbortTable
    run_wave: RunWave
    #: opens its own transaction; raises ``TableError`` with the queue's code when it refuses
    queue_again: QueueAgain


_registered: OnlineHooks | None = None


def register(hooks: OnlineHooks) -> None:
    """Set the online tables' hooks (once, at start-up; registering again replaces them)."""
    global _registered
    _registered = hooks


def online() -> OnlineHooks:
    """The registered hooks; an online table without them is a set-up error, never skipped."""
    if _registered is None:
        raise RuntimeError(
            "no online-table hooks: cardgames.matchmaking registers them in CardgamesConfig.ready()"
        )
    return _registered
