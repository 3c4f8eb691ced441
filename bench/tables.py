"""Load on live tables: N tables × 4 seats over real websockets, against a bare baseline.

    .venv/bin/python -m bench.tables [--levels 10 20 40 80] [--seconds 25] [--only tables|bare]
    .venv/bin/python -m bench.tables --only tables --bots hard --game puteo --levels 1 2 4 8

The stack is the multi-process test's (bench/live_harness.py): a fresh PostgreSQL database,
a Redis db of its own, 2 daphne processes and 1 Celery worker with beat, TABLE_RUNNER=celery.
Each level opens N One Card friends rooms of 4 signed-in users (2 seats on each daphne) whose
scripted clients play a legal move from their own snapshot about 1 s after their turn comes
(one action a second per table); a finished game is followed by the next room of the same four.
Per level it reports:

- persisted actions/s: ActionLog rows written in the measured window (people's moves and the
  worker's timeouts), counted in PostgreSQL;
- p50/p99 latency from a client's action to its own updated view (the ack and the snapshot after it);
- jumps (a pushed snapshot more than one version ahead: pushes coalesced or lost), resyncs (a
  heartbeat found the client behind: a push that never came — a lost frame), error frames (a
  ``stale`` race between two seats of a call window is counted apart), reconnects;
- memory: RSS of every daphne and the worker (with its pool) over the level's start, per live
  table; each level runs on two daphnes started for it (``level_on_fresh_daphnes``).

With ``--bots LEVEL`` each table is instead a bots room of ``--game`` (PF-13): one signed-in
person and three bots of that level, which the worker moves (a hard El Puteo or Guandan bot thinks
its whole budget, ``BOT_HARD_BUDGET_SECONDS``, out of the table's lock); the latency is the
person's, the persisted actions are everybody's.

Then the same levels against the bare baseline (bench/bare_asgi.py: one row written, a group
of 4 told, no engine, no per-viewer view) on 2 daphne processes of its own. Levels stop at the
knee: p99 over 150 ms, or throughput growing less than 5 %. The machine's load is printed;
run it when the machine is otherwise idle.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.live_harness import (
    SeatClient,
    Stack,
    Stats,
    live_stack,
    percentile,
    sessions_from,
)

THINK = 1.0
JITTER = 0.3
P99_LIMIT_MS = 150.0


@dataclass
class Level:
    system: str
    tables: int
    seconds: float
    actions: int
    p50_ms: float
    p99_ms: float
    samples: int
    jumps: int
    resyncs: int
    errors: dict[str, int]
    stale: int
    reconnects: int
    rss_kb: dict[str, int]
    rss_delta_kb: int
    cpu: dict[str, float]
    client_cpu: float
    games_done: int = 0
    base_rss_kb: int = 0
    threads: dict[str, int] = field(default_factory=dict)

    @property
    def throughput(self) -> float:
        return self.actions / self.seconds

    @property
    def cpu_ms_per_action(self) -> float:
        """CPU of the daphnes, the worker and the database's backends, per persisted action."""
        return sum(self.cpu.values()) * 10 / max(self.throughput, 1e-9)

    @property
    def kb_per_table(self) -> float:
        return self.rss_delta_kb / self.tables

    def line(self) -> str:
        errors = sum(self.errors.values())
        cpu = " ".join(f"{k}={v:.0f}%" for k, v in self.cpu.items())
        return (
            f"{self.system:6} N={self.tables:4d}  {self.throughput:6.1f} actions/s  "
            f"p50 {self.p50_ms:6.1f} ms  p99 {self.p99_ms:6.1f} ms  (n={self.samples})  "
            f"jumps {self.jumps}  lost {self.resyncs}  errors {errors} stale {self.stale}  "
            f"reconnects {self.reconnects}  mem {self.kb_per_table:6.1f} kB/table "
            f"(threads {'/'.join(str(t) for t in self.threads.values())})  "
            f"cpu {cpu} client={self.client_cpu:.0f}%  server cpu/action {self.cpu_ms_per_action:.1f} ms"
        )


def _count_rows(stack: Stack, table: str, since: float, until: float) -> int:
    import psycopg

    with psycopg.connect(stack.database_url) as conn:
        row = conn.execute(
            f"SELECT count(*) FROM {table} WHERE at >= to_timestamp(%s) AND at < to_timestamp(%s)",
            [since, until],
        ).fetchone()
    return int(row[0]) if row else 0


def _cpu_shares(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    """Percent of one core used by each process in the window; the PostgreSQL backends summed."""
    shares: dict[str, float] = {}
    for key, value in after.items():
        name = key.split(":")[0]
        shares[name] = shares.get(name, 0.0) + 100 * (value - before.get(key, 0.0)) / seconds
    return shares


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def _client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _measure(
    stack: Stack,
    system: str,
    tables: int,
    slot: Any,
    *,
    warmup: float,
    seconds: float,
    base_rss: int,
) -> tuple[Level, list[Any]]:
    """Run ``slot(i, stats, stop_at)`` for every table slot; measure the window after the warm-up."""
    stats = Stats()
    start = time.monotonic()
    window = (start + warmup, start + warmup + seconds)
    stop_at = window[1] + 0.5
    ramp = min(5.0, warmup / 2)
    tasks = [asyncio.create_task(slot(i, stats, stop_at, ramp * i / tables)) for i in range(tables)]
    await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
    wall0, cpu0, client0 = time.time(), stack.cpu_seconds(), _client_cpu()
    await asyncio.sleep(max(0.0, window[1] - time.monotonic()))
    wall1, cpu1, client1 = time.time(), stack.cpu_seconds(), _client_cpu()
    rss = stack.rss_kb()
    threads = {p.name: _threads(p.popen.pid) for p in stack.daphnes}
    results = await asyncio.gather(*tasks, return_exceptions=True)
    row_table = "cardgames_actionlog" if system == "tables" else "bench_bare_log"
    actions = _count_rows(stack, row_table, wall0, wall1)
    lat = [lat for sent, lat in stats.samples if window[0] <= sent < window[1]]
    errors = {k: v for k, v in stats.errors.items() if k != "stale"}
    level = Level(
        system=system,
        tables=tables,
        seconds=wall1 - wall0,
        actions=actions,
        p50_ms=percentile(lat, 50) * 1000,
        p99_ms=percentile(lat, 99) * 1000,
        samples=len(lat),
        jumps=stats.jumps,
        resyncs=stats.resyncs,
        errors=errors,
        stale=stats.errors.get("stale", 0),
        reconnects=stats.reconnects,
        rss_kb=rss,
        rss_delta_kb=sum(rss.values()) - base_rss,
        cpu=_cpu_shares(cpu0, cpu1, wall1 - wall0),
        client_cpu=100 * (client1 - client0) / (wall1 - wall0),
        threads=threads,
    )
    return level, results


async def _play(client: SeatClient, stop_at: float) -> dict[str, Any] | None:
    try:
        return await client.play(timeout=stop_at - time.monotonic())
    except TimeoutError:
        return None


# -- the live tables --------------------------------------------------------------------------
def _failures(level: Level, results: list[Any]) -> Level:
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        level.errors["client_failures"] = len(failures)
        print("  first client failure:", repr(failures[0]), flush=True)
    return level


_runs = itertools.count()


@dataclass(frozen=True)
class Seating:
    """What sits at each table: four people at One Card's friends rooms, or (``bots``) one
    person and three bots of that level at a bots room of ``game``."""

    game: str = "one_card"
    bots: str | None = None

    @property
    def people(self) -> int:
        return 1 if self.bots else 4

    def rooms_request(self, groups: list[list[int]], per_group: int) -> dict[str, Any]:
        """The harness's ``rooms`` command for tables of these users (ids, one group a table)."""
        request = {"groups": groups, "per_group": per_group, "game": self.game}
        if self.bots:
            request.update(bots=self.bots, players=4)
        return request


def run_tables(
    stack: Stack, tables: int, *, warmup: float, seconds: float, base_rss: int, seating: Seating = Seating()
) -> Level:
    """N rooms, each with its next rooms queued (a One Card game lasts 24 actions or more)."""
    games_per_slot = max(2, math.ceil((warmup + seconds) / 24) + 1)
    prefix = f"t{next(_runs)}_"  # a run's own users: levels may repeat a table count
    people = seating.people
    users = sessions_from(stack.django("users", {"prefix": prefix, "count": people * tables}, timeout=900))
    groups = [users[people * i : people * i + people] for i in range(tables)]
    ids = [[u.user_id for u in g] for g in groups]
    rooms = stack.django("rooms", seating.rooms_request(ids, games_per_slot), timeout=900)
    ports = stack.ports
    done = [0]

    async def slot(i: int, stats: Stats, stop_at: float, delay: float) -> None:
        await asyncio.sleep(delay)
        group = groups[i]
        for table_id in rooms[i]["tables"]:
            if time.monotonic() >= stop_at:
                return
            base = f"http://127.0.0.1:{ports[i % 2]}"
            await asyncio.to_thread(group[0].api, base, "POST", f"/api/tables/{table_id}/start", {})
            clients = [
                SeatClient(
                    path=f"/ws/tables/{table_id}/",
                    cookie=user.cookie,
                    ports=[ports[seat // 2], ports[1 - seat // 2]],
                    stats=stats,
                    think=THINK,
                    jitter=JITTER,
                    seed=f"{table_id}:{seat}",
                )
                for seat, user in enumerate(group)
            ]
            ends = await asyncio.gather(*(_play(c, stop_at) for c in clients))
            if any(end is None for end in ends):
                return
            done[0] += 1

    async def main() -> tuple[Level, list[Any]]:
        return await _measure(
            stack, "tables", tables, slot, warmup=warmup, seconds=seconds, base_rss=base_rss
        )

    level, results = asyncio.run(main())
    level.games_done = done[0]
    stack.django("close_all", {})  # games cut short would time out, then be played by stand-ins
    return _failures(level, results)


# -- the bare baseline --------------------------------------------------------------------------
def run_bare(
    stack: Stack, tables: int, *, warmup: float, seconds: float, base_rss: int, first_room: int
) -> Level:
    ports = stack.ports

    async def slot(i: int, stats: Stats, stop_at: float, delay: float) -> None:
        await asyncio.sleep(delay)
        room = first_room + i
        clients = [
            SeatClient(
                path=f"/ws/bare/{room}/?seat={seat}",
                cookie="",
                ports=[ports[seat // 2], ports[1 - seat // 2]],
                stats=stats,
                think=THINK,
                jitter=JITTER,
                seed=f"{room}:{seat}",
            )
            for seat in range(4)
        ]
        await asyncio.gather(*(_play(c, stop_at) for c in clients))

    async def main() -> tuple[Level, list[Any]]:
        return await _measure(stack, "bare", tables, slot, warmup=warmup, seconds=seconds, base_rss=base_rss)

    level, results = asyncio.run(main())
    return _failures(level, results)


ASGI = {"tables": "config.asgi:application", "bare": "bench.bare_asgi:application"}
_rooms = iter(range(1, 10**9, 10**5))  # the bare baseline's room numbers, a fresh block per run


def _run(
    stack: Stack, system: str, n: int, *, warmup: float, seconds: float, base_rss: int, seating: Seating
) -> Level:
    if system == "tables":
        return run_tables(stack, n, warmup=warmup, seconds=seconds, base_rss=base_rss, seating=seating)
    return run_bare(stack, n, warmup=warmup, seconds=seconds, base_rss=base_rss, first_room=next(_rooms))


def level_on_fresh_daphnes(stack: Stack, system: str, n: int, args: argparse.Namespace) -> Level:
    """One level on two daphnes started for it and warmed with 4 tables, so that its memory is
    its own: Python seldom returns freed memory, and daphnes that served a larger level before
    would lend this one that level's high-water mark (or charge it that level's leftovers)."""
    stack.stop_daphnes()
    stack.daphnes = [stack.start_daphne(asgi=ASGI[system]) for _ in range(2)]
    time.sleep(1)
    seating = Seating(game=args.game, bots=args.bots)
    _run(stack, system, 4, warmup=3, seconds=5, base_rss=0, seating=seating)  # code loaded, pools open
    base = sum(stack.rss_kb().values())
    level = _run(stack, system, n, warmup=args.warmup, seconds=args.seconds, base_rss=base, seating=seating)
    level.base_rss_kb = base
    return level


def knee(levels: list[Level]) -> Level | None:
    """The last level with p99 within the limit whose throughput still grew (≥ 5 %)."""
    best: Level | None = None
    for level in levels:
        if level.p99_ms > P99_LIMIT_MS or level.resyncs or level.errors:
            break
        if best is not None and level.throughput < 1.05 * best.throughput:
            break
        best = level
    return best


def sweep(run: Any, levels: list[int]) -> list[Level]:
    """Raise N until p99 is well past the limit (2×) or the throughput stops growing."""
    out: list[Level] = []
    for n in levels:
        level = run(n)
        out.append(level)
        print(level.line(), flush=True)
        if level.p99_ms > 2 * P99_LIMIT_MS:
            break
        if len(out) > 1 and level.throughput < 1.05 * out[-2].throughput:
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[10, 20, 30, 40, 60, 80, 120, 160, 240])
    parser.add_argument("--seconds", type=float, default=25.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds before measuring")
    parser.add_argument("--only", choices=["tables", "bare"], default=None)
    parser.add_argument("--json", default="", help="write the figures to this file")
    parser.add_argument("--game", default="one_card", help="the game of --bots rooms")
    parser.add_argument(
        "--bots", choices=["easy", "normal", "hard"], default=None, help="one person and three bots a table"
    )
    args = parser.parse_args()
    if args.game != "one_card" and not args.bots:
        parser.error("--game needs --bots (the people's rooms are One Card's)")

    print(f"load before: {os.getloadavg()}  cores: {os.cpu_count()}", flush=True)
    report: dict[str, Any] = {"load_before": os.getloadavg()}
    with live_stack(daphnes=2) as stack:
        time.sleep(2)
        results: dict[str, list[Level]] = {}
        if args.only in (None, "tables"):
            results["tables"] = sweep(lambda n: level_on_fresh_daphnes(stack, "tables", n, args), args.levels)
        if args.only in (None, "bare"):
            import psycopg

            from bench.bare_asgi import ensure_tables

            with psycopg.connect(stack.database_url, autocommit=True) as conn:
                ensure_tables(conn)
            results["bare"] = sweep(lambda n: level_on_fresh_daphnes(stack, "bare", n, args), args.levels)
    report["load_after"] = os.getloadavg()
    print(f"load after: {report['load_after']}")
    for system, levels in results.items():
        best = knee(levels)
        report[system] = [{**level.__dict__, "throughput": level.throughput} for level in levels]
        if best is not None:
            print(f"{system} knee: N={best.tables} {best.throughput:.1f} actions/s p99 {best.p99_ms:.1f} ms")
            report[f"{system}_knee"] = best.tables
    for system, levels in results.items():
        if len(levels) > 1:
            first, last = levels[0], levels[-1]
            slope = (sum(last.rss_kb.values()) - sum(first.rss_kb.values())) / (last.tables - first.tables)
            span = f"N={first.tables} to N={last.tables}"
            print(f"{system}: RSS grew {slope:.0f} kB per extra table from {span}")
            report[f"{system}_kb_per_extra_table"] = slope
    if "tables" in results and "bare" in results:
        a, b = knee(results["tables"]), knee(results["bare"])
        if a and b:
            print(f"knee ratio tables/bare: {a.throughput / b.throughput:.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
