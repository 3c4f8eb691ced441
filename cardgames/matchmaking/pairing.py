"""Matchmaking's pairing: queue entries and open online tables in, table plans out.

Pure (no Django, no clock, no I/O; ``mypy --strict``): the wave service
(``cardgames/matchmaking/services.py``) reads the queue and the online tables still waiting
for players, calls ``plan_wave`` and applies the plan, one table per transaction.

The rules of a wave (issue 11, PF-15–PF-18):

- Entries match only within their **bucket**: the same game, player count and stake
  (0 = free online; 100/250/500/1000 a buy-in table, PF-17).
- **First come, first served**: within a bucket the oldest entries (smallest ``order``)
  are placed first, and the oldest waiting table (its first player sat earliest) is
  filled first, so the people who have waited longest get the earliest game.
- **Full tables of people first**: entries first fill the open tables of their bucket
  (oldest first), then form as many full tables as they can; only what is left over
  (fewer than a table) sits at one new, partial table, whose fill clock then starts
  (PF-51: simulated players after 30 s; PF-52: a buy-in table is cancelled after 120 s).
  So a bucket never has two partial tables made by one wave, and a new partial table is
  opened only when no open table of its bucket has a free seat.
- **Ratings** (optional): when a wave forms two or more full tables in a bucket, the
  entries that FCFS chose for them are grouped by rating (closest together), so the
  queue's own order decides *who* plays now and the ratings only *who with whom*. With
  every rating equal (the default 0.0) the grouping is plain FCFS.
- Every entry is placed exactly once, except a second entry of the same user in one
  wave or the entry of a user already sitting at an open table (``held``: the database
  allows one live entry per user, so these appear only on stale input).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

#: (game, players, stake): entries match only inside one bucket
Bucket = tuple[str, int, int]

#: PF-17: the buy-in stakes; 0 is a free online table
STAKES: Final[tuple[int, ...]] = (100, 250, 500, 1000)
FREE: Final[int] = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """A queued player: ``order`` is the FCFS key (smaller joined earlier; ties by ``id``)."""

    id: int
    user_id: int
    game: str
    players: int
    stake: int
    order: int
    rating: float = 0.0

    @property
    def bucket(self) -> Bucket:
        return (self.game, self.players, self.stake)


@dataclass(frozen=True, slots=True)
class OpenTable:
    """An online table still waiting for players: ``seated`` of ``players`` seats taken.

    ``order`` is when its first player sat (smaller is older); ``user_ids`` who sit there.
    """

    id: int
    game: str
    players: int
    stake: int
    seated: int
    order: int
    user_ids: frozenset[int] = frozenset()

    @property
    def bucket(self) -> Bucket:
        return (self.game, self.players, self.stake)

    @property
    def free(self) -> int:
        return max(0, self.players - self.seated)


@dataclass(frozen=True, slots=True)
class Fill:
    """Seat these entries (oldest first) at the open table ``table_id``."""

    table_id: int
    entry_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NewTable:
    """Open a table of the bucket and seat these entries; ``full`` tables start at once."""

    game: str
    players: int
    stake: int
    entry_ids: tuple[int, ...]

    @property
    def full(self) -> bool:
        return len(self.entry_ids) == self.players


@dataclass(frozen=True, slots=True)
class Plan:
    """What a wave does, in the order to apply it: fills, then full new tables, then partial ones."""

    fills: tuple[Fill, ...]
    tables: tuple[NewTable, ...]
    held: tuple[int, ...] = ()

    @property
    def placed(self) -> int:
        return sum(len(f.entry_ids) for f in self.fills) + sum(len(t.entry_ids) for t in self.tables)


def plan_wave(entries: Iterable[Entry], tables: Iterable[OpenTable] = ()) -> Plan:
    """The plan of one wave for ``entries`` (any order) and the open ``tables`` (any order).

    Deterministic: the same entries and tables give the same plan whatever their input order.
    """
    open_tables = sorted(tables, key=lambda t: (t.order, t.id))
    seated_users = {uid for t in open_tables for uid in t.user_ids}
    by_bucket: dict[Bucket, list[Entry]] = {}
    seen: set[int] = set()
    held: list[int] = []
    for entry in sorted(entries, key=lambda e: (e.order, e.id)):
        if entry.user_id in seen or entry.user_id in seated_users:
            held.append(entry.id)
            continue
        seen.add(entry.user_id)
        by_bucket.setdefault(entry.bucket, []).append(entry)
    tables_by_bucket: dict[Bucket, list[OpenTable]] = {}
    for table in open_tables:
        if table.free > 0:
            tables_by_bucket.setdefault(table.bucket, []).append(table)

    fills: list[Fill] = []
    full: list[NewTable] = []
    partial: list[NewTable] = []
    for bucket, queue in by_bucket.items():  # buckets in the order of their oldest entry
        rest = _fill_open_tables(queue, tables_by_bucket.get(bucket, []), fills)
        groups, leftover = _full_groups(rest, bucket[1])
        full += [NewTable(*bucket, tuple(e.id for e in group)) for group in groups]
        if leftover:
            partial.append(NewTable(*bucket, tuple(e.id for e in leftover)))
    order = {e.id: e.order for q in by_bucket.values() for e in q}
    full.sort(key=lambda t: min(order[i] for i in t.entry_ids))
    return Plan(fills=tuple(fills), tables=(*full, *partial), held=tuple(held))


def _fill_open_tables(queue: Sequence[Entry], tables: Sequence[OpenTable], fills: list[Fill]) -> list[Entry]:
    """Give the oldest entries the free seats of the oldest open tables; the rest is returned."""
    at = 0
    for table in tables:
        if at >= len(queue):
            break
        taken = queue[at : at + table.free]
        at += len(taken)
        fills.append(Fill(table.id, tuple(e.id for e in taken)))
    return list(queue[at:])


def _full_groups(queue: Sequence[Entry], players: int) -> tuple[list[list[Entry]], list[Entry]]:
    """As many full tables as ``queue`` makes (the oldest entries), grouped by close ratings;
    and the newest entries left over (fewer than ``players``)."""
    count = len(queue) // players
    chosen, leftover = list(queue[: count * players]), list(queue[count * players :])
    if count > 1 and len({e.rating for e in chosen}) > 1:
        chosen.sort(key=lambda e: (e.rating, e.order, e.id))
    return [chosen[i * players : (i + 1) * players] for i in range(count)], leftover


def shard_of(bucket: Bucket, shards: int) -> int:
    """Which of ``shards`` parallel waves handles ``bucket`` (stable across processes: CRC-32).

    Buckets never share entries or tables, so waves over different shards never meet."""
    if shards <= 1:
        return 0
    game, players, stake = bucket
    return zlib.crc32(f"{game}:{players}:{stake}".encode()) % shards


def position_in_queue(entries: Iterable[Entry], entry_id: int) -> tuple[int, int]:
    """(1-based place of ``entry_id`` among the entries of its bucket, how many wait there);
    (0, 0) when it is not among ``entries``."""
    ordered = sorted(entries, key=lambda e: (e.order, e.id))
    mine = next((e for e in ordered if e.id == entry_id), None)
    if mine is None:
        return (0, 0)
    same = [e for e in ordered if e.bucket == mine.bucket]
    return (same.index(mine) + 1, len(same))
