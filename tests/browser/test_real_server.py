"""The site as `bin/run` serves it: daphne on the ASGI app, a browser over HTTP and a websocket.

Runs daphne in a subprocess on the embedded defaults (a temporary SQLite file), logs in
through the page in Chromium and opens the lobby socket from the page's own JavaScript,
so session auth and the origin check are exercised exactly as players meet them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.test_accounts_browser import page  # noqa: F401  (the Chromium page fixture)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_serving(
    url: str, proc: subprocess.Popen[bytes], why: Callable[[], str], seconds: float = 120
) -> None:
    """Until daphne at ``url`` answers: a loaded CI box can take long to start it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=5)
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(why() or "daphne died") from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def stop_server(proc: subprocess.Popen[bytes], seconds: float = 10) -> None:
    """SIGTERM, then SIGKILL if daphne is still there after ``seconds``: a daphne busy closing
    its sockets once ignored SIGTERM, and the module's teardown failed on a timeout."""
    proc.terminate()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=seconds)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("site")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(SQLITE_PATH=str(tmp / "site.sqlite3"), TAPETE_RUN_DIR=str(tmp / "run"))
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run(
        [
            *manage,
            "shell",
            "-c",
            "from accounts.models import User; User.objects.create_user('Nico', password='mesa-verde-2026')",
        ],
        env=env,
        check=True,
        cwd=ROOT,
    )
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, proc, lambda: proc.stderr.read().decode() if proc.stderr else "")
        yield url
    finally:
        stop_server(proc)


OPEN_LOBBY = """
() => new Promise((resolve) => {
  const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/lobby/");
  const frames = [];
  ws.onmessage = (e) => {
    frames.push(JSON.parse(e.data));
    if (frames[0].type === "error") return;
    if (frames.length === 1) ws.send("{broken");
    if (frames.length === 2) { ws.close(); resolve(frames); }
  };
  ws.onclose = (e) => resolve(frames.length === 2 ? frames : [frames[0].code, e.code]);
})
"""


def test_daphne_serves_pages_static_files_and_the_lobby_socket(page, server: str) -> None:  # noqa: F811
    page.goto(server + "/")
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") == "flex"
    assert page.evaluate(OPEN_LOBBY) == ["not_authenticated", 4401]  # anonymous: told why, then closed

    page.goto(server + "/cuenta/entrar/")
    page.get_by_label("Nombre de usuario").fill("nico")
    page.get_by_label("Contraseña").fill("mesa-verde-2026")
    page.get_by_role("button", name="Entrar").click()
    page.get_by_test_id("nav-profile").wait_for()

    hello, error = page.evaluate(OPEN_LOBBY)
    assert abs(hello.pop("server_time") - time.time() * 1000) < 60_000  # the page's clock for expiries
    assert hello == {"type": "hello", "you": {"kind": "user", "id": "1", "name": "Nico"}, "invitations": []}
    assert error["type"] == "error" and error["code"] == "bad_json"
