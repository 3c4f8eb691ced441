"""The league's arithmetic stays pure (design.md): weeks, points and the ranking import no
Django, Channels or Celery, and never read the clock (the moment is always an argument)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = ("league.weeks", "league.points", "league.ranking")
NEVER_LOADED = {"django", "channels", "celery", "asgiref", "daphne", "redis"}
CLOCK_CALLS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter"}


def test_importing_the_pure_league_modules_loads_no_framework() -> None:
    code = (
        "import json, sys\n"
        f"for name in {list(PURE)!r}: __import__(name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    loaded = set(
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=True, text=True
            ).stdout
        )
    )
    assert loaded & NEVER_LOADED == set()


@pytest.mark.parametrize("module", PURE)
def test_the_pure_league_modules_never_read_the_clock(module: str) -> None:
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    calls = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert calls & CLOCK_CALLS == set()
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "time" not in imported
