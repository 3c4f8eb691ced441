"""Matchmaking's money under races and crashes, on PostgreSQL (the real-service tier, issue 11).

- Two people race for the last seat of a buy-in table (threads, their own connections):
  exactly one sits and the game starts; the other is told (``table_full`` or
  ``table_closed``), keeps their coins and stays queued.
- The fill-deadline refund task runs several times at once (a redelivered twin) while a late
  person takes the last seat: either the table is cancelled — every entry refunded exactly
  once, the late person refused with ``table_closed`` and charged nothing — or the late
  person wins and the game starts with nothing refunded. Never both, never half.
- A real Celery worker (solo pool, Redis broker) is killed with SIGKILL in the middle of the
  refund transaction — after the first refund was posted inside it — and the message is
  redelivered (``acks_late``) to a second worker: every entry is refunded exactly once.
  The pause is the economy's own failure-injection hook (``ledger.checkpoint``) in the worker
  process; the kill is a real one.
"""

from __future__ import annotations

import os
import random
import signal
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.utils import timezone

from accounts.identity import player_for_user
from cardgames.matchmaking import services
from cardgames.matchmaking.models import QueueEntry
from cardgames.matchmaking.seating import place_at_table, place_new_table
from cardgames.matchmaking.tasks import table_deadline
from cardgames.tables.errors import TableError
from cardgames.tables.models import Table
from economy import selectors as economy_selectors
from economy.audit import audit_ledger
from economy.models import BuyIn, Pot, Transfer
from economy.services.common import UserRef
from tests.services.matchmaking_worker import database_url, wait_for
from tests.services.matchmaking_worker import start as start_worker
from tests.services.matchmaking_worker import stop as stop_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]
ROOT = Path(__file__).resolve().parents[2]
_jitter = random.Random(20261201)
_names = iter(range(1, 10**6))


def person() -> Any:
    return player_for_user(get_user_model().objects.create_user(username=f"mm{next(_names)}", password=None))


def coins(player: Any) -> int:
    return economy_selectors.wallet_balance(user=UserRef(player.user_id))


def waiting_buyin_table(
    seated: int, players: int, *, stake: int = 100, ago: float = 0
) -> tuple[Table, list[Any]]:
    """A buy-in table of ``players`` seats with ``seated`` people at it, its first one sat ``ago`` s ago."""
    people = [person() for _ in range(seated)]
    moment = timezone.now() - timedelta(seconds=ago)
    entries = [
        services.join_queue(player=p, game="pika", players=players, stake=stake, now=moment) for p in people
    ]
    seating = place_new_table(
        game="pika", players=players, stake=stake, entry_ids=[e.pk for e in entries], now=moment
    )
    assert len(seating.seated) == seated and not seating.started
    return seating.table, people


def race(jobs: list[Callable[[], Any]]) -> list[tuple[str, Any]]:
    """Run the jobs in threads (one connection each) released together; ("ok", value) or ("error", code)."""
    start = threading.Barrier(len(jobs))
    results: list[tuple[str, Any]] = [("crash", None)] * len(jobs)

    def work(index: int) -> None:
        try:
            start.wait(timeout=30)
            time.sleep(_jitter.random() * 0.002)
            results[index] = ("ok", jobs[index]())
        except (TableError, Exception) as exc:
            results[index] = ("error", getattr(exc, "code", repr(exc)))
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_people_race_for_the_last_seat_of_a_buy_in_table(require_postgres: None) -> None:
    winners = Counter()
    for round_no in range(20):
        # given a buy-in table with one seat left and two people queued for it
        table, _seated = waiting_buyin_table(2, 3, stake=250)
        racers = [person() for _ in range(2)]
        entries = [services.join_queue(player=p, game="pika", players=3, stake=250) for p in racers]
        # when both are placed at that seat at the same moment (two waves, two workers)
        results = race([partial(_join_job, table.pk, e.pk, 0.0) for e in entries])
        # then exactly one sits and the game starts; the other is told and pays nothing
        outcomes = []
        for (kind, value), entry in zip(results, entries, strict=True):
            assert kind in ("ok", "error"), results
            if kind == "ok" and value.seated:
                assert value.seated == [entry.pk] and value.started
                outcomes.append("seated")
            else:
                code = value.refused[entry.pk] if kind == "ok" else value
                assert code in ("table_full", "table_closed"), (round_no, results)
                outcomes.append(code)
        assert outcomes.count("seated") == 1, (round_no, results)
        winner = outcomes.index("seated")
        winners[winner] += 1
        loser = racers[1 - winner]
        table.refresh_from_db()
        assert table.status == "playing" and table.seats.count() == 3
        assert Pot.objects.get(pk=table.pot_id).status == "started"
        assert coins(racers[winner]) == 750 and coins(loser) == 1000
        assert QueueEntry.objects.get(pk=entries[1 - winner].pk).status == "waiting"
        assert BuyIn.objects.filter(pot_id=table.pot_id, status="seated").count() == 3
        services.leave_queue(player=loser)  # the loser leaves the queue before the next round
    audit = audit_ledger()
    assert audit.ok, audit.problems
    assert sum(winners.values()) == 20


def _deadline_job(table_id: int, wait: float) -> str:
    time.sleep(wait)
    return table_deadline.run(table_id)


def _join_job(table_id: int, entry_id: int, wait: float) -> Any:
    time.sleep(wait)
    return place_at_table(table_id=table_id, entry_ids=[entry_id])


def test_the_refund_task_redelivered_and_racing_a_late_person_refunds_once_or_not_at_all(
    require_postgres: None,
) -> None:
    seen = Counter()
    for round_no in range(24):
        # given a buy-in table 2 of 3 full whose 120 s passed, and a late person queued for it
        table, seated = waiting_buyin_table(2, 3, stake=100, ago=121)
        late = person()
        entry = services.join_queue(player=late, game="pika", players=3, stake=100)
        # when the deadline task runs four times at once (redelivered twins) while the late
        # person takes the last seat — some rounds give one side a head start
        head_start = ["none", "deadline", "join"][round_no % 3]
        deadline_job = partial(_deadline_job, table.pk, 0.05 if head_start == "join" else 0.0)
        join_job = partial(_join_job, table.pk, entry.pk, 0.05 if head_start == "deadline" else 0.0)
        results = race([deadline_job, deadline_job, deadline_job, deadline_job, join_job])
        table.refresh_from_db()
        pot = Pot.objects.get(pk=table.pot_id)
        refunds = Transfer.objects.filter(kind="refund", pot=pot)
        deadline_results = Counter(value for _kind, value in results[:4])
        join_kind, join_value = results[4]
        if table.status == "closed":
            # then either the table was cancelled: every entry refunded exactly once ...
            seen["cancelled"] += 1
            assert pot.status == "cancelled"
            assert refunds.count() == 2 and sorted(t.user_id for t in refunds) == sorted(
                p.user_id for p in seated
            )
            assert deadline_results["cancelled"] == 1 and deadline_results["closed"] == 3, results
            assert (join_kind, join_value) == ("error", "table_closed"), results
            assert coins(late) == 1000 and QueueEntry.objects.get(pk=entry.pk).status == "waiting"
            assert [coins(p) for p in seated] == [1000, 1000]
            services.leave_queue(player=late)
        else:
            # ... or the late person won: the game started and nothing was refunded
            seen["started"] += 1
            assert table.status == "playing" and pot.status == "started" and not refunds.exists()
            assert join_kind == "ok" and join_value.started, results
            assert deadline_results == Counter({"started": 4}), results
            assert [coins(p) for p in [*seated, late]] == [900, 900, 900]
    audit = audit_ledger()
    assert audit.ok, audit.problems
    assert seen["cancelled"] and seen["started"], seen


# -- a worker killed in the middle of the refund ---------------------------------------------------------
def test_a_worker_killed_mid_refund_and_the_redelivered_task_refund_every_entry_exactly_once(
    require_postgres: None, require_redis: str
) -> None:
    from celery import Celery

    # given a buy-in table 3 of 4 full whose 120 s passed (the data committed for the workers)
    table, seated = waiting_buyin_table(3, 4, stake=500, ago=125)
    assert [coins(p) for p in seated] == [500, 500, 500]
    broker = require_redis.rsplit("/", 1)[0] + "/11"  # a Redis db of its own: no other worker sees it
    queue = f"mm-kill-{uuid.uuid4().hex[:8]}"
    work = Path(tempfile.mkdtemp(prefix="mm-kill-"))
    marker = work / "paused"
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": database_url(db),
        "REDIS_URL": require_redis,
        "TEST_BROKER_URL": broker,
        "TEST_QUEUE": queue,
        "TABLE_RUNNER": "celery",
        "PYTHONPATH": str(ROOT),
    }
    first_log, second_log = work / "worker1.log", work / "worker2.log"
    sender = Celery("mm-test-sender", broker=broker)
    first = start_worker(
        {**env, "TEST_PAUSE_AT": "cancel_pot.after_refund", "TEST_MARKER": str(marker)}, first_log
    )
    second = None
    try:
        # when the deadline task reaches the first worker, which dies (SIGKILL) right after the
        # first refund was posted inside the cancellation's transaction ...
        sender.send_task("matchmaking.table_deadline", args=[table.pk], queue=queue)
        wait_for(marker.exists, 60, "the first worker to pause mid-refund", [first_log])
        assert Transfer.objects.filter(kind="refund", pot_id=table.pot_id).count() == 0  # not committed
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        assert first.returncode == -signal.SIGKILL
        # ... nothing of that half-done transaction remains
        assert Transfer.objects.filter(kind="refund", pot_id=table.pot_id).count() == 0
        assert Pot.objects.get(pk=table.pot_id).status == "open"
        assert [coins(p) for p in seated] == [500, 500, 500]
        # and the unacknowledged message is redelivered to a second worker, which finishes it
        second = start_worker({**env, "TEST_VISIBILITY": "2"}, second_log)
        wait_for(
            lambda: Table.objects.get(pk=table.pk).status == "closed",
            90,
            "the redelivered task to cancel the table",
            [first_log, second_log],
        )
    finally:
        for proc in (first, second):
            if proc is not None:
                stop_worker(proc)
        sender.close()
    # then every entry was refunded exactly once, by the second run
    refunds = Transfer.objects.filter(kind="refund", pot_id=table.pot_id)
    assert sorted(t.user_id for t in refunds) == sorted(p.user_id for p in seated)
    assert [coins(p) for p in seated] == [1000, 1000, 1000]
    assert Pot.objects.get(pk=table.pot_id).status == "cancelled"
    assert set(QueueEntry.objects.filter(table=table).values_list("status", flat=True)) == {"cancelled"}
    assert "matchmaking.table_deadline" in second_log.read_text(errors="replace")
    # a third delivery (a stale copy) finds nothing to do
    assert table_deadline.run(table.pk) == "closed"
    assert Transfer.objects.filter(kind="refund", pot_id=table.pot_id).count() == 3
    audit = audit_ledger()
    assert audit.ok, audit.problems
