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
