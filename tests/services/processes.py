"""Site processes for tests that start their own (not a test module): ``bin/run`` or a bare
daphne, each in a process group of its own, stopped with the group."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
from pathlib import Path

from bench.live_harness import PY, ROOT, Proc


def embedded_env(run_dir: Path, **extra: str) -> dict[str, str]:
    """This environment on the embedded defaults (no DATABASE_URL, no REDIS_URL), with its
    SQLite file, run folder and secret key in ``run_dir``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "DJANGO_"))
        and k not in {"DATABASE_URL", "REDIS_URL", "COV_CORE_SOURCE"}
    }
    env.update(
        TAPETE_RUN_DIR=str(run_dir),
        SQLITE_PATH=str(run_dir / "db.sqlite3"),
        SECRET_KEY=secrets.token_urlsafe(50),
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def spawn(name: str, argv: list[str], env: dict[str, str], log: Path, port: int | None = None) -> Proc:
    popen = subprocess.Popen(
        argv, env=env, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )
    return Proc(name, popen, log, port)


def spawn_bin_run(env: dict[str, str], run_dir: Path, port: int) -> Proc:
    """``bin/run`` on ``port`` with the shared venv as it is, its output in ``run_dir``."""
    env = {**env, "PORT": str(port), "TAPETE_SKIP_SETUP": "1"}
    return spawn("bin/run", ["bash", "bin/run"], env, run_dir / "bin-run.log", port)


def spawn_daphne(env: dict[str, str], run_dir: Path, port: int, *extra: str) -> Proc:
    """daphne on 127.0.0.1:``port`` serving the site, as bin/run starts it (``extra``: options)."""
    argv = [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *extra, "config.asgi:application"]
    return spawn(f"daphne-{port}", argv, env, run_dir / f"daphne-{port}.log", port)


def stop_group(popen: subprocess.Popen[bytes], grace: float = 30) -> None:
    """SIGTERM to the process group, SIGKILL after ``grace`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(popen.pid, signal.SIGTERM)
    try:
        popen.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(popen.pid, signal.SIGKILL)
        popen.wait(timeout=10)
