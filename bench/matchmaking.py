"""Matchmaking throughput (issue 11): the pure wave, and the queue → seated path under Celery.

    .venv/bin/python -m bench.matchmaking pairing [--entries 10000] [--runs 7]
    .venv/bin/python -m bench.matchmaking celery [--players 3000] [--concurrency 2] [--buyin 0.3]
    .venv/bin/python -m bench.matchmaking            (both)

**pairing** — ``cardgames.matchmaking.pairing.plan_wave`` on 10,000 queued players spread over
the five games, their player counts and the five stakes (free and 100/250/500/1000), plus
200 open tables; best and median of ``--runs``. Target: a wave placed in ≤ 200 ms.

**celery** — the whole path on the real services: a fresh PostgreSQL database
(``tapete_bench_mm``, dropped and migrated first), a Redis db of its own (``--redis-db``, 12)
as broker and channel layer, and one Celery worker (``--concurrency`` prefork processes,
``MATCHMAKING_WAVE_SHARDS`` = the concurrency). The worker runs the waves only: the started
tables' countdown tasks (``TABLE_RUNNER=celery``) are left out unless ``--table-timers``, because
the bench's players never move, so from 30 s on every one of their turns would time out on the
same two processes — work that real players' moves (through daphne) do not cause. ``--players``
signed-in users (each with the welcome grant) queue through ``join_queue`` across games,
player counts and stakes (``--buyin`` of them at a buy-in table); then the wave tasks are sent
(one per shard, as a join's kick does) and the clock runs until every entry is seated: tables
formed per second = tables opened / (last seat's commit time − the moment the tasks were sent).
Every table that fills starts (dealt, buy-in pots started); the partial leftovers sit with their
fill clock. The ledger audit must be clean at the end. Target: ≥ 50 tables formed per second.

The machine's load is printed: run it when the machine is otherwise idle.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"one_card": (2, 4), "pika": (2, 4), "puteo": (2, 8), "skyjo": (2, 4), "guandan": (4, 4)}
STAKES = (100, 250, 500, 1000)
TARGET_MS = 200.0
TARGET_TABLES_PER_S = 50.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min), {os.cpu_count()} cores"


# -- the pure wave --------------------------------------------------------------------------------------
def queue_of(count: int, seed: int = 2026) -> tuple[list[Any], list[Any]]:
    from cardgames.matchmaking.pairing import Entry, OpenTable

    rng = random.Random(seed)
    entries = []
    for i in range(count):
        game = rng.choice(sorted(GAMES))
        low, high = GAMES[game]
        stake = 0 if rng.random() < 0.6 else rng.choice(STAKES)
        entries.append(
            Entry(
                id=i + 1,
                user_id=i + 1,
                game=game,
                players=rng.randint(low, high),
                stake=stake,
                order=i + 1,
                rating=rng.gauss(0.0, 8.0),
            )
        )
    tables = []
    for j in range(200):
        game = rng.choice(sorted(GAMES))
        low, high = GAMES[game]
        players = rng.randint(low, high)
        seated = rng.randint(1, players - 1) if players > 1 else 1
        tables.append(
            OpenTable(
                id=100_000 + j,
                game=game,
                players=players,
                stake=0 if rng.random() < 0.6 else rng.choice(STAKES),
                seated=seated,
                order=j,
                user_ids=frozenset(range(10**6 + 10 * j, 10**6 + 10 * j + seated)),
            )
        )
    return entries, tables


def bench_pairing(entries_count: int, runs: int) -> bool:
    from cardgames.matchmaking.pairing import plan_wave

    entries, tables = queue_of(entries_count)
    times = []
    plan = None
    for _ in range(runs):
        started = time.perf_counter()
        plan = plan_wave(entries, tables)
        times.append((time.perf_counter() - started) * 1000)
    assert plan is not None and plan.placed == len(entries)
    full = sum(1 for t in plan.tables if t.full)
    buckets = len({e.bucket for e in entries})
    print(f"pairing: {entries_count:,} entries in {buckets} buckets + {len(tables)} open tables ({load()})")
    print(
        f"  plan: {len(plan.fills)} fills, {full} full new tables, {len(plan.tables) - full} partial; "
        f"every entry placed: {plan.placed:,}"
    )
    best, median = min(times), statistics.median(times)
    ok = best <= TARGET_MS
    verdict = "met" if ok else "MISSED"
    target = f"target ≤ {TARGET_MS:.0f} ms: {verdict}"
    print(f"  wave: best {best:.1f} ms, median {median:.1f} ms of {runs} runs — {target}")
    return ok


# -- the whole path under Celery -------------------------------------------------------------------------
def _admin_url(server: str) -> str:
    return server.rstrip("/") + "/postgres"


def fresh_database(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(_admin_url(server), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{server.rstrip('/')}/{name}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
    )
    return url


def start_worker(env: dict[str, str], concurrency: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        f"--concurrency={concurrency}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=WARNING",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def bench_celery(args: argparse.Namespace) -> bool:
    import redis

    database = fresh_database(args.postgres, args.database)
    redis_url = f"{args.redis.rstrip('/')}/{args.redis_db}"
    redis.Redis.from_url(redis_url).flushdb()
    shards = args.concurrency
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "TABLE_RUNNER": "celery" if args.table_timers else "manual",
        "MATCHMAKING_WAVE_SHARDS": str(shards),
        "LOG_LEVEL": "WARNING",
    }
    # this process queues the players without kicking waves (the measured part starts after)
    os.environ.update({**env, "TABLE_RUNNER": "manual"})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import Max, Min

    from accounts.identity import player_for_user
    from cardgames.matchmaking import services
    from cardgames.matchmaking.models import QueueEntry
    from cardgames.matchmaking.tasks import run_wave
    from cardgames.tables.models import Table
    from economy.audit import audit_ledger

    log = Path(os.environ.get("TAPETE_RUN_DIR", ROOT / ".run")) / "bench-matchmaking-worker.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    worker = start_worker(env, args.concurrency, log)
    try:
        rng = random.Random(7)
        started = time.perf_counter()
        users = [
            get_user_model().objects.create_user(username=f"mm{i}", password=None)
            for i in range(args.players)
        ]
        took = time.perf_counter() - started
        print(f"celery: {args.players:,} users with their welcome grant in {took:.1f} s")
        started = time.perf_counter()
        buckets: dict[tuple[str, int, int], int] = {}
        for user in users:
            game = rng.choice(sorted(GAMES))
            low, high = GAMES[game]
            players = rng.randint(low, min(high, 4))
            stake = rng.choice(STAKES) if rng.random() < args.buyin else 0
            services.join_queue(player=player_for_user(user), game=game, players=players, stake=stake)
            buckets[(game, players, stake)] = buckets.get((game, players, stake), 0) + 1
        expected = sum(n // b[1] + (1 if n % b[1] else 0) for b, n in buckets.items())
        full = sum(n // b[1] for b, n in buckets.items())
        print(
            f"  queued through join_queue in {time.perf_counter() - started:.1f} s: {len(buckets)} buckets, "
            f"{full} full tables + {expected - full} partial expected"
        )
        with connection.cursor() as cursor:  # a live database has planner statistics; a fresh one not yet
            cursor.execute("ANALYZE")
        time.sleep(3)  # the worker is up
        timers = "with" if args.table_timers else "without"
        worker_line = f"{args.concurrency} processes, {shards} wave shards, {timers} the tables' countdowns"
        print(f"  worker: {worker_line} ({load()})")
        sent = time.time()
        for shard in range(shards):
            run_wave.delay(shard=shard, shards=shards)
        while QueueEntry.objects.filter(status="waiting").exists():
            if time.time() - sent > args.timeout:
                raise SystemExit(
                    f"timed out: {QueueEntry.objects.filter(status='waiting').count()} still queued"
                )
            time.sleep(0.05)
        span = QueueEntry.objects.aggregate(first=Min("seated_at"), last=Max("seated_at"))
        elapsed = span["last"].timestamp() - sent
        tables = Table.objects.count()
        started_tables = Table.objects.filter(status="playing").count()
        buyin_tables = Table.objects.filter(mode="buyin").count()
        seated = QueueEntry.objects.filter(status="seated").count()
        rate = tables / elapsed
        first_30 = Table.objects.filter(created_at__lte=datetime.fromtimestamp(sent + 30, tz=UTC)).count()
        print(
            f"  {tables} tables formed ({started_tables} full and started, {buyin_tables} buy-in), "
            f"{seated:,} players seated in {elapsed:.2f} s after the tasks were sent "
            f"(first seat after {span['first'].timestamp() - sent:.2f} s)"
        )
        if elapsed > 30:
            print(f"  first 30 s: {first_30} tables ({first_30 / 30:.1f} per second)")
        audit = audit_ledger()
        print(f"  ledger audit: {'clean' if audit.ok else audit.problems}")
        ok = rate >= TARGET_TABLES_PER_S and tables == expected and audit.ok
        verdict = "met" if ok else "MISSED"
        print(f"  {rate:.1f} tables formed per second — target ≥ {TARGET_TABLES_PER_S:.0f}: {verdict}")
        print(f"  after: {load()}")
        return ok
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("part", nargs="?", choices=["pairing", "celery", "all"], default="all")
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument(
        "--buyin", type=float, default=0.3, help="share of players queueing for a buy-in table"
    )
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="tapete_bench_mm")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument(
        "--table-timers",
        action="store_true",
        help="let the worker also run the started tables' countdown tasks (their bench players never "
        "move, so from 30 s on every turn times out on the same processes)",
    )
    args = parser.parse_args()
    ok = True
    if args.part in ("pairing", "all"):
        ok = bench_pairing(args.entries, args.runs) and ok
    if args.part in ("celery", "all"):
        ok = bench_celery(args) and ok
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
