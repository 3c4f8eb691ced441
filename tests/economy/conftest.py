"""Fixtures of the economy suite."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from economy import ledger

_names = itertools.count(1)


@pytest.fixture
def make_user() -> Callable[..., Any]:
    def make(name: str | None = None, **extra: Any) -> Any:
        return get_user_model().objects.create_user(
            username=name or f"player{next(_names)}", password=None, **extra
        )

    return make


@pytest.fixture
def fault_hook() -> Iterator[Callable[[Callable[[str], None] | None], None]]:
    """Install a failure-injection hook in the ledger for one test."""

    def install(hook: Callable[[str], None] | None) -> None:
        ledger.fault_hook = hook

    yield install
    ledger.fault_hook = None
