"""PF-60 prizes: ``pay_league_prize`` pays each place of a week once, to one player."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import OperationalError, connection

from economy import selectors, services
from economy.audit import audit_ledger
from economy.errors import EconomyError
from economy.models import Transfer

pytestmark = pytest.mark.django_db


def test_pf60_prizes_are_1000_500_250_keyed_on_week_and_place(make_user) -> None:
    users = [make_user() for _ in range(3)]
    for place, user in enumerate(users, start=1):
        transfer = services.pay_league_prize(user=user, week="2026-W49", place=place)
        assert (transfer.key, transfer.kind, transfer.reference) == (
            f"prize:2026-W49:{place}",
            "prize",
            "2026-W49",
        )
    assert [selectors.wallet_balance(user=u) for u in users] == [2000, 1500, 1250]


def test_pf60_a_paid_place_is_refused_to_a_second_player(make_user) -> None:
    winner, other = make_user(), make_user()
    first = services.pay_league_prize(user=winner, week="2026-W49", place=1)
    with pytest.raises(EconomyError) as err:
        services.pay_league_prize(user=other, week="2026-W49", place=1)
    assert err.value.code == "prize_place_taken"
    assert services.pay_league_prize(user=winner, week="2026-W49", place=1).pk == first.pk
    assert selectors.wallet_balance(user=other) == 1000
    assert Transfer.objects.filter(kind="prize").count() == 1
    # the same player may win the same place in another week, and another place the same week
    services.pay_league_prize(user=winner, week="2026-W50", place=1)
    services.pay_league_prize(user=other, week="2026-W49", place=2)
    assert Transfer.objects.filter(kind="prize").count() == 3


def _retry_if_sqlite_locked(job):
    """SQLite's shared-cache test database fails a locked table at once: take turns by retry
    (each failed try rolled back whole); PostgreSQL never gets here."""
    jitter = random.Random(60)
    for attempt in range(2000):
        try:
            return job()
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or attempt == 1999:
                raise
            time.sleep(0.001 + jitter.random() * 0.004)
    raise AssertionError("unreachable")


def _outcome(user) -> str:
    try:
        services.pay_league_prize(user=user, week="2026-W49", place=1)
    except EconomyError as exc:
        return exc.code
    return "paid"


@pytest.mark.django_db(transaction=True)
def test_pf60_two_players_racing_for_one_place_one_is_paid(make_user) -> None:
    users = [make_user() for _ in range(4)]
    codes: list[str] = []
    barrier = threading.Barrier(len(users))

    def pay(user) -> None:
        try:
            barrier.wait()
            codes.append(_retry_if_sqlite_locked(lambda: _outcome(user)))
        except BaseException as exc:
            codes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=pay, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["paid"] + ["prize_place_taken"] * (len(users) - 1)
    assert Transfer.objects.filter(key="prize:2026-W49:1").count() == 1
    assert audit_ledger().ok
