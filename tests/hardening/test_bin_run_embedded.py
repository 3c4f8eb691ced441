"""``bin/run`` on the embedded defaults, as a fresh clone runs it, on a port other than 8000
(issue 26 items 9 and 11).

- Item 9: the site trusts its own port's local origins (websocket Origin, CSRF), not 8000's.
- Item 11: the in-process table runner starts with daphne, not with the first websocket: after
  daphne is killed and the supervisor starts it again, a client that only speaks HTTP (no page,
  no socket ever opened) starts a game against bots and sees the bots move.

One ``bin/run`` (SQLite and the file-system broker in a temporary folder) serves both.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Iterator

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from bench.live_harness import Proc, free_port
from tests.services.faults_stack import wait_for
from tests.services.processes import embedded_env, spawn_bin_run, stop_group
from tests.services.test_bin_run import serving, started
from tests.services.web_client import WebClient

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proc]:
    run_dir = tmp_path_factory.mktemp("bin-run")
    port = free_port()
    while port == 8000:
        port = free_port()
    env = embedded_env(run_dir, TABLE_BOT_THINK_SECONDS="0.1")
    proc = spawn_bin_run(env, run_dir, port)
    try:
        wait_for(
            lambda: (serving(port) and bool(started(proc, "daphne"))) or not proc.alive,
            180,
            "bin/run's daphne",
            [proc],
        )
        assert proc.alive, proc.tail()
        yield proc
    finally:
        stop_group(proc.popen)


def _socket_opens(port: int, origin: str) -> bool:
    """Whether the lobby socket's handshake is accepted from ``origin`` (a refusal is a 403)."""
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/lobby/", origin=origin, open_timeout=10):  # type: ignore[arg-type]
            return True
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False


def test_item9_bin_run_on_another_port_trusts_that_ports_origins_not_8000s(site: Proc) -> None:
    port = site.port
    assert port is not None and port != 8000
    # websockets: the other local name of this very port is trusted, port 8000's are not
    assert _socket_opens(port, f"http://localhost:{port}")
    assert not _socket_opens(port, "http://localhost:8000")
    assert not _socket_opens(port, "http://127.0.0.1:8000")
    # CSRF: a request with a valid token passes the Origin check only from this port's origins
    client = WebClient(f"http://127.0.0.1:{port}")
    client.fetch_csrf()
    login = {"username": "nadie", "password": "no-such-password"}
    stranger = client.call("POST", "/api/auth/login", login, headers={"Origin": "http://localhost:8000"})
    assert stranger.status == 403, stranger.body
    local = client.call("POST", "/api/auth/login", login, headers={"Origin": f"http://localhost:{port}"})
    assert local.status == 400 and local.body["code"] == "bad_credentials", local.body


def test_item11_after_a_restart_an_http_only_client_sees_the_bots_move(site: Proc) -> None:
    port = site.port
    assert port is not None
    # given daphne killed (kill -9) and started again by bin/run's supervisor
    (first,) = started(site, "daphne")
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: len(started(site, "daphne")) == 2 and serving(port), 60, "daphne's restart", [site])

    # when a client that never opens a socket signs up and starts a Skyjo game against bots
    client = WebClient(f"http://127.0.0.1:{port}")
    client.sign_up(f"http{secrets.token_hex(3)}")
    room = client.ok("POST", "/api/tables", {"game": "skyjo", "mode": "bots", "bot_level": "easy"})
    client.ok("POST", f"/api/tables/{room['id']}/start", {})
    started_at = client.ok("GET", f"/api/tables/{room['id']}")["version"]

    # then the bots reveal their cards (Skyjo's opening is everyone's at once): the runner runs
    deadline = time.monotonic() + 30
    version = started_at
    while version == started_at and time.monotonic() < deadline:
        time.sleep(0.2)
        version = client.ok("GET", f"/api/tables/{room['id']}")["version"]
    assert version > started_at, f"no bot moved in 30 s\n{site.tail()}"
