"""Concurrency proofs: threads with their own database connections race on one wallet or pot.

The full proofs (64 threads x 50 rounds, 16 concurrent refunds and settlements) are the
real-service tier on PostgreSQL; a smaller version of each runs on every database.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, close_old_connections, connection

from economy import selectors, services
from economy.audit import audit_ledger
from economy.errors import EconomyError
from economy.models import Transfer
from economy.tasks import cancel_pot_task

_jitter = random.Random(2026)


def _retry_if_sqlite_locked(job: Callable[[], Any]) -> Any:
    """Run ``job``; on SQLite's shared-cache test database retry "table is locked".

    Django's in-memory SQLite test database uses shared cache, whose table locks fail at
    once instead of waiting (no busy timeout), so the threads there take turns by retry.
    Each failed try rolled back whole; PostgreSQL never gets here.
    """
    for attempt in range(2000):
        try:
            return job()
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or attempt == 1999:
                raise
            time.sleep(0.001 + _jitter.random() * 0.004)  # back-off jitter, seeded
    raise AssertionError("unreachable")


class Crew:
    """N worker threads, each with its own connection, that run one job per round together."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.start = threading.Barrier(size + 1)
        self.done = threading.Barrier(size + 1)
        self.jobs: list[Callable[[], Any]] = []
        self.results: list[Any] = [None] * size
        self.stop = False
        self.threads = [threading.Thread(target=self._work, args=(i,), daemon=True) for i in range(size)]
        for t in self.threads:
            t.start()

    def _work(self, index: int) -> None:
        try:
            while True:
                self.start.wait()
                if self.stop:
                    return
                try:
                    self.results[index] = ("ok", _retry_if_sqlite_locked(self.jobs[index]))
                except EconomyError as exc:
                    self.results[index] = ("error", exc.code)
                except Exception as exc:  # reported to the test, which fails on it
                    self.results[index] = ("crash", repr(exc))
                finally:
                    close_old_connections()
                self.done.wait()
        finally:
            connection.close()

    def run(self, jobs: list[Callable[[], Any]]) -> list[Any]:
        assert len(jobs) == self.size
        self.jobs = jobs
        self.results = [None] * self.size
        self.start.wait(timeout=120)
        self.done.wait(timeout=120)
        return list(self.results)

    def close(self) -> None:
        self.stop = True
        self.start.wait(timeout=30)
        for t in self.threads:
            t.join(timeout=30)


def _buy_in_race(make_user: Callable[..., Any], threads: int, rounds: int, coins: int) -> None:
    pots = [services.open_pot(reference=f"race:{i}", stake=100) for i in range(threads)]
    crew = Crew(threads)
    try:
        for round_no in range(rounds):
            # given one wallet holding `coins` (the welcome grant, trimmed by an adjustment)
            user = make_user(f"racer{round_no}")
            if coins != 1000:
                services.adjust_wallet(
                    user=user,
                    amount=coins - 1000,
                    actor=_admin(make_user),
                    reason="race",
                    request_id=f"r{round_no}",
                )
            # when every thread buys in to a different pot at the same moment
            results = crew.run([lambda p=p, u=user: services.buy_in(user=u, pot=p) for p in pots])
            # then exactly coins // 100 succeed and the others are told why
            outcome = Counter(kind if kind != "error" else value for kind, value in results)
            assert outcome == Counter({"ok": coins // 100, "insufficient_coins": threads - coins // 100}), (
                round_no,
                results,
            )
            assert selectors.wallet_balance(user=user) == 0
            audit = audit_ledger()
            assert audit.ok, (round_no, audit.problems)
    finally:
        crew.close()


def _admin(make_user: Callable[..., Any]) -> Any:
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.filter(username="race_admin").first()
    return admin or make_user("race_admin", is_staff=True)


def _repeat_race(make_user: Callable[..., Any], threads: int, in_a_row: int) -> None:
    users = [make_user() for _ in range(4)]
    refund_pot = services.open_pot(reference="race:refund", stake=250)
    settle_pot = services.open_pot(reference="race:settle", stake=250)
    for user in users:
        services.buy_in(user=user, pot=refund_pot)
        services.buy_in(user=user, pot=settle_pot)
    services.start_pot(pot=settle_pot)
    results = [(u.pk, place) for u, place in zip(users, [3, 1, 1, 4], strict=True)]
    crew = Crew(threads)
    try:
        # the same refund task and the same settlement, `threads` times at once
        outcome = crew.run([lambda: cancel_pot_task.run(refund_pot.pk) for _ in range(threads)])
        assert all(kind == "ok" for kind, _ in outcome), outcome
        assert sum(value for _, value in outcome) == 4  # four entries refunded in total, by one run
        outcome = crew.run(
            [lambda: services.settle_pot(pot=settle_pot.pk, results=results).pk for _ in range(threads)]
        )
        assert all(kind == "ok" for kind, _ in outcome), outcome
        assert len({value for _, value in outcome}) == 1  # every call returns the one settlement
    finally:
        crew.close()
    for _ in range(in_a_row):
        assert cancel_pot_task.run(refund_pot.pk) == 0
        services.settle_pot(pot=settle_pot, results=results)
    # one effect each: every entry refunded once, the pot split once (1000 / 2 = 500 each)
    assert Transfer.objects.filter(kind="refund", pot=refund_pot).count() == 4
    assert Transfer.objects.filter(kind="settle", pot=settle_pot).count() == 1
    assert [selectors.wallet_balance(user=u) for u in users] == [750, 1250, 1250, 750]
    audit = audit_ledger()
    assert audit.ok, audit.problems


@pytest.mark.django_db(transaction=True)
def test_small_buy_in_race_on_any_database(make_user) -> None:
    _buy_in_race(make_user, threads=8, rounds=3, coins=300)


@pytest.mark.django_db(transaction=True)
def test_small_refund_and_settle_race_on_any_database(make_user) -> None:
    _repeat_race(make_user, threads=4, in_a_row=100)


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_64_threads_buy_in_from_one_wallet_exactly_ten_succeed_50_rounds(require_postgres, make_user) -> None:
    _buy_in_race(make_user, threads=64, rounds=50, coins=1000)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_same_refund_and_settlement_16_concurrent_and_100_in_a_row(require_postgres, make_user) -> None:
    _repeat_race(make_user, threads=16, in_a_row=100)
