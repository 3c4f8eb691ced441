"""A live Tapete stack in subprocesses, and scripted socket clients: shared by the multi-process
test (tests/services/test_multiprocess_tables.py) and the load generator (bench/tables.py).

``live_stack()`` creates a PostgreSQL database of its own (``tapete_mp_<random>``, migrated,
dropped at the end) and takes an empty Redis database number (flushed before and after), then
starts daphne processes and one Celery worker with beat (``-B``), all with
``TABLE_RUNNER=celery``. Nothing here uses pytest-django's test database: the subprocesses
must see committed rows.

Django work that needs the stack's database (users and their sessions, rooms, the audit of
finished tables) runs in a subprocess too: ``python -m bench.live_harness <command>`` reads a
JSON request on stdin and prints a JSON answer (``Stack.django``).

``SeatClient`` is one seat's websocket: it plays legal moves from its own snapshot
(``{"type": "action", "action", "action_id", "version"}``), measures the time from an action
to its own updated view (the ack and the snapshot after it), counts version jumps, heartbeat
resyncs and error frames, and reconnects to the next daphne when its socket dies, resending
the unacknowledged action under the same ``action_id`` (the service deduplicates it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import ssl as ssl_module
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cardgames.tables import legal_wire

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/tapete"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
#: Redis database numbers a stack may take (0 is the site's and the test suite's)
REDIS_DBS = range(6, 16)
HEARTBEAT_SECONDS = 2.0
#: the stack's Celery worker: prefork ×2, none of the chatter between workers
WORKER_OPTIONS = (
    "-l",
    "info",
    "--concurrency",
    "2",
    "--without-gossip",
    "--without-mingle",
    "--without-heartbeat",
)


# -- processes ------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def create_database(database_url: str) -> str:
    """A new empty database beside ``database_url``'s: its URL."""
    import psycopg

    name = f"tapete_mp_{secrets.token_hex(4)}"
    with psycopg.connect(_with_path(database_url, "/postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_path(database_url, f"/{name}")


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    assert name.startswith("tapete_mp_"), name
    with psycopg.connect(_with_path(url, "/postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def take_redis_db(redis_url: str) -> str:
    """An empty Redis database number (flushed), as a URL; the site's own db is never taken."""
    import redis

    numbers = list(REDIS_DBS)
    random.shuffle(numbers)
    for number in numbers:
        url = _with_path(redis_url, f"/{number}")
        client = redis.Redis.from_url(url)
        if client.dbsize() == 0:
            client.flushdb()
            return url
    raise RuntimeError(f"no empty Redis database among {REDIS_DBS.start}–{REDIS_DBS.stop - 1}: all in use")


def flush_redis(url: str) -> None:
    import redis

    with contextlib.suppress(Exception):
        redis.Redis.from_url(url).flushdb()


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its children (kB, from /proc)."""
    total = 0
    pids = [pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    for p in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its children so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    port: int | None = None

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def tail(self, chars: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-chars:]
        return ""


@dataclass
class Stack:
    """The running processes and where their database and Redis are."""

    database_url: str
    redis_url: str
    run_dir: Path
    env: dict[str, str]
    daphnes: list[Proc] = field(default_factory=list)
    worker: Proc | None = None
    extra: list[Proc] = field(default_factory=list)
    started: int = 0

    @property
    def ports(self) -> list[int]:
        return [p.port for p in self.daphnes if p.port is not None]

    def http(self, index: int = 0) -> str:
        return f"http://127.0.0.1:{self.daphnes[index].port}"

    def django(
        self, command: str, request: Any = None, *, timeout: float = 300, module: str = "bench.live_harness"
    ) -> Any:
        """Run ``python -m <module> <command>`` (this module's commands, or a module adding its
        own to ``COMMANDS``) against this stack's database."""
        done = subprocess.run(
            [PY, "-m", module, command],
            input=json.dumps(request).encode(),
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command} failed:\n{done.stderr.decode()[-4000:]}")
        return json.loads(done.stdout.decode().strip().splitlines()[-1])

    def start_daphne(self, *, asgi: str = "config.asgi:application") -> Proc:
        port = free_port()
        self.started += 1
        index = self.started
        log = self.run_dir / f"daphne-{index}.log"
        popen = subprocess.Popen(
            [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "--proxy-headers", asgi],
            env=self.env,
            cwd=ROOT,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc = Proc(f"daphne-{index}", popen, log, port)
        _wait_http(proc)
        return proc

    def start_worker(self) -> Proc:
        log = self.run_dir / "celery.log"
        popen = subprocess.Popen(
            [
                PY,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-B",
                *WORKER_OPTIONS,
                "-n",
                f"mp{secrets.token_hex(3)}@%h",
                "-s",
                str(self.run_dir / "celerybeat-schedule"),
            ],
            env=self.env,
            cwd=ROOT,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc = Proc("celery", popen, log)
        deadline = time.monotonic() + 60
        while " ready." not in proc.tail(200_000):
            if not proc.alive or time.monotonic() > deadline:
                raise RuntimeError(f"celery did not start:\n{proc.tail()}")
            time.sleep(0.1)
        return proc

    def kill(self, proc: Proc, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.popen.pid, sig)

    def stop_daphnes(self) -> None:
        for proc in self.daphnes:
            self.kill(proc, signal.SIGTERM)
        for proc in self.daphnes:
            try:
                proc.popen.wait(timeout=8)
            except subprocess.TimeoutExpired:
                self.kill(proc)
                proc.popen.wait(timeout=5)
        self.daphnes = []

    def processes(self) -> list[Proc]:
        return [*self.daphnes, *([self.worker] if self.worker else []), *self.extra]

    def rss_kb(self) -> dict[str, int]:
        return {p.name: rss_kb(p.popen.pid) for p in self.processes() if p.alive}

    def postgres_pids(self) -> list[int]:
        """The PostgreSQL backends serving this stack's database (named in their process title)."""
        name = urlsplit(self.database_url).path.lstrip("/").encode()
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if name in (entry / "cmdline").read_bytes():
                        pids.append(int(entry.name))
        return pids

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds so far of each process, and of the PostgreSQL backends of this database."""
        out = {p.name: cpu_seconds(p.popen.pid) for p in self.processes() if p.alive}
        for pid in self.postgres_pids():  # one key a backend: they come and go between samples
            out[f"postgres:{pid}"] = cpu_seconds(pid)
        return out

    def stop(self) -> None:
        procs = self.processes()
        for proc in procs:
            if proc.alive:
                self.kill(proc, signal.SIGTERM)
        deadline = time.monotonic() + 8
        for proc in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            if proc.alive:
                self.kill(proc, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.popen.wait(timeout=5)


def _wait_http(proc: Proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", proc.port or 0), timeout=1):
                return
        except OSError:
            if not proc.alive or time.monotonic() > deadline:
                raise RuntimeError(f"{proc.name} did not start:\n{proc.tail()}") from None
            time.sleep(0.1)


@contextlib.contextmanager
def live_stack(
    *,
    daphnes: int = 2,
    worker: bool = True,
    database_url: str | None = None,
    redis_url: str | None = None,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Stack]:
    """A fresh database and Redis db, ``daphnes`` daphne processes and a Celery worker with beat.

    Every process is killed and the database dropped on the way out, whatever happened.
    """
    database_url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = redis_url or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    run_dir = Path(tempfile.mkdtemp(prefix="tapete-live-"))
    db_url = create_database(database_url)
    stack: Stack | None = None
    redis_db = ""
    try:
        redis_db = take_redis_db(redis_url)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTEST_", "DJANGO_")) and k not in {"COV_CORE_SOURCE"}
        }
        env.update(
            DATABASE_URL=db_url,
            REDIS_URL=redis_db,
            TABLE_RUNNER="celery",
            TAPETE_RUN_DIR=str(run_dir),
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="0",  # production-like: no query log growing in memory
            SECRET_KEY=secrets.token_urlsafe(50),
            HTTPS="false",  # plain HTTP on 127.0.0.1, as bin/run serves it
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
            # issue 26's bounds per host, address and session are for the public site: every
            # simulated player of a benchmark comes from 127.0.0.1 (a test of a bound sets its own)
            TABLES_MAX_LIVE_ROOMS="50",
            TABLES_MAX_LIVE_ROOMS_PER_ADDRESS="100000",
            GUESTS_MAX_PER_ADDRESS="100000",
            SOCKETS_MAX_PER_SESSION="100000",
            SOCKETS_MAX_PER_ADDRESS="100000",
        )
        env.update(extra_env or {})
        subprocess.run(
            [PY, "manage.py", "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True, timeout=300
        )
        stack = Stack(db_url, redis_db, run_dir, env)
        for _ in range(daphnes):
            stack.daphnes.append(stack.start_daphne())
        if worker:
            stack.worker = stack.start_worker()
        yield stack
    finally:
        if stack is not None:
            stack.stop()
        if redis_db:
            flush_redis(redis_db)
        with contextlib.suppress(Exception):
            drop_database(db_url)


# -- HTTP with a session ----------------------------------------------------------------------
@dataclass(frozen=True)
class Session:
    """A signed-in user's cookies (made in the stack's database by the ``users`` command)."""

    user_id: int
    username: str
    sessionid: str
    csrftoken: str

    @property
    def cookie(self) -> str:
        return f"sessionid={self.sessionid}; csrftoken={self.csrftoken}"

    def api(self, base: str, method: str, path: str, body: Any = None, timeout: float = 15) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, method=method)
        request.add_header("Cookie", self.cookie)
        request.add_header("X-CSRFToken", self.csrftoken)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw else None


def sessions_from(rows: list[dict[str, Any]]) -> list[Session]:
    return [Session(r["id"], r["username"], r["sessionid"], r["csrftoken"]) for r in rows]


# -- the scripted socket client -----------------------------------------------------------------
@dataclass
class Stats:
    """What the clients saw, summed over seats."""

    latencies: list[float] = field(default_factory=list)  # action → own updated view, seconds
    samples: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency), monotonic
    acked: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    jumps: int = 0  # a pushed snapshot more than one version ahead (coalesced or lost pushes)
    resyncs: int = 0  # a heartbeat found the client behind: a push never arrived
    reconnects: int = 0
    snapshots: int = 0
    resent: int = 0  # unacknowledged actions sent again after a reconnect

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.samples += other.samples
        self.acked += other.acked
        self.errors.update(other.errors)
        for name in ("jumps", "resyncs", "reconnects", "snapshots", "resent"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def pick_action(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal move, preferring anything over drawing or passing (games end sooner)."""
    plays = [a for a in legal if a.get("type") not in {"draw", "pass"}]
    return dict(rng.choice(plays or legal))


class _Deadline(Exception):
    """The client's time is up (not a socket error: no reconnect)."""


@dataclass
class Pending:
    action_id: str
    frame: dict[str, Any]
    sent_at: float
    acked_version: int | None = None


class SeatClient:
    """One seat's socket, playing legal moves from its own snapshots until the table is over.

    ``ports``: the daphne processes to use, the first one first; on a dead socket the client
    moves to the next. ``think``: seconds between seeing its turn and acting (± ``jitter``).
    ``skip``: a predicate on (client) — True means let this turn pass (a timeout).
    ``ssl``: a TLS context for wss:// (a TLS proxy in front of the daphnes), else plain ws://.
    """

    def __init__(
        self,
        *,
        path: str,
        cookie: str,
        ports: list[int],
        stats: Stats | None = None,
        think: float = 0.0,
        jitter: float = 0.0,
        seed: Any = None,
        skip: Callable[[SeatClient], bool] | None = None,
        heartbeat: float = HEARTBEAT_SECONDS,
        ssl: ssl_module.SSLContext | None = None,
    ) -> None:
        self.path, self.cookie, self.ports = path, cookie, list(ports)
        self.ssl = ssl
        self.stats = stats or Stats()
        self.think, self.jitter, self.heartbeat = think, jitter, heartbeat
        self.rng = random.Random(seed)
        self.skip = skip
        self.port_index = 0
        self.version = -1
        self.envelope: dict[str, Any] | None = None
        self.pending: Pending | None = None
        self.due: float | None = None
        self.turns = 0
        self.skipping = False
        self.sync_out = False
        self.caught_up = False
        self.connected_to: int | None = None
        self.sent = 0

    @property
    def seat(self) -> int | None:
        return self.envelope["you"]["seat"] if self.envelope else None

    @property
    def over(self) -> bool:
        return bool(self.envelope) and self.envelope["status"] in ("finished", "closed")

    async def play(self, *, timeout: float) -> dict[str, Any]:
        """Play until the table is over; returns the last envelope."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, WebSocketException

        deadline = time.monotonic() + timeout
        failures = 0
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.path}: seat {self.seat} not over at version {self.version}")
            port = self.ports[self.port_index]
            try:
                async with connect(
                    f"{'wss' if self.ssl else 'ws'}://127.0.0.1:{port}{self.path}",
                    additional_headers={"Cookie": self.cookie},
                    origin=f"{'https' if self.ssl else 'http'}://127.0.0.1:{port}",  # type: ignore[arg-type]
                    ssl=self.ssl,
                    open_timeout=5,
                    ping_interval=None,
                    close_timeout=1,
                    max_size=None,
                ) as ws:
                    self.connected_to = port
                    failures = 0
                    if await self._session(ws, deadline):
                        assert self.envelope is not None
                        return self.envelope
            except _Deadline:
                where = f"{self.path}: seat {self.seat} at version {self.version}"
                raise TimeoutError(f"{where}: the table is not over") from None
            except (OSError, TimeoutError, InvalidHandshake, WebSocketException):
                pass
            self.connected_to = None
            self.stats.reconnects += 1
            failures += 1
            self.port_index = (self.port_index + 1) % len(self.ports)
            await asyncio.sleep(min(1.0, 0.05 * failures))

    async def _session(self, ws: Any, deadline: float) -> bool:
        """One connection's frames; True when the table is over."""
        first = True
        heard = time.monotonic()
        self.sync_out = False
        while True:
            now = time.monotonic()
            waits = [heard + self.heartbeat - now, deadline - now]
            if self.due is not None:
                waits.append(self.due - now)
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.0005, min(waits)))
            except TimeoutError:
                now = time.monotonic()
                if now > deadline:
                    raise _Deadline from None
                if self.due is not None and now >= self.due:
                    await self._act(ws)
                elif now - heard >= self.heartbeat:
                    self.sync_out = True
                    heard = now
                    await ws.send(json.dumps({"type": "sync", "version": max(self.version, 0)}))
                continue
            heard = time.monotonic()
            frame = json.loads(raw)
            kind = frame.get("type")
            answered = self.caught_up  # the frame before a pong answers the heartbeat
            self.caught_up = False
            if kind == "snapshot":
                self.caught_up = self.sync_out and frame["version"] > self.version
                self._on_snapshot(frame, heard)
                if first:
                    first = False
                    if self.pending is not None:  # the socket died before its answer: send it again
                        self.stats.resent += 1
                        self.pending.acked_version = None
                        await ws.send(json.dumps(self.pending.frame))
                if self.over and self.pending is None:
                    return True
            elif kind == "ack":
                self._on_ack(frame, heard)
            elif kind == "error":
                self._on_error(frame)
                if frame.get("code") in {"no_such_table", "identity_required", "guests_not_allowed"}:
                    raise RuntimeError(f"{self.path}: refused: {frame}")
            elif kind == "pong":
                if answered:  # the heartbeat found this client behind: a push never came
                    self.stats.resyncs += 1
                self.sync_out = False

    def _on_snapshot(self, frame: dict[str, Any], at: float) -> None:
        version = frame["version"]
        self.stats.snapshots += 1
        if version < self.version:
            return
        if self.version >= 0 and version > self.version + 1:
            self.stats.jumps += 1
        self.version = version
        self.envelope = frame["table"]
        pending = self.pending
        if pending is not None and pending.acked_version is not None and version >= pending.acked_version:
            self._record(pending, at)
        self._plan(at)

    def _on_ack(self, frame: dict[str, Any], at: float) -> None:
        pending = self.pending
        if pending is None or frame.get("action_id") != pending.action_id:
            return
        self.stats.acked += 1
        pending.acked_version = frame["version"]
        if self.version >= frame["version"]:
            self._record(pending, at)

    def _record(self, pending: Pending, at: float) -> None:
        self.stats.latencies.append(at - pending.sent_at)
        self.stats.samples.append((pending.sent_at, at - pending.sent_at))
        self.pending = None

    def _on_error(self, frame: dict[str, Any]) -> None:
        self.stats.errors[frame.get("code", "?")] += 1
        if self.pending is not None and frame.get("action_id") == self.pending.action_id:
            self.pending = None
            self.due = None
            # "stale" is followed by a fresh snapshot; anything else: look again shortly
            if frame.get("code") != "stale" and self.envelope is not None:
                self._plan(time.monotonic(), delay=0.2)

    def my_turn(self) -> bool:
        env = self.envelope
        return (
            bool(env)
            and env["status"] == "playing"
            and env["you"]["seat"] in env["to_act"]
            and bool(env["legal"] or env.get("plays"))
        )

    def _plan(self, now: float, delay: float | None = None) -> None:
        if self.pending is not None:
            return
        if not self.my_turn():
            self.due = None
            self.skipping = False
            return
        if self.skipping:
            return
        if self.due is None:
            self.turns += 1
            if self.skip is not None and self.skip(self):
                self.skipping = True  # let this turn lapse
                return
            pause = self.think if delay is None else delay
            if self.jitter:
                pause = max(0.0, pause + self.rng.uniform(-self.jitter, self.jitter))
            self.due = now + pause

    async def _act(self, ws: Any) -> None:
        self.due = None
        if self.pending is not None or not self.my_turn():
            return
        assert self.envelope is not None
        action = pick_action(legal_wire.actions(self.envelope), self.rng)
        action_id = uuid.uuid4().hex[:16]
        frame = {"type": "action", "action": action, "action_id": action_id, "version": self.version}
        self.pending = Pending(action_id, frame, time.monotonic())
        self.sent += 1
        await ws.send(json.dumps(frame))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# -- Django-side commands (run inside the stack's environment) -----------------------------------
def _cmd_users(request: dict[str, Any]) -> list[dict[str, Any]]:
    """``{"prefix", "count"}``: signed-in users with a session and a CSRF cookie each."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    rows = []
    for i in range(int(request["count"])):
        user = get_user_model().objects.create_user(username=f"{request['prefix']}{i}", password=None)
        client = Client()
        client.force_login(user)
        client.get("/api/auth/csrf")
        rows.append(
            {
                "id": user.pk,
                "username": user.username,
                "sessionid": client.cookies["sessionid"].value,
                "csrftoken": client.cookies["csrftoken"].value,
            }
        )
    return rows


def _cmd_rooms(request: dict[str, Any]) -> list[dict[str, Any]]:
    """``{"groups": [[user ids]], "per_group", "game"}``: waiting friends rooms, every seat taken.
    With ``"bots": level`` and ``"players"``: bots rooms of each group's one user and bots of that
    level in the other seats (PF-13)."""
    from django.contrib.auth import get_user_model

    from accounts.identity import player_for_user
    from cardgames.tables import services

    users = get_user_model().objects.in_bulk([i for group in request["groups"] for i in group])
    out = []
    for group in request["groups"]:
        players = [player_for_user(users[i]) for i in group]
        tables = []
        for _ in range(int(request.get("per_group", 1))):
            if request.get("bots"):
                table = services.create_room(
                    player=players[0],
                    game=request.get("game", "one_card"),
                    mode="bots",
                    players=int(request["players"]),
                    bot_level=request["bots"],
                )
                tables.append(table.pk)
                continue
            table = services.create_room(
                player=players[0], game=request.get("game", "one_card"), mode="friends", players=len(players)
            )
            for player in players[1:]:
                services.join_room(table_id=table.pk, code=table.code, player=player)
            tables.append(table.pk)
        out.append({"users": group, "tables": tables})
    return out


def _cmd_audit(request: dict[str, Any]) -> list[dict[str, Any]]:
    """``{"tables": [ids]}``: per table, its log, the replay check and the settlement."""
    from cardgames.tables import selectors
    from cardgames.tables.models import ActionLog, GameResult, Table

    out = []
    for table in Table.objects.filter(pk__in=request["tables"]).order_by("pk"):
        seqs = list(ActionLog.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
        sources = Counter(ActionLog.objects.filter(table=table).values_list("source", flat=True))
        timers = list(
            ActionLog.objects.filter(table=table, source="timeout").values_list("timer_id", flat=True)
        )
        verified = None
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            verified = selectors.verify_table(table=table)
        first_version = table.version - len(seqs)
        out.append(
            {
                "id": table.pk,
                "status": table.status,
                "version": table.version,
                "seqs": seqs,
                "first_seq_version": first_version,
                "sources": dict(sources),
                "timeouts": timers,
                "verify": verified,
                "game_results": GameResult.objects.filter(table=table).count(),
                "settled": table.settled_at is not None,
                "result": table.result,
            }
        )
    return out


def _cmd_close_all(request: Any) -> int:
    """Close every live room through the idle-room service, as if 5 hours had passed (PF-54)."""
    from datetime import timedelta

    from django.utils import timezone

    from cardgames.tables import services

    return services.close_idle_rooms(now=timezone.now() + timedelta(hours=5))


COMMANDS: dict[str, Callable[[Any], Any]] = {
    "users": _cmd_users,
    "rooms": _cmd_rooms,
    "audit": _cmd_audit,
    "close_all": _cmd_close_all,
}


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    command = sys.argv[1]
    request = json.loads(sys.stdin.read() or "null")
    print(json.dumps(COMMANDS[command](request)))


if __name__ == "__main__":
    main()
