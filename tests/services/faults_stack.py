"""Processes to break, for tests/services/test_faults.py (not a test module).

The live stack of bench/live_harness.py, with what the fault tests need on top of it:

- ``PrivateRedis``: a redis-server of the test's own on a free port, so that a restart
  (SIGKILL, then a fresh empty server on the same port) never touches the machine's 6379;
- the Celery worker and Celery beat as **separate** processes (the harness's worker runs beat
  inside it, ``-B``), so each can be killed on its own: ``start_worker`` / ``start_beat``;
  ``python -m tests.services.faults_stack worker`` is that worker, optionally paused at one of
  the economy's failure-injection checkpoints (``economy.ledger.checkpoint``) and with a short
  broker visibility timeout, so that a task whose worker died unacknowledged is redelivered;
- Django commands against the stack's database (``Stack.django(..., module=MODULE)``): a
  buy-in table whose fill deadline has passed, its money, the log's action and timer ids,
  and the ledger audit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.live_harness import COMMANDS, PY, ROOT, WORKER_OPTIONS, Proc, SeatClient, Stack, free_port
from bench.live_harness import main as harness_main

MODULE = "tests.services.faults_stack"
#: how soon an unacknowledged task of a dead worker is put back in the queue (the broker's
#: visibility timeout); above the 10 s of the tables' countdown tasks, so those are not doubled
VISIBILITY_SECONDS = 12


def wait_for(condition: Callable[[], bool], seconds: float, what: str, procs: Sequence[Proc] = ()) -> None:
    """Poll ``condition`` until it holds; past ``seconds`` fail with the processes' log tails."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.name}\n{p.tail()}" for p in procs)
            raise AssertionError(f"timed out after {seconds} s waiting for {what}\n{tails}")
        time.sleep(0.2)


def _spawn(stack: Stack, name: str, argv: list[str], env: dict[str, str] | None = None) -> Proc:
    log = stack.run_dir / f"{name}-{time.monotonic_ns()}.log"
    popen = subprocess.Popen(
        argv,
        env={**stack.env, **(env or {})},
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: a kill takes its pool with it
    )
    proc = Proc(name, popen, log)
    stack.extra.append(proc)
    return proc


def start_worker(stack: Stack, *, pause_at: str = "", marker: Path | None = None) -> Proc:
    """The stack's Celery worker (prefork ×2, as the harness's), without beat."""
    env = {"FAULT_PAUSE_AT": pause_at, "FAULT_MARKER": str(marker or "/dev/null")}
    proc = _spawn(stack, "worker", [PY, "-m", MODULE, "worker"], env)
    wait_for(lambda: " ready." in proc.tail(200_000) or not proc.alive, 90, "the worker to start", [proc])
    assert proc.alive, proc.tail()
    return proc


def start_beat(stack: Stack) -> Proc:
    """Celery beat alone (the sweeper every second, the matchmaking waves)."""
    argv = [PY, "-m", "celery", "-A", "config", "beat", "-l", "info"]
    proc = _spawn(stack, "beat", [*argv, "-s", str(stack.run_dir / "celerybeat-schedule")])
    wait_for(lambda: "Starting..." in proc.tail(200_000) or not proc.alive, 60, "beat to start", [proc])
    assert proc.alive, proc.tail()
    return proc


def sigkill(stack: Stack, proc: Proc) -> None:
    """kill -9 of the process and everything it started; it is gone when this returns."""
    stack.kill(proc, signal.SIGKILL)
    proc.popen.wait(timeout=30)
    assert proc.popen.returncode == -signal.SIGKILL, proc.popen.returncode


class PrivateRedis:
    """A redis-server on a free port, without persistence: a restart loses every key."""

    def __init__(self, run_dir: Path) -> None:
        self.port = free_port()
        self.run_dir = run_dir
        self.restarts = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.run_dir / f"redis-{self.restarts}.log").open("wb")
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            cwd=self.run_dir,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(self.ping, 30, f"redis-server on port {self.port}")

    def ping(self) -> bool:
        import redis

        with contextlib.suppress(Exception):
            return bool(redis.Redis(port=self.port, socket_timeout=1).ping())
        return False

    def crash_and_restart(self, down_seconds: float = 1.0) -> None:
        """SIGKILL (every key, queued task and channel group is lost), then a fresh server."""
        self.stop(signal.SIGKILL)
        time.sleep(down_seconds)  # the outage itself: clients see refused connections meanwhile
        self.restarts += 1
        self.start()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)


class TracingClient(SeatClient):
    """A seat's socket that remembers the ids of the actions it sent and those acknowledged."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sent_ids: set[str] = set()
        self.acked_ids: set[str] = set()

    async def _act(self, ws: Any) -> None:
        try:
            await super()._act(ws)
        finally:  # a send that raised may still have reached the server (and is resent later)
            if self.pending is not None:
                self.sent_ids.add(self.pending.action_id)

    def _on_ack(self, frame: dict[str, Any], at: float) -> None:
        if self.pending is not None and frame.get("action_id") == self.pending.action_id:
            self.acked_ids.add(self.pending.action_id)
        super()._on_ack(frame, at)


# -- the worker ---------------------------------------------------------------------------------
def pause_at_checkpoint(name: str, marker: Path) -> None:
    """Stop every money transaction that reaches checkpoint ``name`` (``economy.ledger.checkpoint``),
    inside it, after writing the process id and the Celery task's id to ``marker``: the test
    kills the process there. Set before a prefork pool forks, every pool process has it."""
    from celery import current_task

    from economy import ledger

    def hook(reached: str) -> None:
        if reached == name:
            task = current_task.request if current_task else None
            marker.write_text(json.dumps({"pid": os.getpid(), "task": getattr(task, "id", None)}))
            time.sleep(3600)  # killed here, inside the open transaction

    ledger.fault_hook = hook


def run_worker() -> None:
    """The stack's worker, paused at ``FAULT_PAUSE_AT`` if set (the test kills it there)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from config.celery import app

    if os.environ.get("FAULT_PAUSE_AT"):
        pause_at_checkpoint(os.environ["FAULT_PAUSE_AT"], Path(os.environ["FAULT_MARKER"]))
    app.conf.broker_transport_options = {
        "visibility_timeout": VISIBILITY_SECONDS,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        # a worker killed while restoring leaves kombu's restore mutex behind for this long
        # (default 300 s), and no other worker restores anything meanwhile
        "unacked_mutex_expire": 5,
    }
    app.worker_main(["worker", *WORKER_OPTIONS, "-n", f"fault{os.getpid()}@%h"])


# -- Django-side commands (run in the stack's environment) ---------------------------------------
def _cmd_buyin_table(request: dict[str, Any]) -> dict[str, Any]:
    """``{"prefix", "seated", "players", "stake", "ago"}``: a buy-in table not full, whose
    first player sat ``ago`` seconds ago (past PF-52's 120 s: due for cancellation)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from accounts.identity import player_for_user
    from cardgames.matchmaking import services
    from cardgames.matchmaking.seating import place_new_table

    moment = timezone.now() - timedelta(seconds=float(request["ago"]))
    game, players, stake = "pika", int(request["players"]), int(request["stake"])
    # one transaction: the waves that a join kicks (and beat's) must not seat these entries first
    with transaction.atomic():
        users = [
            get_user_model().objects.create_user(username=f"{request['prefix']}{i}", password=None)
            for i in range(int(request["seated"]))
        ]
        entries = [
            services.join_queue(
                player=player_for_user(u), game=game, players=players, stake=stake, now=moment
            )
            for u in users
        ]
        seating = place_new_table(
            game=game, players=players, stake=stake, entry_ids=[e.pk for e in entries], now=moment
        )
    assert len(seating.seated) == len(users) and not seating.started
    return {"table": seating.table.pk, "pot": seating.table.pot_id, "users": [u.pk for u in users]}


def _cmd_money(request: dict[str, Any]) -> dict[str, Any]:
    """``{"pot", "users"}``: the pot's refunds (one user id per refund transfer), balances, audit."""
    from economy import selectors
    from economy.audit import audit_ledger
    from economy.models import Pot, Transfer
    from economy.services.common import UserRef

    pot = Pot.objects.get(pk=request["pot"])
    refunds = Transfer.objects.filter(kind="refund", pot=pot)
    audit = audit_ledger()
    return {
        "pot_status": pot.status,
        "refunded": sorted(t.user_id for t in refunds),
        "coins": [selectors.wallet_balance(user=UserRef(u)) for u in request["users"]],
        "audit_ok": audit.ok,
        "problems": audit.problems,
    }


def _cmd_log_ids(request: dict[str, Any]) -> list[dict[str, Any]]:
    """``{"tables"}``: per table, the people's action ids and the timeouts (timer id, epoch s)."""
    from cardgames.tables.models import ActionLog, Table

    out = []
    for table in Table.objects.filter(pk__in=request["tables"]).order_by("pk"):
        rows = ActionLog.objects.filter(table=table)
        out.append(
            {
                "id": table.pk,
                "player_ids": list(rows.filter(source="player").values_list("action_id", flat=True)),
                "timeouts": [
                    [timer, at.timestamp()]
                    for timer, at in rows.filter(source="timeout").values_list("timer_id", "at")
                ],
            }
        )
    return out


def _cmd_recovery(request: dict[str, Any]) -> dict[str, Any]:
    """``{"tables"}``: per table the harness's audit (log, replay, settlement) with the ids of
    ``log_ids``; and the ledger audit."""
    from economy.audit import audit_ledger

    ids = {row["id"]: row for row in _cmd_log_ids(request)}
    tables = [{**audit, **ids[audit["id"]]} for audit in COMMANDS["audit"](request)]
    ledger = audit_ledger()
    return {"tables": tables, "ledger_ok": ledger.ok, "problems": ledger.problems}


def main() -> None:
    if sys.argv[1] == "worker":
        run_worker()
        return
    COMMANDS.update(
        buyin_table=_cmd_buyin_table, money=_cmd_money, log_ids=_cmd_log_ids, recovery=_cmd_recovery
    )
    harness_main()


if __name__ == "__main__":
    main()
