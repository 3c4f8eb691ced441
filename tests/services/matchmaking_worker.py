"""A real Celery worker for tests/services/test_matchmaking_races.py (not a test module).

``python -m tests.services.matchmaking_worker`` starts a solo-pool worker (the task runs in
this very process, so a SIGKILL kills it mid-task) consuming ``TEST_QUEUE`` on the broker
``TEST_BROKER_URL``, with Django on the ``DATABASE_URL`` it is given. With ``TEST_PAUSE_AT``
set, the economy's failure-injection hook (``economy.ledger.checkpoint``) stops the task at
that checkpoint — inside its open transaction, after the money moved there — writes
``TEST_MARKER`` and sleeps, so the test can kill the worker at exactly that point.
``TEST_VISIBILITY`` is the broker's visibility timeout: how soon a worker puts back a
message whose worker died without acknowledging it (``acks_late``).
"""

from __future__ import annotations

import os
from pathlib import Path


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from config.celery import app
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
    app.conf.task_acks_late = True
    app.conf.task_reject_on_worker_lost = True
    app.worker_main(
        [
            "worker",
            "--pool=solo",
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
