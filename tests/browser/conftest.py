"""Every test under tests/browser drives Chromium: mark it ``browser`` even if its module forgot,
so CI's tier 1 (``-m "not services and not browser"``) leaves them all to tier 2."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
