"""The practice zip (PF-62): the repository's own pure modules, nothing else, self-sufficient, and
built the same from the same sources (frontend/offline.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path

from frontend import offline
from tests.tables.test_purity import impure_imports

ROOT = Path(__file__).resolve().parents[2]


def test_the_zip_holds_the_engines_bots_and_practice_table_and_only_pure_modules() -> None:
    names = offline.bundle_sources()
    assert "cardgames/practice/session.py" in names and "cardgames/engines/guandan/engine.py" in names
    assert "cardgames/bots/puteo.py" in names and "cardgames/tables/envelope_parts.py" in names
    assert not any(
        n.startswith("cardgames/tables/") and n.endswith(("services.py", "models.py")) for n in names
    )
    assert impure_imports([ROOT / n for n in names]) == []


def test_the_zip_is_the_same_bytes_for_the_same_sources() -> None:
    assert offline.bundle_bytes(offline.bundle_sources()) == offline.bundle_bytes(offline.bundle_sources())


def test_the_built_zip_is_this_checkouts_code() -> None:
    """bin/setup builds it; a zip older than the sources would give the browser other rules."""
    assert offline.BUNDLE.exists(), "run bin/setup (python -m frontend.offline)"
    assert offline.BUNDLE.read_bytes() == offline.bundle_bytes(offline.bundle_sources())


def test_the_zip_alone_plays_a_practice_table(tmp_path: Path) -> None:
    """In a fresh interpreter that sees only the zip (not the repository): a practice table is dealt
    and a bot moves, as in the browser's Pyodide."""
    bundle = tmp_path / "practice.zip"
    bundle.write_bytes(offline.bundle_bytes(offline.bundle_sources()))
    code = (
        "import sys, json\n"
        f"keep = [p for p in sys.path if 'site-packages' not in p and p not in ('', {str(ROOT)!r})]\n"
        f"sys.path[:] = [{str(bundle)!r}] + keep\n"
        "from cardgames.practice.session import PracticeSession\n"
        "s = PracticeSession()\n"
        "a = s.start({'game': 'pika', 'seed': 'z', 'players': 3, 'think': 0}, 1.0)\n"
        "b = s.wake(2.0)\n"
        "import cardgames\n"
        "found = {'status': a['status'], 'file': cardgames.__file__, 'django': 'django' in sys.modules}\n"
        "print(json.dumps(found))\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    found = json.loads(out.stdout)
    assert found["status"] == "playing" and found["file"].startswith(str(bundle)) and not found["django"]


def test_the_runtime_is_the_pinned_npm_package() -> None:
    lock = json.loads((ROOT / "package-lock.json").read_text())
    package = lock["packages"]["node_modules/pyodide"]
    assert package["version"] == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert package["integrity"].startswith("sha512-")
    placed = offline.PYODIDE_STATIC
    assert (placed / "VERSION").read_text().strip() == package["version"]
    for name in offline.PYODIDE_FILES:
        assert (placed / name).read_bytes() == (offline.PYODIDE_SOURCE / name).read_bytes()
    with zipfile.ZipFile(BytesIO(offline.BUNDLE.read_bytes())) as archive:
        assert all(info.date_time == offline.EPOCH for info in archive.infolist())
