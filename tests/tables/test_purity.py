"""The pure modules outside the engines stay pure (design.md): the bots, the table flow, the socket
protocol, the move log and the game catalogue import no Django, Channels, Celery or clock, directly or through
another module of ours. (The engines' own check is in tests/engines/test_conformance.py.)"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: the pure modules this test watches (the practice table and the table modules it uses run in the
#: browser's Pyodide too, PF-62: frontend/offline.py zips them)
PURE_FILES = sorted(
    [
        *(ROOT / "cardgames" / "bots").rglob("*.py"),
        *(ROOT / "cardgames" / "practice").rglob("*.py"),
        *(
            ROOT / "cardgames" / "tables" / n
            for n in ("flow.py", "protocol.py", "movelog.py", "legal_wire.py", "envelope_parts.py")
        ),
        ROOT / "cardgames" / "catalogue.py",
    ]
)
#: modules of ours a pure module may import (each of them checked in turn): the pure wings
PURE_PACKAGES = ("cardgames.bots", "cardgames.engines", "cardgames.practice")
PURE_MODULES = {
    "cardgames",
    "cardgames.tables",
    "cardgames.tables.flow",
    "cardgames.tables.protocol",
    "cardgames.tables.movelog",
    "cardgames.tables.legal_wire",
    "cardgames.tables.envelope_parts",
    "cardgames.catalogue",
}
#: standard-library modules that are the clock (design.md: time enters as an argument)
NO_CLOCK = {"time", "datetime"}
#: what must never be loaded by importing the pure modules (``time`` is loaded by Python itself)
NEVER_LOADED = {"django", "channels", "celery", "asgiref", "daphne", "redis", "datetime"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def imports(source: str, module: str, is_package: bool) -> list[str]:
    """The absolute module names ``source`` imports; ``from pkg import name`` also yields
    ``pkg.name`` when that is a module of ours (``from cardgames.tables import services``)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            found.append(origin)
            found += [f"{origin}.{a.name}" for a in node.names if module_path(f"{origin}.{a.name}")]
    return found


def allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top == "cardgames":
        return name in PURE_MODULES or any(name == p or name.startswith(p + ".") for p in PURE_PACKAGES)
    return top in sys.stdlib_module_names and top not in NO_CLOCK


def impure_imports(start: list[Path]) -> list[str]:
    """Every forbidden import reachable from ``start`` through modules of ours, as "module imports name"."""
    todo = [(module_name(p), p) for p in start]
    seen: set[str] = set()
    bad: list[str] = []
    while todo:
        module, path = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for name in imports(path.read_text(), module, path.name == "__init__.py"):
            if not allowed(name):
                bad.append(f"{module} imports {name}")
            elif name.startswith("cardgames") and (target := module_path(name)) is not None:
                todo.append((name, target))
        # importing a module runs its packages' __init__ first
        parent = module.rpartition(".")[0]
        if parent and (target := module_path(parent)) is not None:
            todo.append((parent, target))
    return bad


def test_the_watched_modules_exist() -> None:
    names = {module_name(p) for p in PURE_FILES}
    assert {
        "cardgames.bots",
        "cardgames.bots.driver",
        "cardgames.tables.flow",
        "cardgames.tables.movelog",
        "cardgames.catalogue",
    } <= names
    assert "cardgames.bots.guandan.policies" in names and "cardgames.bots.skyjo.hard" in names


def test_bots_flow_protocol_and_catalogue_import_nothing_impure() -> None:
    assert impure_imports(PURE_FILES) == []


def test_importing_them_loads_no_framework_and_no_clock() -> None:
    """The same, at run time in a fresh interpreter: nothing of Django & co. (or datetime) gets loaded."""
    names = sorted(module_name(p) for p in PURE_FILES)
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(NEVER_LOADED)!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import channels.layers",
        "from celery import shared_task",
        "import time",
        "from time import monotonic",
        "from datetime import datetime",
        "from cardgames.tables import models",
        "from cardgames.tables.services import make_move",
        "from ..tables import services",
        "import requests",
    ],
)
def test_the_check_catches(source: str) -> None:
    module = "cardgames.bots.example"
    names = imports(source, module, is_package=False)
    assert any(not allowed(n) for n in names), (source, names)


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "from collections.abc import Mapping",
        "from cardgames.engines.one_card.cards import DECK",
        "from cardgames.tables import flow",
        "from .common import JSON",
        "from cardgames.catalogue import GAMES",
    ],
)
def test_the_check_lets_pass(source: str) -> None:
    names = imports(source, "cardgames.bots.guandan.policies", is_package=False)
    assert all(allowed(n) for n in names), (source, names)
