"""Fixtures of the league suite."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from economy import ledger
from league import services


@pytest.fixture
def league_fault() -> Iterator[Callable[[Callable[[str], None] | None], None]]:
    """Install a failure-injection hook at the league close's checkpoints for one test."""

    def install(hook: Callable[[str], None] | None) -> None:
        services.fault_hook = hook

    yield install
    services.fault_hook = None


@pytest.fixture
def ledger_fault() -> Iterator[Callable[[Callable[[str], None] | None], None]]:
    """Install a failure-injection hook inside the ledger's money transactions for one test."""

    def install(hook: Callable[[str], None] | None) -> None:
        ledger.fault_hook = hook

    yield install
    ledger.fault_hook = None


class Crash(Exception):
    """An injected failure (a process dying at that point)."""


def crash_at(name: str, *, times: int = 1, after: int = 0) -> Callable[[str], None]:
    """A hook that raises ``Crash`` at checkpoint ``name``: skips ``after`` passes, then fails ``times``."""
    seen = {"n": 0}

    def hook(point: str) -> None:
        if point != name:
            return
        seen["n"] += 1
        if after < seen["n"] <= after + times:
            raise Crash(name)

    return hook
