"""The files of offline practice (PF-62), built by ``bin/setup`` from this repository and npm.

- ``frontend/static/offline/tapete-practice.zip``: the pure packages the browser runs in Pyodide
  (``cardgames.engines``, ``cardgames.bots``, ``cardgames.practice`` and the pure table modules),
  zipped from the repository's own files, byte for byte the same for the same sources (fixed
  timestamps and order), so nothing is written twice and a stale zip is caught by its hash.
- ``frontend/static/vendor/pyodide/``: the Pyodide runtime's files, copied from the npm package
  that ``package-lock.json`` pins with its integrity hash (``npm ci`` checks it).

Both are build products (.gitignore); ``python -m frontend.offline`` makes them. No Django here:
set-up runs it before the site's settings are needed.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "frontend" / "static"
BUNDLE = STATIC / "offline" / "tapete-practice.zip"
PYODIDE_SOURCE = ROOT / "node_modules" / "pyodide"
PYODIDE_STATIC = STATIC / "vendor" / "pyodide"
#: what the browser needs of the npm package to start Python (no packages beyond the stdlib)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: the pure modules the practice table runs: whole packages, and single modules of ``cardgames.tables``
PACKAGES = ("cardgames/engines", "cardgames/bots", "cardgames/practice")
MODULES = (
    "cardgames/__init__.py",
    "cardgames/catalogue.py",
    "cardgames/tables/__init__.py",
    "cardgames/tables/flow.py",
    "cardgames/tables/protocol.py",
    "cardgames/tables/movelog.py",
    "cardgames/tables/legal_wire.py",
    "cardgames/tables/envelope_parts.py",
)
#: a fixed time for every zip entry, so the same sources give the same bytes
EPOCH = (1980, 1, 1, 0, 0, 0)


def bundle_sources(root: Path = ROOT) -> list[str]:
    """The repository paths that go into the practice zip, sorted."""
    found = set(MODULES)
    for package in PACKAGES:
        found.update(p.relative_to(root).as_posix() for p in (root / package).rglob("*.py"))
    return sorted(found)


def bundle_bytes(paths: Iterable[str], root: Path = ROOT) -> bytes:
    """The practice zip of ``paths`` (repository paths), deterministic."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in paths:
            info = zipfile.ZipInfo(path, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (root / path).read_bytes())
    return out.getvalue()


def build_bundle(target: Path = BUNDLE) -> str:
    """Write the practice zip (only when its bytes change); returns its SHA-256."""
    data = bundle_bytes(bundle_sources())
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def place_pyodide(source: Path = PYODIDE_SOURCE, target: Path = PYODIDE_STATIC) -> None:
    """Copy the runtime's files from the npm package into the static files."""
    missing = [name for name in PYODIDE_FILES if not (source / name).exists()]
    if missing:
        raise SystemExit(f"Pyodide is not installed (npm ci): {source} lacks {', '.join(missing)}")
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        if not (target / name).exists() or (target / name).read_bytes() != (source / name).read_bytes():
            shutil.copyfile(source / name, target / name)
    version = json.loads((source / "package.json").read_text())["version"]
    (target / "VERSION").write_text(version + "\n")


def main(argv: list[str]) -> int:
    place_pyodide()
    digest = build_bundle()
    print(
        f"offline practice: {BUNDLE.relative_to(ROOT)} sha256 {digest[:12]}, "
        f"Pyodide in {PYODIDE_STATIC.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
