"""The bots' and engines' dice are the same in every runtime (PF-62): never seeded by a float.

``random.Random(x)`` with a float ``x`` seeds from ``hash(x)``, which is 64 bits wide on the server
and 32 bits wide in the browser's Pyodide (wasm32): the same game would go two ways. The One Card
hard bot did that (its look-ahead's dice, ``Random(rng.random())``) until the cross-runtime test
(tests/browser/test_practice_cross_runtime_browser.py) caught it; this check keeps it out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = sorted([*(ROOT / "cardgames" / "bots").rglob("*.py"), *(ROOT / "cardgames" / "engines").rglob("*.py")])
FLOAT_DICE = {"random", "uniform", "gauss", "betavariate", "expovariate", "triangular"}


def float_seeds(source: str) -> list[int]:
    """Lines that seed a Random (``Random(x)``, ``.seed(x)``) with a float: a float literal or a
    call of a float-valued method of a Random (``rng.random()`` …)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name not in {"Random", "seed"}:
            continue
        arg = node.args[0]
        literal = isinstance(arg, ast.Constant) and isinstance(arg.value, float)
        drawn = (
            isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in FLOAT_DICE
        )
        if literal or drawn:
            lines.append(node.lineno)
    return lines


def test_no_bot_or_engine_seeds_its_dice_with_a_float() -> None:
    found = {str(p.relative_to(ROOT)): float_seeds(p.read_text()) for p in PURE}
    assert {path: lines for path, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("random.Random(rng.random())", True),
        ("r.seed(0.5)", True),
        ("Random(rng.uniform(0, 1))", True),
        ("random.Random(rng.getrandbits(64))", False),
        ("random.Random(f'{seed}:{seat}')", False),
    ],
)
def test_the_check_tells_float_seeds(source: str, bad: bool) -> None:
    assert bool(float_seeds(source)) is bad
