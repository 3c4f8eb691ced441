"""Several workers doing beat's table work at once, on PostgreSQL (issue 26, "A production
topology"): the sweeper and the matchmaking waves are safe when every worker runs them.

Production runs more than one Celery worker (docs/deploy.md), and a second beat by mistake
doubles every periodic task. Here two worker processes start together and run the same
passes at the same moment, on the test's committed rows:

- ``tables.sweep`` over the same due tables: each table is taken by one of them at a time
  (``SELECT … FOR UPDATE SKIP LOCKED``, cardgames/tables/deadlines.py), so every lapsed timer
  is applied once — no timer id twice in a table's log, no failed wake-up — and every due
  table was woken;
- ``matchmaking.run_wave`` over the same queue: one wave at a time (PostgreSQL advisory
  locks) and every entry locked and re-checked where it sits, so every queued person sits
  exactly once, no table holds more than its seats and no wave fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from django.utils import timezone

from bench.live_harness import ROOT
from cardgames.engines import get_engine
from cardgames.matchmaking import services as matchmaking
from cardgames.matchmaking.models import QueueEntry
from cardgames.tables import flow
from cardgames.tables.models import ActionLog, Seat, Table
from tests.tables.helpers import Clock, started_table, user_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]
WORKERS = 2


def _workers(what: str, rounds: int, now: datetime | None = None) -> list[str]:
    """Run ``WORKERS`` beat workers on this test's database, started together; their output."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database = urlunsplit((url.scheme, url.netloc, "/" + connection.settings_dict["NAME"], "", ""))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "DJANGO_")) and k != "COV_CORE_SOURCE"
    }
    env.update(DATABASE_URL=database, TABLE_RUNNER="manual", LOG_LEVEL="WARNING", PYTHONPATH=str(ROOT))
    connection.close()  # the workers see every committed row; this test holds no lock
    start = time.time() + 4  # both set up (Django, a connection) before either begins
    argv = [sys.executable, "-m", "tests.services.beat_worker", what, str(start), str(rounds)]
    if now is not None:
        argv.append(str(now.timestamp()))
    procs = [
        subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(WORKERS)
    ]
    outputs = [proc.communicate(timeout=120)[0].decode() for proc in procs]
    for proc, output in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, output
        assert "Traceback" not in output and "failed" not in output, output  # no wake-up or wave failed
    return outputs


def _result(output: str) -> list:  # type: ignore[type-arg]
    return json.loads(output.strip().splitlines()[-1])


def test_two_workers_sweeping_the_same_due_tables_apply_each_lapsed_timer_once(
    require_postgres: None,
) -> None:
    # given 24 started tables, a person and two bots at each, untouched for 31 s: every one due
    clock = Clock(timezone.now() - timedelta(minutes=5))
    tables = [started_table("one_card", user_player(f"sw{i}"), clock, players=3) for i in range(24)]
    moment = clock.tick(31)
    due: dict[int, set[str]] = {}
    for table in tables:
        table.refresh_from_db()
        assert table.wake_at is not None and table.wake_at <= moment
        eng = get_engine(table.game)
        lapsed = flow.due(eng.timers(eng.load(table.state)), table.timer_starts, moment.timestamp())
        due[table.pk] = {timer["id"] for timer in lapsed}
    before = {t.pk: t.version for t in tables}

    # when two workers sweep them at the same moment, five passes each
    outputs = _workers("sweep", rounds=5, now=moment)

    # then every due table was woken, and no timer was applied twice
    assert sum(sum(_result(out)) for out in outputs) >= len(tables)
    for table in Table.objects.filter(pk__in=before):
        timeouts = list(
            ActionLog.objects.filter(table=table, source=ActionLog.Source.TIMEOUT).values_list(
                "timer_id", flat=True
            )
        )
        assert timeouts and len(timeouts) == len(set(timeouts)), (table.pk, timeouts)
        assert set(timeouts) >= due[table.pk], (table.pk, timeouts, due[table.pk])
        seqs = list(ActionLog.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(seqs[0], table.version + 1))  # one row per version, no gap
        assert table.version > before[table.pk]
        assert table.wake_at is None or table.wake_at > moment  # nothing left due at that moment


def test_two_workers_running_waves_at_once_seat_every_queued_person_once(require_postgres: None) -> None:
    # given 46 people queued in five buckets (free tables)
    buckets = [("one_card", 4), ("pika", 2), ("skyjo", 3), ("puteo", 4), ("guandan", 4)]
    people = []
    for i in range(46):
        game, players = buckets[i % len(buckets)]
        player = user_player(f"wv{i}")
        matchmaking.join_queue(player=player, game=game, players=players, stake=0)
        people.append(player.user_id)

    # when two workers run whole-queue waves at the same moment, three each
    outputs = _workers("wave", rounds=3)

    # then everyone sits exactly once, at a table of their bucket with no more than its seats
    waves = [wave for out in outputs for wave in _result(out)]
    assert sum(w["seated"] for w in waves) == len(people)
    seats = Counter(Seat.objects.filter(user_id__in=people).values_list("user_id", flat=True))
    assert seats == Counter({user_id: 1 for user_id in people})
    for table in Table.objects.filter(mode=Table.Mode.ONLINE):
        assert table.seats.count() <= table.num_players
    statuses = Counter(QueueEntry.objects.filter(user_id__in=people).values_list("status", flat=True))
    assert statuses == Counter({"seated": len(people)})
