"""Log-in throttling: 10 failures per 15 minutes per account and per IP."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttling
from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_account_locked_after_ten_failures_even_with_the_right_password(client: Client) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for i in range(10):
        assert attempt(client, "Ana", "wrong", ip=f"10.0.0.{i}").status_code == 400
    response = attempt(client, "ana", PASSWORD, ip="10.0.1.1")
    assert response.status_code == 429
    assert "15 minutos" in response.content.decode()


def test_ip_locked_after_ten_failures_across_accounts(client: Client) -> None:
    User.objects.create_user(username="Bea", password=PASSWORD)
    for i in range(10):
        attempt(client, f"user{i}", "wrong", ip="10.9.9.9")
    assert attempt(client, "Bea", PASSWORD, ip="10.9.9.9").status_code == 429
    assert attempt(client, "Bea", PASSWORD, ip="10.9.9.8").status_code == 302


def test_lockout_ends_when_failures_leave_the_window() -> None:
    for i in range(10):
        throttling.record_failure(username="Ana", ip="1.1.1.1", now=1000.0 + i)
    lock = throttling.check_lockout(username="Ana", ip="2.2.2.2", now=1010.0)
    assert lock is not None and lock.minutes == 15
    assert throttling.check_lockout(username="Ana", ip="2.2.2.2", now=1000.0 + 15 * 60 + 1) is None


def test_success_clears_account_failures(client: Client) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for i in range(9):
        attempt(client, "Ana", "wrong", ip=f"10.1.0.{i}")
    assert attempt(client, "Ana", PASSWORD, ip="10.2.0.1").status_code == 302
    client.logout()
    for i in range(9):
        attempt(client, "Ana", "wrong", ip=f"10.3.0.{i}")
    assert attempt(client, "Ana", PASSWORD, ip="10.4.0.1").status_code == 302
