"""bin/run's supervisor (config/supervise.py) on stand-in programs (issue 13, "Faults": a process
that dies must not take the site down). The real site under it: tests/services/test_bin_run.py.

Each test runs ``python -m config.supervise`` as bin/run does, with small shell programs that
write their process id to a file each time they start, and waits on what it can see: the pid
files, the supervisor's log lines, its exit status, and /proc.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.live_harness import ROOT
from tests.services.faults_stack import wait_for

pytestmark = pytest.mark.timeout(120)


class Supervised:
    """A running supervisor, its log, and the pid files of its programs."""

    def __init__(self, tmp: Path, programs: dict[str, str], *options: str) -> None:
        self.tmp, self.log = tmp, tmp / "supervise.log"
        argv = [sys.executable, "-m", "config.supervise", *options]
        argv += [f"{name}={command}" for name, command in programs.items()]
        self.popen = subprocess.Popen(
            argv, cwd=ROOT, stdout=self.log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
        )

    def text(self) -> str:
        return self.log.read_text()

    def pids(self, name: str) -> list[int]:
        """Every pid the program ``name`` wrote, one a start."""
        path = self.tmp / f"{name}.pids"
        return [int(line) for line in path.read_text().split()] if path.exists() else []

    def wait_exit(self, seconds: float = 60) -> int:
        return self.popen.wait(timeout=seconds)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def program(tmp: Path, name: str, then: str) -> str:
    """A shell program that appends its pid to ``<name>.pids``, then runs ``then``."""
    return f"sh -c 'echo $$ >> {tmp}/{name}.pids; {then}'"


@pytest.fixture
def supervised(tmp_path: Path) -> Iterator[list[Supervised]]:
    started: list[Supervised] = []
    yield started
    for sup in started:  # whatever a test left running
        if sup.popen.poll() is None:
            os.killpg(sup.popen.pid, signal.SIGKILL)
            sup.popen.wait(timeout=10)


def test_a_program_that_dies_is_restarted_with_a_log_line_and_the_others_keep_running(
    tmp_path: Path, supervised: list[Supervised]
) -> None:
    # given a supervisor with a program that runs and one killed with SIGKILL (a worker's kill -9)
    sup = Supervised(
        tmp_path,
        {
            "steady": program(tmp_path, "steady", "sleep 300"),
            "worker": program(tmp_path, "worker", "sleep 300"),
        },
        "--backoff",
        "0.2",
    )
    supervised.append(sup)
    wait_for(lambda: len(sup.pids("worker")) == 1 and len(sup.pids("steady")) == 1, 30, "both to start")
    (first,) = sup.pids("worker")
    os.kill(first, signal.SIGKILL)
    # then it is started again, after a line that says what happened; the other one is untouched
    wait_for(lambda: len(sup.pids("worker")) == 2, 30, "the worker to be started again")
    assert "worker exited with signal SIGKILL; restarting it in 0.2 s" in sup.text()
    assert alive(sup.pids("worker")[1]) and not alive(first)
    assert len(sup.pids("steady")) == 1 and alive(sup.pids("steady")[0])
    assert sup.popen.poll() is None


def test_what_a_dead_program_left_in_its_process_group_is_killed_before_the_restart(
    tmp_path: Path, supervised: list[Supervised]
) -> None:
    # given a program with a child of its own (as the Celery worker's pool processes)
    child_file = tmp_path / "child.pid"
    sup = Supervised(
        tmp_path,
        {"worker": program(tmp_path, "worker", f"sleep 300 & echo $! > {child_file}; wait")},
        "--backoff",
        "0.2",
    )
    supervised.append(sup)
    wait_for(lambda: child_file.exists() and child_file.read_text().strip() != "", 30, "the child")
    child = int(child_file.read_text())
    # when the program is killed (kill -9: it cannot stop its child)
    os.kill(sup.pids("worker")[0], signal.SIGKILL)
    # then its child does not outlive it, and the program is started again
    wait_for(lambda: len(sup.pids("worker")) == 2, 30, "the restart")
    wait_for(lambda: not alive(child), 10, "the orphaned child to be killed")


def test_a_program_that_keeps_dying_stops_everything_and_the_supervisor_fails(
    tmp_path: Path, supervised: list[Supervised]
) -> None:
    # given a program that exits at once, every time, beside a healthy one
    sup = Supervised(
        tmp_path,
        {"steady": program(tmp_path, "steady", "sleep 300"), "broken": program(tmp_path, "broken", "exit 3")},
        *("--backoff", "0.05", "--max-restarts", "5", "--window", "60"),
    )
    supervised.append(sup)
    # then after 5 restarts within the minute it gives up: everything stops, exit status 1
    assert sup.wait_exit() == 1, sup.text()
    assert len(sup.pids("broken")) == 6
    delays = re.findall(r"broken exited with code 3; restarting it in ([\d.]+) s", sup.text())
    assert [float(d) for d in delays] == [0.05, 0.1, 0.2, 0.4, 0.8]  # the backoff doubles
    assert "broken exited with code 3, 6 times in 60 s: giving up, stopping everything" in sup.text()
    assert not alive(sup.pids("steady")[0])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_ctrl_c_stops_every_program_and_its_children(
    tmp_path: Path, supervised: list[Supervised], sig: signal.Signals
) -> None:
    # given two programs, one with a child, and one that ignores SIGTERM (it gets SIGKILL)
    child_file = tmp_path / "child.pid"
    sup = Supervised(
        tmp_path,
        {
            "parent": program(tmp_path, "parent", f"sleep 300 & echo $! > {child_file}; wait"),
            "stubborn": program(tmp_path, "stubborn", 'trap "" TERM; while true; do sleep 0.1; done'),
        },
        "--grace",
        "2",
    )
    supervised.append(sup)
    wait_for(
        lambda: child_file.exists() and child_file.read_text().strip() != "" and sup.pids("stubborn"),
        30,
        "the programs to start",
    )
    everyone = [*sup.pids("parent"), *sup.pids("stubborn"), int(child_file.read_text())]
    # when the supervisor is told to stop
    sup.popen.send_signal(sig)
    # then it exits 0 and leaves nothing behind
    assert sup.wait_exit() == 0, sup.text()
    assert [pid for pid in everyone if alive(pid)] == []
    assert f"{sig.name}: stopping" in sup.text()
    assert "stubborn did not stop in 2 s: SIGKILL" in sup.text()
    assert "restarting" not in sup.text()  # a stop is not a death


def test_a_malformed_program_is_refused_before_anything_starts(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "config.supervise", "no-equals-sign"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"expected NAME=COMMAND" in done.stderr
