"""Countdown tasks (broadcast.countdown): scheduled only after commit, and a broker that is down
loses nothing but the early wake-up (the sweeper finds the table)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import transaction

from cardgames.tables import broadcast

pytestmark = pytest.mark.django_db(transaction=True)
AT = datetime(2026, 12, 1, 12, 0, 30, tzinfo=UTC)


class FakeTask:
    name = "fake.task"

    def __init__(self, *, fail: bool = False) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail = fail

    def apply_async(self, **kwargs: Any) -> None:
        if self.fail:
            raise ConnectionError("broker down")
        self.calls.append(kwargs)


def test_the_task_is_sent_after_the_commit_with_its_eta() -> None:
    task = FakeTask()
    with transaction.atomic():
        broadcast.countdown(task, 7, AT)
        assert task.calls == []
    assert task.calls == [{"args": [7], "eta": AT}]


def test_a_rolled_back_transaction_schedules_nothing() -> None:
    task = FakeTask()
    with pytest.raises(RuntimeError), transaction.atomic():
        broadcast.countdown(task, 7, AT)
        raise RuntimeError("rolled back")
    assert task.calls == []


def test_a_broker_that_is_down_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    with transaction.atomic():
        broadcast.countdown(FakeTask(fail=True), 7, AT)
    assert "could not schedule fake.task for table 7" in caplog.text
