"""The production topology with real parts (issue 26 §2, docs/deploy.md): Debian's nginx in
front of two daphnes, one Celery worker and beat, on PostgreSQL and Redis.

Everything comes from ``deploy/``: nginx runs ``deploy/nginx/tapete.conf`` itself (only the
ports, the upstream daphnes and a self-signed certificate made here with openssl are put in;
its own prefix, pid and logs in a temporary folder, as any user), the daphnes, the worker and
beat run the ``ExecStart`` of their systemd units, with the settings of
``deploy/tapete.env.example`` (HTTPS, X-Forwarded-Proto, nginx as the trusted proxy). Then:

- plain HTTP is sent to https; pages and the API answer over https with Secure cookies;
- a person plays a whole game against bots over ``wss://`` through nginx; half-way the daphne
  holding the socket is killed (SIGKILL), nginx sends the reconnect to the other, the game
  ends, its log is whole and it is settled once;
- the log-in throttle keys on the client's address, not nginx's: a client (127.0.0.2) that
  used up its failures is throttled while another (127.0.0.3) is not, and neither escapes or
  frames the other by writing X-Forwarded-For itself;
- a body over the site's limit is refused by nginx (413).
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bench.live_harness import PY, ROOT, Proc, SeatClient, Stack, Stats, free_port, live_stack
from tests.conftest import missing_service
from tests.services.faults_stack import wait_for
from tests.services.live_checks import assert_log_sound, wait_settled
from tests.services.processes import spawn
from tests.services.test_bin_run import serving
from tests.services.web_client import WebClient

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: what the example environment holds that a test stack sets itself
STACK_OWNS = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "TAPETE_RUN_DIR"}


def unit_command(unit: str, *, port: int = 0, state: Path | None = None) -> list[str]:
    """The ``ExecStart`` of a unit of deploy/systemd, run from this checkout's Python."""
    text = (DEPLOY / "systemd" / unit).read_text()
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0] == "/srv/tapete/.venv/bin/python", argv
    return [PY] + [a.replace("%i", str(port)).replace("/var/lib/tapete", str(state)) for a in argv[1:]]


def example_env(https_port: int) -> dict[str, str]:
    """deploy/tapete.env.example, with this machine's names and ports."""
    env = {}
    for line in (DEPLOY / "tapete.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            if name not in STACK_OWNS:
                env[name] = value
    assert env["HTTPS"] == "true" and env["SECURE_PROXY_SSL_HEADER"] == "X-Forwarded-Proto", env
    assert "127.0.0.1" in env["TRUSTED_PROXIES"].split(","), env
    origin = f"https://127.0.0.1:{https_port}"
    env.update(ALLOWED_HOSTS="127.0.0.1,localhost", CSRF_TRUSTED_ORIGINS=origin, SITE_ORIGINS=origin)
    return env


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (openssl), and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def _sub(pattern: str, replacement: str, text: str, count: int) -> str:
    """``re.subn`` that insists on matching ``count`` times: the config may not drift unseen."""
    out, n = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    assert n == count, f"deploy/nginx/tapete.conf: {pattern!r} matched {n} times, not {count}"
    return out


def nginx_config(
    folder: Path, *, https_port: int, http_port: int, daphnes: list[int], cert: Path, key: Path
) -> Path:
    """deploy/nginx/tapete.conf with these ports, daphnes and certificate, inside a main config
    of its own (prefix, pid, logs and temporary files in ``folder``)."""
    site = (DEPLOY / "nginx" / "tapete.conf").read_text()
    site = _sub(r"^\s*listen \[::\]:(80|443)\b.*\n", "", site, 2)
    site = _sub(r"^(\s*)listen 443 ssl http2;", rf"\1listen 127.0.0.1:{https_port} ssl http2;", site, 1)
    site = _sub(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{http_port};", site, 1)
    found = re.search(r"^    server 127\.0\.0\.1:\d+ (.*);$", site, flags=re.MULTILINE)
    assert found, "deploy/nginx/tapete.conf: no upstream server line"
    upstreams = "".join(
        f"    server 127.0.0.1:{port} {found.group(1)};\n" for port in daphnes
    )  # same options
    site = _sub(r"(?:^    server 127\.0\.0\.1:\d+ .*;\n)+", upstreams, site, 1)
    site = _sub(r"^(\s*ssl_certificate\s+)\S+;", rf"\g<1>{cert};", site, 1)
    site = _sub(r"^(\s*ssl_certificate_key\s+)\S+;", rf"\g<1>{key};", site, 1)
    (folder / "tapete.conf").write_text(site)
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root; " if os.geteuid() == 0 else ""  # as root the workers would be nobody's
    main = folder / "nginx.conf"
    lines = [
        f"{user}worker_processes 1;",
        f"pid {folder / 'nginx.pid'};",
        f"error_log {folder / 'nginx-error.log'} warn;",
        "events { worker_connections 512; }",
        "http {",
        f"    access_log {folder / 'nginx-access.log'};",
        temp,
        f"    include {folder / 'tapete.conf'};",
        "}",
    ]
    main.write_text("\n".join(lines) + "\n")
    return main


def established(port: int) -> int:
    """Open TCP connections to the local ``port`` (IPv4, from /proc/net/tcp)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            count += 1
    return count


def start_topology(stack: Stack, *, https_port: int, http_port: int) -> tuple[list[Proc], ssl.SSLContext]:
    """Two daphnes, the worker and beat from their units, and nginx in front."""
    daphnes = []
    for _ in range(2):
        port = free_port()
        daphnes.append(spawn(f"daphne-{port}", unit_command("tapete-daphne@.service", port=port), stack.env,
                             stack.run_dir / f"daphne-{port}.log", port))  # fmt: skip
    worker = spawn("worker", unit_command("tapete-worker.service"), stack.env, stack.run_dir / "worker.log")
    beat = spawn(
        "beat",
        unit_command("tapete-beat.service", state=stack.run_dir),
        stack.env,
        stack.run_dir / "beat.log",
    )
    stack.extra += [*daphnes, worker, beat]
    cert, key = certificate(stack.run_dir)
    config = nginx_config(
        stack.run_dir,
        https_port=https_port,
        http_port=http_port,
        daphnes=[d.port or 0 for d in daphnes],
        cert=cert,
        key=key,
    )
    argv = [
        NGINX,
        "-p",
        str(stack.run_dir),
        "-e",
        str(stack.run_dir / "nginx-error.log"),
        "-c",
        str(config),
        "-g",
        "daemon off;",
    ]
    nginx = spawn("nginx", argv, stack.env, stack.run_dir / "nginx.log")
    stack.extra.append(nginx)
    everyone = [*daphnes, worker, beat, nginx]
    wait_for(lambda: all(serving(d.port or 0) for d in daphnes), 90, "the daphnes", everyone)
    wait_for(lambda: " ready." in worker.tail(200_000), 90, "the worker", everyone)
    wait_for(lambda: "Starting..." in beat.tail(200_000), 60, "beat", everyone)
    wait_for(lambda: serving(https_port) and serving(http_port), 30, "nginx", everyone)
    return daphnes, ssl.create_default_context(cafile=str(cert))


def _login(base: str, tls: ssl.SSLContext, source: str, username: str, forged: str | None = None) -> int:
    """A failed log-in from the local address ``source`` (through nginx): its HTTP status."""
    client = WebClient(base, context=tls, source=source, headers={"Origin": base})
    client.fetch_csrf()
    headers = {"X-Forwarded-For": forged} if forged else {}
    return client.call(
        "POST", "/api/auth/login", {"username": username, "password": "wrong-one"}, headers=headers
    ).status


def test_nginx_in_front_of_two_daphnes_plays_over_wss_survives_a_killed_daphne_and_throttles_by_client() -> (
    None
):
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql" or not settings.REDIS_URL:
        missing_service("the topology needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    if not os.path.exists(NGINX):
        missing_service(f"nginx is not installed ({NGINX}; .ci/run installs Debian's)")
    https_port, http_port = free_port(), free_port()
    env = {
        **example_env(https_port),
        "TABLE_BOT_THINK_SECONDS": "0.05",
        "LOGIN_IP_FREE_FAILURES": "3",
        "LOGIN_DELAY_BASE_SECONDS": "120",
    }
    with live_stack(daphnes=0, worker=False, extra_env=env) as stack:
        daphnes, tls = start_topology(stack, https_port=https_port, http_port=http_port)
        base = f"https://127.0.0.1:{https_port}"

        # plain HTTP is sent to https
        plain = urllib.request.Request(f"http://127.0.0.1:{http_port}/liga/")
        with pytest.raises(urllib.error.HTTPError) as moved:
            urllib.request.build_opener(_NoRedirect).open(plain, timeout=10)
        assert moved.value.code == 301 and moved.value.headers["Location"].startswith("https://127.0.0.1")

        # given a person signed up over https (Secure cookies) and a game against bots started
        person = WebClient(base, context=tls, headers={"Origin": base})
        person.sign_up("nginx_ana")
        assert all(cookie.secure for cookie in person.jar)
        room = person.ok("POST", "/api/tables", {"game": "one_card", "mode": "bots", "bot_level": "easy"})
        person.ok("POST", f"/api/tables/{room['id']}/start", {})

        # when they play over wss:// through nginx, and the daphne holding the socket dies half-way
        stats = Stats()
        seat = SeatClient(path=f"/ws/tables/{room['id']}/", cookie=person.cookie_header, ports=[https_port],
                          stats=stats, seed=3, ssl=tls)  # fmt: skip
        killed: list[Proc] = []

        async def kill_the_sockets_daphne() -> None:
            while seat.version < 6 and not seat.over:
                await asyncio.sleep(0.02)
            holding = [d for d in daphnes if established(d.port or 0)]
            assert len(holding) == 1, [(d.port, established(d.port or 0)) for d in daphnes]
            stack.kill(holding[0], signal.SIGKILL)
            killed.append(holding[0])

        async def play() -> dict:
            killer = asyncio.create_task(kill_the_sockets_daphne())
            try:
                end = await seat.play(timeout=120)  # ~20 s typical
            except TimeoutError as stuck:  # what the seat saw and what the table holds
                seen = {k: (seat.envelope or {}).get(k) for k in ("status", "to_act", "legal", "timers")}
                audit = stack.django("audit", {"tables": [room["id"]]})
                raise AssertionError(f"{stuck}; pending {seat.pending}; {stats}; {seen}; {audit}") from None
            await killer
            return end

        end = asyncio.run(play())

        # then nginx took the reconnect to the other daphne and the game ended, whole and settled
        assert end["status"] == "finished", end
        assert killed and not killed[0].alive
        assert stats.reconnects >= 1, stats
        survivor = next(d for d in daphnes if d is not killed[0])
        assert survivor.alive and "GET /ws/tables/" in (stack.run_dir / "nginx-access.log").read_text()
        audit = wait_settled(stack, room["id"])
        assert_log_sound(audit)
        assert audit["sources"].get("bot", 0) > 0  # the worker moved the bots

        # and the log-in throttle keys on the client's address, not nginx's
        assert [_login(base, tls, "127.0.0.2", f"nadie{i}") for i in range(3)] == [400, 400, 400]
        assert _login(base, tls, "127.0.0.2", "nadie3") == 429  # 127.0.0.2 used up its failures
        assert _login(base, tls, "127.0.0.3", "nadie4") == 400  # another client is not throttled
        # what a client writes in X-Forwarded-For itself neither frames another nor frees itself
        assert _login(base, tls, "127.0.0.3", "nadie5", forged="127.0.0.2") == 400
        assert _login(base, tls, "127.0.0.2", "nadie6", forged="127.0.0.9") == 429

        # and a body over the limit never reaches a daphne
        big = person.call("POST", "/api/auth/login", {"username": "x" * (2 * 1024 * 1024)})
        assert big.status == 413


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None
