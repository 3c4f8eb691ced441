"""Leaving the queue while Celery's waves seat it (issue 26, defect 14), on PostgreSQL and Redis.

People queue through ``/api/queue`` and leave 0–50 ms after their join was answered, while a
real Celery worker (prefork ×2, one wave per shard, kicked by each join as on the site) seats
the queue at free and buy-in tables. Every answer must be true and every coin accounted for:

- ``200 idle``: the player has no seat at a waiting or playing table, no live queue entry, and
  no entry paid into a pot — the wallet is whole (a wave that seated them first was undone by
  the stand-up: ``refunded`` says how much came back);
- ``409 already_playing``: the table it names has started, the player sits there, and a buy-in
  entry stays in its pot (PF-63: nobody leaves a started table with their entry).

Anything else (a 500, ``queue_busy``) fails the test, as does a pot left open holding an entry,
a waiting table with someone at it, or a ledger audit with a finding.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Sum
from django.test import Client

from cardgames.matchmaking import tasks
from cardgames.matchmaking.models import QueueEntry
from cardgames.tables.models import Seat, Table
from economy.audit import audit_ledger
from economy.models import Account, BuyIn, Pot
from tests.services.matchmaking_worker import ROOT, database_url, wait_for
from tests.services.matchmaking_worker import start as start_worker
from tests.services.matchmaking_worker import stop as stop_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]
#: (game, players, stake) of each round, in turn: two-seat tables fill (and start) within a round,
#: three-seat ones mostly stay partial (the seated leave by standing up)
BUCKETS = [("pika", 2, 100), ("one_card", 2, 0), ("skyjo", 3, 250), ("pika", 3, 0)]
ROUNDS = int(os.environ.get("LEAVE_RACE_ROUNDS", "40"))
PEOPLE = 5  # per round, all in the round's bucket
LEAVE_AFTER = 0.050  # seconds: each leave leaves 0–50 ms after its join was answered
EXTRA_ROUNDS = 8  # at most, with leaves up to 0.1, 0.2, … 12.8 s late, while no leave found a started table


def _signed_in(name: str) -> tuple[Any, Client]:
    """A player and a browser signed in as them (CSRF is tested elsewhere: not enforced here)."""
    user = get_user_model().objects.create_user(username=name, password=None)
    client = Client()
    client.force_login(user)
    return user, client


def _call(client: Client, method: str, body: dict[str, Any] | None = None) -> Any:
    return getattr(client, method.lower())("/api/queue", body or {}, content_type="application/json")


def _join_then_leave(client: Client, bucket: tuple[str, int, int], delay: float, out: dict[str, Any]) -> None:
    game, players, stake = bucket
    try:
        joined = _call(client, "POST", {"game": game, "players": players, "stake": stake})
        out["join"] = joined.status_code
        time.sleep(delay)
        left = _call(client, "DELETE")
        out["leave"] = (left.status_code, left.json())
    except Exception as exc:  # reported by the round's checks with the rest of the answers
        out["error"] = repr(exc)
    finally:
        connection.close()


def _wallet(user_id: int) -> int:
    return Account.objects.get(user_id=user_id).balance


def _check(user: Any, stake: int, answer: dict[str, Any], seen: Counter[str]) -> None:
    """One player's leave against the database: the answer is the truth, and no coin is astray."""
    status, body = answer["leave"]
    seats = Seat.objects.filter(user_id=user.pk, table__status__in=["waiting", "playing"])
    live = QueueEntry.objects.filter(user_id=user.pk, status__in=QueueEntry.LIVE)
    paid = BuyIn.objects.filter(user_id=user.pk, status="seated")
    if status == 200:
        assert body["state"] == "idle", body
        assert not seats.exists() and not live.exists() and not paid.exists(), (body, list(seats), list(live))
        assert _wallet(user.pk) == 1000, body
        seen["stood up" if "refunded" in body else "left" if body.get("left") else "gone"] += 1
        return
    assert status == 409 and body["code"] == "already_playing", (status, body)
    table = Table.objects.get(pk=body["table"])
    assert table.status == "playing" and body["url"] == f"/mesa/{table.code}/", body
    assert seats.get().table_id == table.pk and live.get().table_id == table.pk
    assert _wallet(user.pk) == 1000 - stake
    if stake:
        assert paid.get().pot_id == table.pot_id and Pot.objects.get(pk=table.pot_id).status == "started"
    seen["playing"] += 1


def test_a_leave_racing_celery_waves_either_removes_the_entry_or_names_the_started_table(
    require_postgres: None,
    require_redis: str,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # given a real Celery worker running the waves on this test's database, and the site's
    # joins kicking them as they do under Celery (one wave per shard; the kick key in the cache)
    settings.TABLE_RUNNER = "celery"
    queue = f"mm-leave-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    from celery import Celery

    sender = Celery("mm-leave-sender", broker=require_redis)
    # the kick as the site sends it (``services._enqueue_wave``), to this test's worker queue
    send = sender.send_task
    kick = SimpleNamespace(
        apply_async=lambda kwargs, countdown=0: send(
            "matchmaking.run_wave", kwargs=kwargs, queue=queue, countdown=countdown
        )
    )
    monkeypatch.setattr(tasks, "run_wave", kick)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": require_redis,
        "TEST_BROKER_URL": require_redis,
        "TEST_QUEUE": queue,
        "TEST_CONCURRENCY": "2",
        "TEST_CACHE_PREFIX": settings.CACHES["default"].get("KEY_PREFIX", ""),
        "TABLE_RUNNER": "celery",
        "PYTHONPATH": str(ROOT),
    }
    worker = start_worker(env, log)
    jitter = random.Random(20261226)
    seen: Counter[str] = Counter()
    try:
        # (the players sign in while the worker starts)
        rounds = [[_signed_in(f"lr{r}x{i}") for i in range(PEOPLE)] for r in range(ROUNDS)]
        people = [user for players in rounds for user, _client in players]
        wait_for(lambda: " ready." in log.read_text(errors="replace"), 60, "the worker to start", [log])

        def run_round(round_no: int, players: list[tuple[Any, Client]], bucket: tuple, most: float) -> None:
            users, clients = [u for u, _c in players], [c for _u, c in players]
            answers: list[dict[str, Any]] = [{} for _ in users]
            # when each joins and leaves 0–`most` s after the join was answered, all at once
            threads = [
                threading.Thread(target=_join_then_leave, args=(c, bucket, jitter.random() * most, out))
                for c, out in zip(clients, answers, strict=True)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            # then every answer is true of the database, and nobody waits in the queue
            for user, answer in zip(users, answers, strict=True):
                assert answer.get("join") == 201 and "leave" in answer, (round_no, answers)
                _check(user, bucket[2], answer, seen)

        for round_no, players in enumerate(rounds):
            run_round(round_no, players, BUCKETS[round_no % len(BUCKETS)], LEAVE_AFTER)
        # a loaded machine's waves may come later than 50 ms every time: then leaves come later,
        # on two-seat tables, until one arrives after a table started (the `playing` answer)
        for extra in range(EXTRA_ROUNDS):
            if seen["playing"]:
                break
            players = [_signed_in(f"lr-extra{extra}x{i}") for i in range(PEOPLE)]
            people.extend(user for user, _client in players)
            run_round(ROUNDS + extra, players, BUCKETS[extra % 2], LEAVE_AFTER * 2 ** (extra + 1))
    finally:
        stop_worker(worker)
        with sender.connection_for_write() as conn:  # the fill deadlines' countdowns left unrun
            conn.default_channel.queue_purge(queue)
        sender.close()
    # and every coin is accounted for: wallets and pots hold what the welcome grants gave,
    # no pot of a table that did not start holds an entry, no waiting table has anyone at it
    ids = [u.pk for u in people]
    in_wallets = Account.objects.filter(user_id__in=ids).aggregate(s=Sum("balance"))["s"]
    in_pots = Pot.objects.filter(status="started").aggregate(s=Sum("account__balance"))["s"] or 0
    assert in_wallets + in_pots == 1000 * len(people)
    assert not BuyIn.objects.filter(status="seated").exclude(pot__status="started").exists()
    assert not Seat.objects.filter(table__status="waiting").exists()
    assert not QueueEntry.objects.filter(status="waiting").exists()
    audit = audit_ledger()
    assert audit.ok, audit.problems
    # the race was run: waves seated people before some leaves arrived, and some before the tables started
    assert sum(seen.values()) == len(people)
    assert seen["stood up"] and seen["playing"] and seen["left"], seen
