"""Soak: live tables at a steady rate for minutes, watching what the processes hold over time.

    .venv/bin/python -m bench.soak [--minutes 10] [--tables 5] [--interval 15] [--json PATH]
    .venv/bin/python -m bench.soak --churn 2000 [--parallel 4] [--every 400] [--top 15]

Issue 13's soak proof (not in CI). The stack and the load are bench/tables.py's
(``run_tables`` on bench/live_harness.py's stack: a fresh PostgreSQL database, a Redis db of its
own, 2 daphnes, 1 Celery worker with beat, ``DEBUG=0``): ``--tables`` One Card rooms of four
scripted people, one move a second per table, each finished game followed by the next room of
the same four. The default rate is half the live-tables knee measured in docs/performance.md
(N = 10 tables there). Every ``--interval`` seconds a sampler thread records, per process (each
daphne, the worker with its pool, beat inside it): resident memory and open sockets; the
stack's Redis keys (by kind) and the PostgreSQL connections to its database (by state); the
ActionLog rows and finished games so far. At the end it prints the samples and, per series,
its growth over the second half of the run (least squares, per minute: the first half is the
warm-up of caches and pools), and writes everything as JSON (default ``.run/soak-<time>.json``).

``--churn N`` is the socket-churn check instead: one daphne (no worker, no moves) traced by
tracemalloc, a started One Card room of four people, and N table sockets opened (snapshot and
chat history read) and closed, ``--parallel`` at a time. Tracing starts after the first
``--every`` sockets (the warm-up); at every ``--every`` sockets the daphne's resident memory is
read (tracemalloc's own tables grow it: ``--frames 0`` for memory figures without tracing) and a
snapshot taken (``SIGUSR1``: ``_traced_daphne`` dumps it with the live objects by
type); at the end the growth between the first and the last snapshot is printed by traceback,
largest first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.live_harness import (
    PY,
    ROOT,
    Proc,
    Session,
    Stack,
    _wait_http,
    free_port,
    live_stack,
    rss_kb,
    sessions_from,
)
from bench.tables import run_tables

#: the live-tables knee of docs/performance.md ("Live tables": p99 ≤ 150 ms up to N = 10)
KNEE_TABLES = 10
#: rooms one host may keep open (TABLES_MAX_LIVE_ROOMS as bench/live_harness.py sets it, issue 13 item 13)
HOST_ROOMS = 50


def open_sockets(pid: int) -> int:
    """Sockets held by ``pid`` and its children (from /proc: file descriptors that are sockets)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    total = 0
    for p in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{p}/fd").iterdir():
                with contextlib.suppress(OSError):
                    total += os.readlink(fd).startswith("socket:")
    return total


def redis_keys(url: str) -> dict[str, int]:
    """The stack's Redis db: keys by kind (channel groups and channels, Celery, cache), and the total."""
    import redis

    client = redis.Redis.from_url(url)
    kinds: Counter[str] = Counter()
    for key in client.scan_iter(count=1000):
        name = key.decode(errors="replace")
        if name.startswith("asgi") and "group" in name:
            kinds["channel_groups"] += 1
        elif name.startswith("asgi"):
            kinds["channels"] += 1
        elif name.startswith(("_kombu", "unacked", "celery")) or name in {"celery"}:
            kinds["celery"] += 1
        else:
            kinds["other"] += 1
    kinds["total"] = sum(kinds.values())
    return dict(kinds)


def database_facts(stack: Stack) -> dict[str, int]:
    import psycopg

    name = stack.database_url.rsplit("/", 1)[1]
    with psycopg.connect(stack.database_url, autocommit=True) as conn:
        states = conn.execute(
            "SELECT coalesce(state, '?'), count(*) FROM pg_stat_activity WHERE datname = %s"
            " AND pid <> pg_backend_pid() GROUP BY 1",
            [name],
        ).fetchall()
        # a transaction left open holds its locks and keeps VACUUM back: how old is the oldest
        oldest = conn.execute(
            "SELECT coalesce(max(extract(epoch FROM now() - xact_start)), 0) FROM pg_stat_activity"
            " WHERE datname = %s AND state = 'idle in transaction'",
            [name],
        ).fetchone()
        actions = conn.execute("SELECT count(*) FROM cardgames_actionlog").fetchone()
        finished = conn.execute("SELECT count(*) FROM cardgames_table WHERE status = 'finished'").fetchone()
        playing = conn.execute("SELECT count(*) FROM cardgames_table WHERE status = 'playing'").fetchone()
    facts = {f"db_{state.replace(' ', '_')}": int(n) for state, n in states}
    facts["db_connections"] = sum(int(n) for _state, n in states)
    facts["db_oldest_idle_xact_s"] = round(float(oldest[0]), 1) if oldest else 0
    facts["actions"] = int(actions[0]) if actions else 0
    facts["finished_tables"] = int(finished[0]) if finished else 0
    facts["playing_tables"] = int(playing[0]) if playing else 0
    return facts


def sample(stack: Stack, start: float) -> dict[str, Any]:
    row: dict[str, Any] = {"t": round(time.monotonic() - start, 1), "load": os.getloadavg()[0]}
    row.update({f"rss_kb:{name}": kb for name, kb in stack.rss_kb().items()})
    for proc in stack.processes():
        if proc.alive:
            row[f"sockets:{proc.name}"] = open_sockets(proc.popen.pid)
    row.update({f"redis:{k}": v for k, v in redis_keys(stack.redis_url).items()})
    row.update(database_facts(stack))
    return row


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) points, per minute."""
    n = len(points)
    if n < 2:
        return 0.0
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return 0.0
    return 60 * sum((t - mean_t) * (v - mean_v) for t, v in points) / var


def growth(samples: list[dict[str, Any]], until: float) -> dict[str, dict[str, float]]:
    """Per series: first, half-way and last value under load, and the slope over the second half."""
    loaded = [s for s in samples if s["t"] <= until]
    half = loaded[len(loaded) // 2 :]
    keys = sorted({k for s in loaded for k in s if ":" in k or k.startswith("db_")})
    out = {}
    for key in keys:
        values = [(s["t"], float(s[key])) for s in half if key in s]
        if values:
            out[key] = {
                "first": float(loaded[0].get(key, 0)),
                "half": values[0][1],
                "last": values[-1][1],
                "max": max(float(s.get(key, 0)) for s in loaded),
                "slope_per_min_2nd_half": round(slope_per_minute(values), 2),
            }
    return out


def print_samples(samples: list[dict[str, Any]]) -> None:
    names = sorted({k.split(":", 1)[1] for s in samples for k in s if k.startswith("rss_kb:")})
    head = ["t s", "load"] + [f"{n} MB" for n in names] + [f"{n} socks" for n in names]
    head += ["redis keys", "db conns", "actions", "games"]
    print(" | ".join(head))
    for s in samples:
        cells = [f"{s['t']:.0f}", f"{s['load']:.1f}"]
        cells += [f"{s.get(f'rss_kb:{n}', 0) / 1024:.1f}" for n in names]
        cells += [str(s.get(f"sockets:{n}", "-")) for n in names]
        cells += [str(s.get("redis:total", 0)), str(s.get("db_connections", 0))]
        cells += [str(s.get("actions", 0)), str(s.get("finished_tables", 0))]
        print(" | ".join(cells), flush=True)


# -- the socket churn -----------------------------------------------------------------------------
def _traced_daphne(snap_dir: str, frames: str, *daphne_args: str) -> None:
    """daphne with a ``SIGUSR1`` hook: the first signal starts tracemalloc (``frames`` deep), each
    next one dumps a snapshot and the count of live objects by type to ``snap_dir``."""
    taken = [0]

    def hook(_signum: int, _frame: Any) -> None:
        if not tracemalloc.is_tracing():
            tracemalloc.start(int(frames))
            Path(snap_dir, "started").write_text("1")
            return
        gc.collect()
        taken[0] += 1
        tracemalloc.take_snapshot().dump(str(Path(snap_dir, f"{taken[0]}.snap")))
        types = Counter(type(o).__qualname__ for o in gc.get_objects())
        Path(snap_dir, f"{taken[0]}.types.json").write_text(json.dumps(dict(types.most_common(300))))

    signal.signal(signal.SIGUSR1, hook)
    from daphne.cli import CommandLineInterface

    sys.argv = ["daphne", *daphne_args]
    CommandLineInterface.entrypoint()


def _snapshot(proc: Proc, snap_dir: Path, name: str) -> None:
    """Signal the traced daphne and wait for its file ``name``."""
    os.kill(proc.popen.pid, signal.SIGUSR1)
    deadline = time.monotonic() + 300
    while not (snap_dir / name).exists() or (name.endswith(".snap") and not _complete(snap_dir, name)):
        if time.monotonic() > deadline or not proc.alive:
            raise RuntimeError(f"no {name} from the traced daphne:\n{proc.tail()}")
        time.sleep(0.2)


def _complete(snap_dir: Path, name: str) -> bool:
    return (snap_dir / name.replace(".snap", ".types.json")).exists()


async def _open_and_close(port: int, table_id: int, user: Session) -> None:
    from websockets.asyncio.client import connect

    url, origin = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", f"http://127.0.0.1:{port}"
    headers = {"Cookie": user.cookie}
    async with connect(url, additional_headers=headers, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
        while json.loads(await asyncio.wait_for(ws.recv(), 30)).get("type") != "chat_history":
            pass


def churn(sockets: int, parallel: int, every: int, top: int, frames: int = 10) -> dict[str, Any]:
    """Open and close ``sockets`` table sockets on one traced daphne; memory at every ``every``."""
    rows: list[dict[str, Any]] = []
    with live_stack(daphnes=0, worker=False) as stack:
        snap_dir = stack.run_dir / "snapshots"
        snap_dir.mkdir()
        port = free_port()
        log = stack.run_dir / "daphne-traced.log"
        argv = [PY, "-m", "bench.soak", "_traced_daphne", str(snap_dir), str(frames)]
        argv += ["-b", "127.0.0.1", "-p", str(port), "--proxy-headers", "config.asgi:application"]
        popen = subprocess.Popen(
            argv,
            env=stack.env,
            cwd=ROOT,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc = Proc("daphne-traced", popen, log, port)
        stack.extra.append(proc)
        _wait_http(proc)
        users = sessions_from(stack.django("users", {"prefix": "churn", "count": parallel}))
        (room,) = stack.django("rooms", {"groups": [[u.user_id for u in users]]})
        table_id = room["tables"][0]
        users[0].api(f"http://127.0.0.1:{port}", "POST", f"/api/tables/{table_id}/start", {})
        start = time.monotonic()

        async def rounds(count: int) -> None:
            for _ in range(count // parallel):
                await asyncio.gather(*(_open_and_close(port, table_id, u) for u in users[:parallel]))

        opened = 0
        for step in range(sockets // every + 1):
            if step:
                asyncio.run(rounds(every))
                opened += every
            time.sleep(2)  # the last disconnects' database writes and group messages
            row = {"sockets": opened, "t": round(time.monotonic() - start, 1), "load": os.getloadavg()[0]}
            row["rss_kb"] = rss_kb(popen.pid)
            if step == 1 and frames:
                _snapshot(proc, snap_dir, "started")
            elif step > 1 and frames:
                _snapshot(proc, snap_dir, f"{step - 1}.snap")
            rows.append(row)
            print(
                f"{row['sockets']:6} sockets  {row['rss_kb'] / 1024:7.1f} MB  load {row['load']:.1f}",
                flush=True,
            )
        first, last = snap_dir / "1.snap", snap_dir / f"{sockets // every - 1}.snap"
        report: dict[str, Any] = {"rows": rows, "top": [], "types": []}
        if first.exists() and last != first and last.exists():
            old, new = tracemalloc.Snapshot.load(str(first)), tracemalloc.Snapshot.load(str(last))
            n = sockets - 2 * every
            print(f"\ngrowth over the {n} sockets between the first and last snapshot, by traceback:")
            for stat in new.compare_to(old, "traceback")[:top]:
                report["top"].append(
                    {
                        "size_diff": stat.size_diff,
                        "count_diff": stat.count_diff,
                        "trace": stat.traceback.format(),
                    }
                )
                print(f"{stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7} blocks")
                for line in stat.traceback.format(limit=8, most_recent_first=True):
                    print("      " + line)
            types_old = json.loads(first.with_suffix(".types.json").read_text())
            types_new = json.loads(last.with_suffix(".types.json").read_text())
            grown = sorted(((types_new.get(k, 0) - types_old.get(k, 0), k) for k in types_new), reverse=True)
            report["types"] = [(k, d) for d, k in grown[:top] if d > 0]
            print("\nlive objects grown, by type:", report["types"])
    return report


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "_traced_daphne":
        _traced_daphne(*sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument(
        "--tables", type=int, default=KNEE_TABLES // 2, help="live tables (default: half the knee)"
    )
    parser.add_argument("--interval", type=float, default=15.0, help="seconds between samples")
    parser.add_argument(
        "--json", default="", help="where to write the figures (default .run/soak-<time>.json)"
    )
    parser.add_argument("--churn", type=int, default=0, help="the socket-churn check: sockets to open")
    parser.add_argument("--parallel", type=int, default=4, help="churn: sockets open at once")
    parser.add_argument("--every", type=int, default=400, help="churn: sockets between snapshots")
    parser.add_argument("--top", type=int, default=15, help="churn: tracebacks to print")
    parser.add_argument(
        "--frames", type=int, default=10, help="churn: frames tracemalloc keeps (0: no tracing, plain RSS)"
    )
    args = parser.parse_args()
    # a SIGTERM stops the stack too (the processes killed, the database dropped)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.churn:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        out = Path(args.json) if args.json else ROOT / ".run" / f"churn-{stamp}.json"
        print(f"churn: {args.churn} sockets, {args.parallel} at a time; load {os.getloadavg()}")
        report = churn(args.churn, args.parallel, args.every, args.top, args.frames)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1, default=str))
        print(f"written {out}")
        return

    seconds = args.minutes * 60
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = Path(args.json) if args.json else ROOT / ".run" / f"soak-{stamp}.json"
    print(
        f"soak: {args.tables} tables for {args.minutes} min; load {os.getloadavg()}  cores {os.cpu_count()}"
    )
    samples: list[dict[str, Any]] = []
    with live_stack(daphnes=2) as stack:
        make = stack.django

        def django(command: str, request: Any = None, **kwargs: Any) -> Any:
            # run_tables queues a room for every 24 s of play (a game lasts longer): past 20
            # minutes that is more than a host may keep open; the first HOST_ROOMS - 1 suffice
            if command == "rooms":
                request = {**request, "per_group": min(int(request["per_group"]), HOST_ROOMS - 1)}
            return make(command, request, **kwargs)

        stack.django = django  # type: ignore[method-assign]
        start = time.monotonic()
        done = threading.Event()

        def sampler() -> None:
            while not done.is_set():
                with contextlib.suppress(Exception):  # one lost sample never stops the soak
                    samples.append(sample(stack, start))
                done.wait(args.interval)

        thread = threading.Thread(target=sampler, daemon=True)
        thread.start()
        started_at = datetime.now(UTC).isoformat(timespec="seconds")
        base_rss = sum(stack.rss_kb().values())
        level = run_tables(stack, args.tables, warmup=10.0, seconds=max(1.0, seconds - 10), base_rss=base_rss)
        loaded_until = time.monotonic() - start
        done.set()
        thread.join(timeout=60)
        time.sleep(5)  # after close_all: what the processes give back once the tables are gone
        samples.append({**sample(stack, start), "after": True})
    print_samples(samples)
    trend = growth(samples, loaded_until)
    print("\nsecond-half growth per minute (first → half → last, max):")
    for key, row in trend.items():
        print(
            f"  {key:28} {row['slope_per_min_2nd_half']:+10.2f}/min   "
            f"{row['first']:.0f} → {row['half']:.0f} → {row['last']:.0f}  (max {row['max']:.0f})"
        )
    print("\n" + level.line())
    report = {
        "started": started_at,
        "minutes": args.minutes,
        "tables": args.tables,
        "level": {**level.__dict__, "throughput": level.throughput},
        "samples": samples,
        "growth": trend,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str))
    print(f"written {out}")


if __name__ == "__main__":
    main()
