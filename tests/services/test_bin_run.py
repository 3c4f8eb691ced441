"""The site as ``bin/run`` starts it, on PostgreSQL and Redis (issue 13, "Faults": a Celery worker
that dies must not take the site down; Ctrl-C/SIGTERM still stops everything).

``bin/run`` (with ``TAPETE_SKIP_SETUP=1``: the shared venv as it is) runs against a stack of its
own (bench/live_harness.py's database and Redis db, no processes of the harness's), so its
supervisor (config/supervise.py) starts the worker, beat and daphne. A person plays One Card
against three bots, whose moves only the worker makes (``TABLE_RUNNER=celery``). The worker is
killed with SIGKILL mid-game; the supervisor starts a new one and the bots move again (beat's
sweeper wakes the table: the killed worker's countdown stays unacknowledged); the game finishes.
Then SIGTERM to bin/run stops everything: no process of the site is left.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
from pathlib import Path

import pytest
from django.conf import settings

from bench.live_harness import Proc, Stack, Stats, free_port, live_stack, sessions_from
from tests.conftest import missing_service
from tests.hardening.test_supervise import alive
from tests.services.faults_stack import TracingClient, wait_for
from tests.services.processes import spawn_bin_run
from tests.services.test_faults import Game, play, until

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]


def started(site: Proc, name: str) -> list[int]:
    """The pids the supervisor started ``name`` with, in order (from its log)."""
    return [int(pid) for pid in re.findall(rf"==> supervise: {name} started \(pid (\d+)\)", site.tail(10**7))]


def descendants(pid: int) -> list[int]:
    """``pid``'s children, theirs, and so on (from /proc)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            children = [int(c) for c in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
        except OSError:
            continue
        out += children
        todo += children
    return out


def serving(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def start_bin_run(stack: Stack) -> Proc:
    port = free_port()
    site = spawn_bin_run(stack.env, stack.run_dir, port)
    stack.extra.append(site)  # stopped by the stack whatever happens
    wait_for(
        lambda: serving(port) and " ready." in site.tail(10**7) and "beat: Starting" in site.tail(10**7),
        180,
        "bin/run's daphne, worker and beat",
        [site],
    )
    return site


def test_bin_run_restarts_a_killed_worker_the_bots_play_on_and_sigterm_leaves_nothing() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing_service("DATABASE_URL does not point at PostgreSQL")
    if not settings.REDIS_URL or not shutil.which("redis-server"):
        missing_service("REDIS_URL is not set or redis-server is not installed")
    with live_stack(daphnes=0, worker=False, extra_env={"TABLE_BOT_THINK_SECONDS": "0.1"}) as stack:
        # given the site as bin/run starts it, and a person against three bots
        site = start_bin_run(stack)
        assert site.port is not None
        (person,) = sessions_from(stack.django("users", {"prefix": "br_", "count": 1}))
        http = f"http://127.0.0.1:{site.port}"
        room = person.api(
            http, "POST", "/api/tables", {"game": "one_card", "mode": "bots", "bot_level": "easy"}
        )
        person.api(http, "POST", f"/api/tables/{room['id']}/start", {})
        stats = Stats()
        client = TracingClient(
            path=f"/ws/tables/{room['id']}/", cookie=person.cookie, ports=[site.port], stats=stats, think=0.1
        )
        game = Game(room["id"], [client])
        (first_worker,) = started(site, "worker")
        after: dict[str, int] = {}

        async def chaos() -> None:
            await until(lambda: client.version >= 3, 60, "the bots to move")
            assert not game.over
            # when the worker is killed with SIGKILL mid-game
            os.kill(first_worker, signal.SIGKILL)
            # then the supervisor says so and starts a new one, which gets ready
            await until(lambda: len(started(site, "worker")) == 2, 60, "the worker to be restarted")
            await until(lambda: site.tail(10**7).count(" ready.") == 2, 120, "the new worker to be ready")
            after.update(version=client.version, acked=len(client.acked_ids))

        (end,) = play([game], chaos, timeout=240)

        # the game finished, and more versions were applied after the restart than the person's
        # own moves: the bots (or their clock) moved, which only the worker does
        assert end["status"] == "finished", end
        assert "worker exited with signal SIGKILL; restarting it in 1 s" in site.tail(10**7)
        person_moves = len(client.acked_ids) - after["acked"]
        assert end["version"] - after["version"] > person_moves, (end["version"], after, person_moves)
        assert not alive(first_worker)
        assert site.alive and serving(site.port)
        for name in ("beat", "daphne"):
            assert len(started(site, name)) == 1, site.tail()  # nothing else was restarted

        # when bin/run gets SIGTERM
        everyone = descendants(site.popen.pid)
        assert len(everyone) >= 5, everyone  # worker, its 2 pool processes, beat, daphne
        site.popen.send_signal(signal.SIGTERM)
        # then it stops, and no process of the site is left, nor the port served
        assert site.popen.wait(timeout=60) == 0, site.tail()
        # (the whole log: a pool process stopped mid-task may print a long traceback after these)
        log = site.tail(10**7)
        assert "SIGTERM: stopping" in log and "==> supervise: stopped" in log, site.tail()
        # (a pool process reparented to init is reaped by it: a moment)
        wait_for(lambda: not [p for p in everyone if alive(p)], 10, f"{everyone} to be gone", [site])
        assert not serving(site.port)
