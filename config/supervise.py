"""The site's process supervisor (``bin/run``): start each program, restart the one that exits.

    python -m config.supervise [--max-restarts 5] [--window 60] [--backoff 1] [--grace 10] NAME=COMMAND ...

A program that exits without being asked (a crash, a kill -9, the Celery worker leaving when
Redis goes away under kombu 5.7) is started again after a short backoff (1 s, doubling, at most
``MAX_BACKOFF``), with a line on stderr. One that dies more than ``--max-restarts`` times within
``--window`` seconds is broken, not unlucky: everything is stopped and the supervisor exits 1.
SIGINT (Ctrl-C), SIGTERM and SIGHUP stop every program — SIGTERM to its whole process group
(a worker's pool too), SIGKILL to what is left after ``--grace`` seconds — and exit 0.

Each program runs in a process group of its own, so that a terminal's Ctrl-C reaches only the
supervisor (which then stops them in order) and a dead program's leftovers can be killed with
it; on Linux each program also gets SIGTERM if the supervisor itself is killed.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field

#: the longest wait before a restart
MAX_BACKOFF = 8.0
#: how often the loop looks at the programs
POLL_SECONDS = 0.2


def log(message: str) -> None:
    print(f"==> supervise: {message}", file=sys.stderr, flush=True)


def _die_with_parent() -> None:
    """In the child before exec (Linux): SIGTERM when the supervisor dies, even by kill -9."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Program:
    name: str
    argv: list[str]
    popen: subprocess.Popen[bytes] | None = None
    deaths: deque[float] = field(default_factory=deque)
    restart_at: float | None = None

    def start(self) -> None:
        self.popen = subprocess.Popen(self.argv, start_new_session=True, preexec_fn=_die_with_parent)
        self.restart_at = None
        log(f"{self.name} started (pid {self.popen.pid})")

    def signal_group(self, sig: int) -> None:
        if self.popen is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, sig)


def describe(code: int) -> str:
    """An exit status as people say it: ``code 3``, ``signal SIGKILL``."""
    if code >= 0:
        return f"code {code}"
    with contextlib.suppress(ValueError):
        return f"signal {signal.Signals(-code).name}"
    return f"signal {-code}"


class Supervisor:
    def __init__(
        self, programs: list[Program], *, max_restarts: int, window: float, backoff: float, grace: float
    ) -> None:
        self.programs = programs
        self.max_restarts, self.window, self.backoff, self.grace = max_restarts, window, backoff, grace
        self.stop_signal: int | None = None

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.stop_signal = signum

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        for program in self.programs:
            program.start()
        status = 0
        while self.stop_signal is None and status == 0:
            now = time.monotonic()
            for program in self.programs:
                if not self.tend(program, now):
                    status = 1
                    break
            else:
                time.sleep(POLL_SECONDS)
        if self.stop_signal is not None:
            log(f"{signal.Signals(self.stop_signal).name}: stopping")
        self.stop_all()
        return status

    def tend(self, program: Program, now: float) -> bool:
        """Start ``program`` if its backoff is over, note it if it died; False: give up."""
        if program.restart_at is not None:
            if now >= program.restart_at:
                program.start()
            return True
        assert program.popen is not None
        code = program.popen.poll()
        if code is None:
            return True
        program.signal_group(signal.SIGKILL)  # what it left behind (a worker's pool)
        program.deaths.append(now)
        while program.deaths[0] < now - self.window:
            program.deaths.popleft()
        if len(program.deaths) > self.max_restarts:
            log(
                f"{program.name} exited with {describe(code)}, {len(program.deaths)} times in"
                f" {self.window:g} s: giving up, stopping everything"
            )
            return False
        wait = min(MAX_BACKOFF, self.backoff * 2 ** (len(program.deaths) - 1))
        log(f"{program.name} exited with {describe(code)}; restarting it in {wait:g} s")
        program.restart_at = now + wait
        return True

    def stop_all(self) -> None:
        running = [p for p in self.programs if p.popen is not None and p.restart_at is None]
        for program in running:
            program.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for program in running:
            assert program.popen is not None
            with contextlib.suppress(subprocess.TimeoutExpired):
                program.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            if program.popen.poll() is None:
                log(f"{program.name} did not stop in {self.grace:g} s: SIGKILL")
            program.signal_group(signal.SIGKILL)  # the rest of its group, if anything is left
            program.popen.wait()
        log("stopped")


def parse_program(text: str) -> Program:
    name, sep, command = text.partition("=")
    if not sep or not name or not command.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=COMMAND, got {text!r}")
    return Program(name, shlex.split(command))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-restarts", type=int, default=5, help="restarts allowed within --window")
    parser.add_argument("--window", type=float, default=60.0, help="seconds")
    parser.add_argument("--backoff", type=float, default=1.0, help="first wait before a restart, seconds")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds to stop before SIGKILL")
    parser.add_argument("programs", nargs="+", type=parse_program, metavar="NAME=COMMAND")
    args = parser.parse_args(argv)
    supervisor = Supervisor(
        args.programs,
        max_restarts=args.max_restarts,
        window=args.window,
        backoff=args.backoff,
        grace=args.grace,
    )
    return supervisor.run()


if __name__ == "__main__":
    sys.exit(main())
