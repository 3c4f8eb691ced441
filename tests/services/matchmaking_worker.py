"""A real Celery worker for tests/services/test_matchmaking_races.py (not a test module).

``python -m tests.services.matchmaking_worker`` starts a solo-pool worker (the task runs in
this very process, so a SIGKILL kills it mid-task) consuming ``TEST_QUEUE`` on the broker
``TEST_BROKER_URL``, with Django on the ``DATABASE_URL`` it is given. With ``TEST_PAUSE_AT``
set, the economy's failure-injection hook (``economy.ledger.checkpoint``) stops the task at
that checkpoint — inside its open transaction, after the money moved there — writes
``TEST_MARKER`` and sleeps, so the test can kill the worker at exactly that point.
``TEST_VISIBILITY`` is the broker's visibility timeout: how soon a worker puts back a
message whose worker died without acknowledging it (``acks_late``). ``TEST_CONCURRENCY`` > 1
runs a prefork pool of that many processes instead (waves of both shards side by side, as in
production); ``TEST_CACHE_PREFIX`` is the test's cache key prefix (tests/conftest.py gives each
test its own), so the wave task clears the very kick key the test process's joins set. Tasks the
worker sends itself (a fill deadline's countdown) go to ``TEST_QUEUE`` too, never to a queue
another worker on the same Redis might consume.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def start(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """This worker as a process of its own (the tests' side), its output in ``log``."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.services.matchmaking_worker"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: a kill takes everything it started
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a warm shutdown: unfinished messages go back to the queue), SIGKILL after 20 s."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def database_url(db: dict[str, Any]) -> str:
    """The test database (pytest-django's ``test_…``) as a URL for the worker processes."""
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_for(condition: Callable[[], bool], seconds: float, what: str, logs: list[Path]) -> None:
    """Poll ``condition``; past ``seconds`` fail with the tails of the workers' logs."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            tails = "\n".join(
                f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in logs if p.exists()
            )
            raise AssertionError(f"timed out waiting for {what}\n{tails}")
        time.sleep(0.2)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings

    from config.celery import app

    if os.environ.get("TEST_CACHE_PREFIX"):  # before the first use of the cache builds it
        settings.CACHES["default"]["KEY_PREFIX"] = os.environ["TEST_CACHE_PREFIX"]
    from tests.services.faults_stack import pause_at_checkpoint

    if os.environ.get("TEST_PAUSE_AT"):
        pause_at_checkpoint(os.environ["TEST_PAUSE_AT"], Path(os.environ.get("TEST_MARKER", "/dev/null")))
    seconds = float(os.environ.get("TEST_VISIBILITY", "3600"))
    app.conf.broker_url = os.environ["TEST_BROKER_URL"]
    app.conf.broker_transport_options = {
        "visibility_timeout": seconds,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }
    app.conf.task_default_queue = os.environ["TEST_QUEUE"]
    app.conf.task_acks_late = True
    app.conf.task_reject_on_worker_lost = True
    concurrency = int(os.environ.get("TEST_CONCURRENCY", "1"))
    pool = ["--pool=solo"] if concurrency == 1 else ["--pool=prefork", "--concurrency", str(concurrency)]
    app.worker_main(
        [
            "worker",
            *pool,
            "--queues",
            os.environ["TEST_QUEUE"],
            "--hostname",
            f"mm-test-{os.getpid()}@%h",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "INFO",
        ]
    )


if __name__ == "__main__":
    main()
