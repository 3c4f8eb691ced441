"""Log-in throttling (issue 13 item 1): per (username, address) and per address, growing waits.

Nobody elsewhere can lock a person out: failures are never counted per username alone.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttling
from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"
ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(throttling, "_now", fake)
    return fake


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_failures_from_other_addresses_never_lock_the_victim_out(client: Client, clock: Clock) -> None:
    # given an attacker failing 100 times with Ana's name from ten addresses
    User.objects.create_user(username="Ana", password=PASSWORD)
    for i in range(100):
        attempt(client, "Ana", "wrong", ip=f"10.0.0.{i % 10}")
    # then Ana, from her own address, gets in at once with her password
    assert attempt(client, "ana", PASSWORD, ip="10.0.1.1").status_code == 302


def test_the_attackers_pair_waits_grow_and_the_right_password_waits_too(client: Client, clock: Clock) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for _ in range(5):  # the free failures
        assert attempt(client, "Ana", "wrong").status_code == 400
    response = attempt(client, "Ana", PASSWORD)
    assert response.status_code == 429 and "1 segundo" in response.content.decode()
    clock.now += 1.5
    assert attempt(client, "Ana", "wrong").status_code == 400  # 6th failure: now 2 s
    clock.now += 1.5
    assert attempt(client, "Ana", PASSWORD).status_code == 429
    clock.now += 1
    assert attempt(client, "Ana", PASSWORD).status_code == 302


def test_waits_double_up_to_the_cap(settings) -> None:
    rule = throttling.Rule("x", free=5, base=1, cap=900, memory=86400)
    assert [rule.delay(n) for n in (0, 4, 5, 6, 7, 10)] == [0, 0, 1, 2, 4, 32]
    assert rule.delay(20) == 900 and rule.delay(10_000) == 900


def test_only_one_attempt_goes_through_each_wait() -> None:
    for i in range(5):
        throttling.record_failure(username="Ana", ip="1.1.1.1", now=1000.0 + i)
    assert throttling.check_lockout(username="Ana", ip="1.1.1.1", now=1004.5) is not None
    # when two parallel attempts come after the wait, one goes through and its twin waits
    assert throttling.check_lockout(username="Ana", ip="1.1.1.1", now=1006.0) is None
    assert throttling.check_lockout(username="Ana", ip="1.1.1.1", now=1006.0) is not None


def test_an_address_guessing_many_names_is_slowed_down(client: Client, clock: Clock) -> None:
    User.objects.create_user(username="Bea", password=PASSWORD)
    for i in range(30):
        attempt(client, f"user{i}", "wrong", ip="10.9.9.9")
    assert attempt(client, "Bea", PASSWORD, ip="10.9.9.9").status_code == 429
    assert attempt(client, "Bea", PASSWORD, ip="10.9.9.8").status_code == 302


def test_success_forgives_the_pair_not_the_address(client: Client, clock: Clock) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for _ in range(4):
        attempt(client, "Ana", "wrong")
    assert attempt(client, "Ana", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert attempt(client, "Ana", "wrong").status_code == 400
    assert attempt(client, "Ana", PASSWORD).status_code == 302


def test_failures_are_forgotten_a_day_after_the_last(clock: Clock) -> None:
    for _ in range(8):
        throttling.record_failure(username="Ana", ip="1.1.1.1", now=1000.0)
    assert throttling.check_lockout(username="Ana", ip="1.1.1.1", now=1001.0) is not None
    # the cache forgets the counts (their timeout); the wait itself has long passed by then
    assert throttling.check_lockout(username="Ana", ip="1.1.1.1", now=1000.0 + 900 + 1) is None


@pytest.mark.services
def test_counts_are_shared_across_processes_through_redis(require_redis: str) -> None:
    """Two processes with REDIS_URL: failures recorded in one lock the pair in the other.

    Twelve failures leave a 128 s wait (five would leave 1 s, which a loaded machine spends
    starting the second interpreter)."""
    name, ip = f"u{uuid.uuid4().hex[:8]}", f"10.{uuid.uuid4().int % 250}.7.7"
    script = (
        "import django, os; django.setup(); from accounts import throttling as t;"
        "import sys; op = sys.argv[1];"
        f"[t.record_failure(username={name!r}, ip={ip!r}) for _ in range(12)] if op == 'fail' else "
        f"print('locked' if t.check_lockout(username={name!r}, ip={ip!r}) else 'free')"
    )
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "REDIS_URL": require_redis, "PATH": "/usr/bin:/bin"}
    run = [sys.executable, "-c", script]
    subprocess.run([*run, "fail"], env=env, cwd=ROOT, check=True)
    out = subprocess.run([*run, "check"], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "locked"
