"""Docstrings, comments and docs cite the rules as ``../shared/rules/<file>.md`` (relative to the
repository, as docs/decisions.md does), never by a path of one machine."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: an absolute path into the shared folder or a checkout ("/work/shared/rules/puteo.md", "/work/main")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|Users|tmp)/[\w.-]+")


def _tracked_text_files() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "*.py", "*.md", "*.html", "*.js", "*.txt", "*.toml", "*.cfg"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [ROOT / name for name in out.splitlines() if (ROOT / name).is_file()]


def test_no_machine_paths_in_the_repository() -> None:
    found = []
    for path in _tracked_text_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "cite ../shared/rules/<file>.md, not a machine path:\n" + "\n".join(found)


def test_the_pattern_tells_machine_paths_from_relative_ones() -> None:
    assert MACHINE_PATH.search("rules: /work/shared/rules/skyjo.md")
    assert MACHINE_PATH.search("cd /work/main && make")
    assert not MACHINE_PATH.search("rules: ../shared/rules/skyjo.md")
    assert not MACHINE_PATH.search("see docs/decisions.md and /ws/lobby/")
