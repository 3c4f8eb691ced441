"""Faults on the live stack (issue 13, "Proofs that stay in the suite: Faults"): real processes,
real kills, and afterwards nothing lost, nothing doubled, every timer fired once, the books
balanced and every table finished.

One stack for the module (bench/live_harness.py's: a database of its own, 2 daphnes), with the
Celery worker and beat as separate processes and a redis-server of this module's own
(tests/services/faults_stack.py), so each can be broken alone:

- live games (four people over two daphnes, a person against three bots, a person against a
  bot with the 30 s turn clock, PF-4) while beat, a daphne and the worker are SIGKILLed in
  turn; the person's lapsed turn falls due while beat is dead and is timed out once, after
  beat is back (the sweeper is the only one to wake a 30 s deadline);
- the worker SIGKILLed inside a buy-in table's cancellation (PF-52), after the first refund
  was posted in its open transaction; the unacknowledged task is redelivered to the next
  worker: every entry refunded exactly once;
- in two other games (two people on two daphnes, a person against bots), Redis crashed (SIGKILL,
  restarted empty: broker messages and channel groups lost), then every PostgreSQL connection
  of the stack's database dropped (``pg_terminate_backend``), twice. The daphnes and beat ride
  the Redis crash out; the Celery worker does not: when the broker goes away while it holds
  an unacknowledged task (a countdown, nearly always), kombu 5.7.0 with redis-py 8.1 fails in
  ``Channel.close`` → ``restore_unacked`` (``AttributeError: 'NoneType' object has no attribute
  'hostname'``) and the worker exits. The test then does what a process supervisor does and
  starts a new one, as ``bin/run``'s supervisor does (tests/services/test_bin_run.py).

After each: the log is one row per version and replays to the state; every acknowledged move
is in it once and nothing else of the people's; no timer id fired twice; each table is
settled once; the ledger audit (``economy.audit.audit_ledger``) is clean.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from bench.live_harness import Proc, Session, Stack, Stats, live_stack, sessions_from
from tests.conftest import missing_service
from tests.services.faults_stack import (
    MODULE,
    VISIBILITY_SECONDS,
    PrivateRedis,
    TracingClient,
    sigkill,
    start_beat,
    start_worker,
    wait_for,
)
from tests.services.live_checks import assert_log_sound

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]
#: error frames a client may get while a process dies under it or a frame races another seat's
TOLERATED = {"stale", "duplicate", "rate_limited", "not_playing", "server_error"}


@dataclass
class Faults:
    stack: Stack
    redis: PrivateRedis
    worker: Proc
    beat: Proc

    def django(self, command: str, request: Any = None) -> Any:
        return self.stack.django(command, request, module=MODULE)

    def all_procs(self) -> list[Proc]:
        return self.stack.processes()


@pytest.fixture(scope="module")
def faults() -> Iterator[Faults]:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing_service("DATABASE_URL does not point at PostgreSQL")
    if not settings.REDIS_URL or not shutil.which("redis-server"):
        missing_service("REDIS_URL is not set or redis-server is not installed")
    redis = PrivateRedis(Path(tempfile.mkdtemp(prefix="tapete-faults-redis-")))
    redis.start()
    try:
        # bots think 0.1 s instead of 1 s so that the games fit the module's time
        with live_stack(
            daphnes=2, worker=False, redis_url=redis.url, extra_env={"TABLE_BOT_THINK_SECONDS": "0.1"}
        ) as stack:
            yield Faults(stack, redis, worker=start_worker(stack), beat=start_beat(stack))
    finally:
        redis.stop()


# -- games --------------------------------------------------------------------------------------
@dataclass
class Game:
    table_id: int
    clients: list[TracingClient]

    @property
    def version(self) -> int:
        return max(c.version for c in self.clients)

    @property
    def over(self) -> bool:
        return any(c.over for c in self.clients)


def _client(table_id: int, user: Session, ports: list[int], stats: Stats, **kw: Any) -> Any:
    return TracingClient(path=f"/ws/tables/{table_id}/", cookie=user.cookie, ports=ports, stats=stats, **kw)


def people_game(faults: Faults, prefix: str, stats: Stats, players: int = 4, think: float = 0.1) -> Game:
    """People in a friends room of One Card, the first half of the seats on daphne A, the rest on B;
    each thinks ``think`` seconds (± 0.05) before a move."""
    stack = faults.stack
    host, *guests = sessions_from(stack.django("users", {"prefix": prefix, "count": players}))
    room = host.api(
        stack.http(0), "POST", "/api/tables", {"game": "one_card", "mode": "friends", "players": players}
    )
    for user in guests:
        user.api(stack.http(1), "POST", f"/api/tables/{room['id']}/join", {"code": room["code"]})
    host.api(stack.http(0), "POST", f"/api/tables/{room['id']}/start", {})
    a, b = stack.ports
    clients = [
        _client(
            room["id"],
            user,
            [a, b] if seat < players // 2 else [b, a],
            stats,
            think=think,
            jitter=0.05,
            seed=seat,
        )
        for seat, user in enumerate([host, *guests])
    ]
    return Game(room["id"], clients)


def bot_game(
    faults: Faults, prefix: str, stats: Stats, *, players: int = 4, skip_first: bool = False
) -> Game:
    """A person against bots (their moves from the worker). With ``skip_first`` the room is a
    friends room with the 30 s turn clock and the person lets their first turn lapse."""
    stack = faults.stack
    (person,) = sessions_from(stack.django("users", {"prefix": prefix, "count": 1}))
    http = stack.http(1)
    if skip_first:
        room = person.api(
            http, "POST", "/api/tables", {"game": "one_card", "mode": "friends", "players": players}
        )
        for _ in range(players - 1):
            person.api(http, "POST", f"/api/tables/{room['id']}/bots", {"level": "easy"})
    else:
        room = person.api(
            http, "POST", "/api/tables", {"game": "one_card", "mode": "bots", "bot_level": "easy"}
        )
    person.api(http, "POST", f"/api/tables/{room['id']}/start", {})
    skip = (lambda c: c.turns == 1) if skip_first else None
    ports = list(reversed(stack.ports))
    return Game(room["id"], [_client(room["id"], person, ports, stats, think=0.1, seed=prefix, skip=skip)])


async def until(condition: Callable[[], bool], seconds: float, what: str, *, fail: bool = True) -> None:
    """Poll ``condition`` on the event loop; past ``seconds`` fail (or, with ``fail=False``, return)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            if fail:
                raise AssertionError(f"timed out after {seconds} s waiting for {what}")
            return
        await asyncio.sleep(0.05)


def play(games: list[Game], chaos: Callable[[], Awaitable[None]], timeout: float = 150) -> list[dict]:
    """Every client plays to the end while ``chaos`` breaks things; the last envelopes."""

    async def run() -> list[dict]:
        breaking = asyncio.create_task(chaos())
        ends = await asyncio.gather(*(c.play(timeout=timeout) for g in games for c in g.clients))
        await breaking
        return list(ends)

    return asyncio.run(run())


def assert_recovered(faults: Faults, games: list[Game], ends: list[dict], stats: Stats) -> dict[int, Any]:
    """Every table finished and settled once, its log sound; every acknowledged move logged once,
    no move logged that no client sent; no timer fired twice; the ledger balanced."""
    assert [end["status"] for end in ends] == ["finished"] * len(ends), ends
    unexpected = {code: n for code, n in stats.errors.items() if code not in TOLERATED}
    assert not unexpected, stats.errors
    request = {"tables": [g.table_id for g in games]}
    deadline = time.monotonic() + 60  # settlement runs after the last move, from the worker
    while True:
        report = faults.django("recovery", request)
        if all(t["settled"] for t in report["tables"]) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    tables = {t["id"]: t for t in report["tables"]}
    for game in games:
        audit = tables[game.table_id]
        assert audit["status"] == "finished", audit
        assert_log_sound(audit)
        logged = audit["player_ids"]
        assert len(logged) == len(set(logged)), "a person's move was applied twice"
        acked = set().union(*(c.acked_ids for c in game.clients))
        sent = set().union(*(c.sent_ids for c in game.clients))
        assert acked <= set(logged), "an acknowledged move is missing from the log"
        assert set(logged) <= sent, "the log holds a move nobody sent"
        timers = [timer for timer, _at in audit["timeouts"]]
        assert len(timers) == len(set(timers)), f"a timer fired twice: {timers}"
    assert report["ledger_ok"], report["problems"]
    return tables


def terminate_backends(stack: Stack) -> int:
    """Drop every PostgreSQL connection to the stack's database (what a failover or an admin does)."""
    import psycopg

    name = stack.database_url.rsplit("/", 1)[1]
    admin = stack.database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchall()
    return len(rows)


def terminate_open_backends(stack: Stack, seconds: float = 10) -> int:
    """``terminate_backends`` as soon as there is a connection to drop: Django closes a request's
    or a task's connection at its end (CONN_MAX_AGE 0), so at a given instant there may be none."""
    deadline = time.monotonic() + seconds
    while not (dropped := terminate_backends(stack)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return dropped


# -- the proofs -----------------------------------------------------------------------------------
def test_live_games_survive_sigkill_of_beat_a_daphne_and_the_worker(faults: Faults) -> None:
    stack, stats = faults.stack, Stats()
    # given four people on two daphnes, a person against three bots, and a person against one bot
    # on the 30 s clock who lets their first turn lapse (PF-4)
    people = people_game(faults, "fk_p", stats)
    bots = bot_game(faults, "fk_b", stats)
    clocked = bot_game(faults, "fk_c", stats, players=2, skip_first=True)
    lapse: dict[str, Any] = {}

    async def chaos() -> None:
        (person,) = clocked.clients
        await until(lambda: person.skipping and people.version >= 0, 60, "the clocked person's first turn")
        timer = next(t for t in person.envelope["timers"] if t["name"] == "turn" and t["seat"] == person.seat)
        lapse.update(timer=timer["id"], deadline=timer["deadline"] / 1000)
        # when beat dies (kill -9) before that turn's deadline ...
        assert time.time() < lapse["deadline"] - 5, (
            "the first turn came too late to kill beat before it lapsed"
        )
        await asyncio.to_thread(sigkill, stack, faults.beat)
        # ... a daphne dies in the middle of the people's game; a new one takes its place ...
        start = people.version
        await until(lambda: people.version >= start + 6, 60, "the people's game to get under way")
        assert not people.over
        await asyncio.to_thread(sigkill, stack, stack.daphnes[0])
        replacement = asyncio.create_task(asyncio.to_thread(stack.start_daphne))
        # ... then the worker dies, in the middle of the bots' moves, and a new one is started
        start, bots_start = people.version, bots.version
        await until(lambda: people.version >= start + 3 or people.over, 60, "the people to move on daphne B")
        await until(lambda: bots.version >= bots_start + 3, 60, "the bots to move")
        assert not bots.over
        await asyncio.to_thread(sigkill, stack, faults.worker)
        # the outage lasts as long as a new worker takes to start: nobody moves the bots meanwhile
        faults.worker = await asyncio.to_thread(start_worker, stack)
        stack.daphnes[0] = await replacement
        # and beat stays dead until the person's deadline has passed: nothing timed them out
        await until(lambda: time.time() > lapse["deadline"] + 1.5, 60, "the lapsed turn's deadline")
        (row,) = await asyncio.to_thread(faults.django, "log_ids", {"tables": [clocked.table_id]})
        assert lapse["timer"] not in [timer for timer, _ in row["timeouts"]], "timed out with beat dead"
        lapse["beat_back"] = time.time()
        faults.beat = await asyncio.to_thread(start_beat, stack)

    ends = play([people, bots, clocked], chaos)

    # then every game finished, nothing lost or doubled, every timer fired once, the books balanced
    tables = assert_recovered(faults, [people, bots, clocked], ends, stats)
    assert stats.reconnects >= 2, stats  # daphne A's two people moved over
    fired = [at for timer, at in tables[clocked.table_id]["timeouts"] if timer == lapse["timer"]]
    assert len(fired) == 1, tables[clocked.table_id]
    assert fired[0] >= lapse["beat_back"] - 0.5, "the lapsed turn was timed out while beat was dead"
    assert tables[bots.table_id]["sources"].get("bot", 0) > 0


def test_a_worker_killed_inside_a_buy_in_refund_and_the_redelivered_task_refund_once(
    faults: Faults, tmp_path: Path
) -> None:
    stack = faults.stack
    marker = tmp_path / "paused"
    # given a worker that stops inside the refund transaction of a cancellation, after the
    # first entry went back (the economy's failure-injection checkpoint) ...
    sigkill(stack, faults.worker)
    faults.worker = start_worker(stack, pause_at="cancel_pot.after_refund", marker=marker)
    # ... and a buy-in table, 2 of 3 seated at 100 coins, whose 120 s passed (PF-52)
    made = faults.django(
        "buyin_table", {"prefix": "fk_r", "seated": 2, "players": 3, "stake": 100, "ago": 125}
    )
    pot, users = made["pot"], made["users"]
    # when the sweeper or the deadline task starts the cancellation and the worker is killed there
    wait_for(marker.exists, 60, "the worker to pause mid-refund", faults.all_procs())
    paused = json.loads(marker.read_text())
    money = faults.django("money", {"pot": pot, "users": users})
    assert (money["pot_status"], money["refunded"], money["coins"]) == ("open", [], [900, 900])
    sigkill(stack, faults.worker)
    money = faults.django("money", {"pot": pot, "users": users})
    assert (money["pot_status"], money["refunded"], money["coins"]) == ("open", [], [900, 900])
    # then the next worker finishes it (the sweeper, or the killed task redelivered) ...
    faults.worker = start_worker(stack)
    wait_for(
        lambda: faults.django("money", {"pot": pot, "users": users})["pot_status"] == "cancelled",
        90,
        "the cancellation to be finished",
        faults.all_procs(),
    )
    # ... the killed task is redelivered (acks_late, the broker's visibility timeout) and finds it done
    wait_for(
        lambda: f"[{paused['task']}] received" in faults.worker.tail(2_000_000),
        VISIBILITY_SECONDS + 60,
        f"task {paused['task']} to be redelivered",
        [faults.worker],
    )
    wait_for(
        lambda: f"[{paused['task']}] succeeded" in faults.worker.tail(2_000_000),
        60,
        f"the redelivered task {paused['task']} to finish",
        [faults.worker],
    )
    # and every entry was refunded exactly once; the books balance
    money = faults.django("money", {"pot": pot, "users": users})
    assert money["refunded"] == sorted(users)
    assert money["coins"] == [1000, 1000]
    assert money["audit_ok"], money["problems"]


def test_live_games_survive_redis_crashing_and_their_database_connections_dropped(
    faults: Faults,
) -> None:
    stats = Stats()
    # (the people think 0.3 s: their game must outlast the breakage, whose steps wait for moves)
    people = people_game(faults, "fk_rp", stats, think=0.3)
    bots = bot_game(faults, "fk_rb", stats)
    games = [people, bots]
    dropped: list[int] = []
    worker_exits: list[int | None] = []

    async def under_way(moves: int, what: str) -> None:
        start = [g.version for g in games]
        await until(
            lambda: all(g.version >= v + moves or g.over for g, v in zip(games, start, strict=True)), 90, what
        )
        assert not all(g.over for g in games), f"both games ended before {what}"

    async def chaos() -> None:
        await until(lambda: people.version >= 0 and bots.version >= 0, 60, "the games to start")
        await under_way(4, "Redis crashing")
        # when Redis dies (kill -9) and comes back empty: queued tasks and channel groups are gone
        await asyncio.to_thread(faults.redis.crash_and_restart)
        # a supervisor's part: the worker exits when the broker goes away while it holds an
        # unacknowledged task (kombu 5.7's AttributeError in Channel.close, see the docstring)
        await until(lambda: not faults.worker.alive, 10, "the worker to exit", fail=False)
        if not faults.worker.alive:
            worker_exits.append(faults.worker.popen.returncode)
            faults.worker = await asyncio.to_thread(start_worker, faults.stack)
        for n in range(2):
            await under_way(3, f"dropping the database connections ({n + 1})")
            # ... and every connection of the daphnes, the worker and beat is terminated, twice
            dropped.append(await asyncio.to_thread(terminate_open_backends, faults.stack))

    ends = play(games, chaos)

    # then both games finished, nothing lost or doubled, every timer fired once, the books balanced
    assert all(n > 0 for n in dropped), dropped
    assert_recovered(faults, games, ends, stats)
    # the daphnes and beat rode it out; only the worker may have needed its supervisor
    assert faults.beat.alive and all(d.alive for d in faults.stack.daphnes)
    assert len(worker_exits) <= 1, worker_exits
