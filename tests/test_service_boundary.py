"""Services work on plain values (issue 10, design.md "framework glue thin"): no function of a
services module takes or imports an ``HttpRequest``; what a browser session adds lives in the
views' glue (``accounts.web``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {"tests", "bench", ".venv", ".run", "node_modules"}
SERVICE_FILES = sorted(
    p
    for p in ROOT.glob("*/**/*.py")
    if ("services" in p.parts or p.name == "services.py") and p.parts[len(ROOT.parts)] not in SKIP
)


def test_the_service_modules_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SERVICE_FILES}
    assert {"accounts/services.py", "cardgames/tables/services.py"} <= names
    assert any(n.startswith("economy/services/") for n in names)


@pytest.mark.parametrize("path", SERVICE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_service_takes_an_http_request(path: Path) -> None:
    tree = ast.parse(path.read_text())
    offenders = [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "HttpRequest")
        or (isinstance(node, ast.Attribute) and node.attr == "HttpRequest")
        or (isinstance(node, ast.alias) and node.name.endswith("HttpRequest"))
        or (isinstance(node, ast.arg) and node.arg == "request")
    ]
    assert offenders == [], f"{path.name}: HttpRequest or a request parameter at lines {offenders}"


# -- the table wing and matchmaking (issue 26) -------------------------------------------------------
TABLES = ROOT / "cardgames" / "tables"
TABLE_FILES = sorted(TABLES.rglob("*.py"))
#: the code outside the table wing (the tests may poke a module's private state; the code may not)
OUTSIDE_FILES = sorted(
    p for p in ROOT.glob("*/**/*.py") if p.parts[len(ROOT.parts)] not in SKIP and not p.is_relative_to(TABLES)
)


def _module_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path) -> list[tuple[int, str, str | None, str]]:
    """Every import in the file, at module level or inside a function: (line, module, name or
    None, the local name bound to it or ""), relative imports resolved, ``import_module("…")``
    included."""
    package = _module_of(path)[: -1 if path.name != "__init__.py" else None]
    found: list[tuple[int, str, str | None, str]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, None, a.asname or "") for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(node.lineno, module, a.name, a.asname or a.name) for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value, None, ""))
    return found


def _in(package: str, module: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_the_boundary_files_are_found() -> None:
    assert TABLES / "services.py" in TABLE_FILES and TABLES / "core.py" in TABLE_FILES
    assert ROOT / "cardgames" / "matchmaking" / "seating.py" in OUTSIDE_FILES
    assert not any(p.is_relative_to(ROOT / "tests") for p in OUTSIDE_FILES)


@pytest.mark.parametrize("path", TABLE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_table_wing_never_imports_matchmaking(path: Path) -> None:
    """Matchmaking builds on the tables: the tables reach it only through ``tables.hooks``."""
    offenders = [
        (line, module if name is None else f"{module}.{name}")
        for line, module, name, _local in _imports(path)
        if _in("cardgames.matchmaking", module) or _in("cardgames.matchmaking", f"{module}.{name}")
    ]
    assert offenders == [], f"{path.name} imports matchmaking at {offenders}"


@pytest.mark.parametrize("path", OUTSIDE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_outside_the_table_wing_takes_its_private_names(path: Path) -> None:
    """``from cardgames.tables.services import _close`` or ``services._close(...)`` outside the
    wing: what other writers share is ``tables.core``'s public functions."""
    imports = [i for i in _imports(path) if _in("cardgames.tables", i[1])]
    offenders = [(line, f"{m}.{name}") for line, m, name, _local in imports if (name or "").startswith("_")]
    modules = {
        local
        for _line, module, name, local in imports
        if local and (name is None or _is_module(f"{module}.{name}"))
    }
    offenders += [
        (node.lineno, f"{node.value.id}.{node.attr}")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in modules
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    ]
    assert offenders == [], f"{path.name} uses the table wing's private names at {offenders}"


# -- accounts stays below the games (issue 26) ----------------------------------------------------------
ACCOUNTS_FILES = sorted((ROOT / "accounts").rglob("*.py"))
#: what accounts may never import: the apps built on it
ABOVE_ACCOUNTS = ("cardgames", "frontend", "economy", "league")


def test_the_accounts_files_are_found() -> None:
    assert (
        ROOT / "accounts" / "views.py" in ACCOUNTS_FILES and ROOT / "accounts" / "apps.py" in ACCOUNTS_FILES
    )


@pytest.mark.parametrize("path", ACCOUNTS_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_accounts_imports_nothing_of_the_apps_above_it(path: Path) -> None:
    """Users, sessions and sign-up sit below the games, the economy and the league: the profile page
    (games, ratings, charts) is ``frontend``'s, the welcome unlock ``cardgames``', and a session's
    end reaches the sockets by a signal (``accounts.sessions.sessions_ended``)."""
    offenders = [
        (line, module)
        for line, module, _name, _local in _imports(path)
        if any(_in(app, module) for app in ABOVE_ACCOUNTS)
    ]
    assert offenders == [], f"{path.name} imports {offenders}"
