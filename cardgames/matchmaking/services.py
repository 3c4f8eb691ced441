"""The matchmaking queue (issue 11): join, leave, and the waves that seat it at online tables.

- A signed-in player queues for a game, a player count within the game's limits and a stake
  (0: free online; 100/250/500/1000: a buy-in table, PF-17). Guests cannot queue (PF-61).
  One live entry per user — waiting, or seated at a running online table — is enforced by
  the database (``QueueEntry``'s partial unique index); leaving the queue is instant.
- A **wave** (``run_wave``) reads the queue and the online tables still waiting for players,
  asks the pure ``pairing.plan_wave`` for a plan (FCFS, full tables of people first) and
  applies it one table per transaction through ``seating`` (lock order
  Table → QueueEntry → Pot → Accounts). Waves run from Celery beat every few seconds and
  from a task kicked when someone joins (``kick_wave``); on the embedded defaults the
  in-process runner runs them. One wave at a time (a PostgreSQL advisory lock; a process
  lock on SQLite); each entry is still locked and re-checked when it sits, so a second
  wave, a leave or a join racing with one can never seat an entry twice.
- Lobby events go to the player's own group (``broadcast.to_user``: every open tab): the
  queue position on joining, the seats and countdown once seated, ``table_started`` with
  the table's URL, a cancellation with its refund (``online``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.identity import Player
from cardgames.catalogue import CatalogueError, game_spec
from cardgames.tables import broadcast
from cardgames.tables.errors import TableError
from cardgames.tables.models import Seat, Table

from . import online, pairing, seating
from .errors import QueueError
from .models import QueueEntry
from .schedule import wave_shards

log = logging.getLogger(__name__)

#: 0: free online; PF-17's buy-in stakes
STAKES = (pairing.FREE, *pairing.STAKES)
#: a wave goes round again while people joined during it, at most this often
MAX_ROUNDS = 5
#: the PostgreSQL advisory lock key of "a wave is running" (any constant unique to this use)
WAVE_LOCK_KEY = 0x7A9E_11A7
KICK_KEY = "matchmaking:wave-kicked"  # + ":<shard>/<shards>"
AGAIN_SECONDS = 0.5  # a skipped wave runs again this much later (``kick_again``)
#: a wave's lobby events leave together at most this often (each trip to the channel layer is costly)
WAVE_SEND_SECONDS = 0.25


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


# -- joining and leaving --------------------------------------------------------------------------
def join_queue(
    *, player: Player | None, game: Any, players: Any, stake: Any = 0, now: datetime | None = None
) -> QueueEntry:
    """Queue ``player`` for ``game`` with ``players`` seats at ``stake`` (0 free, PF-17 buy-ins).

    Refusals: ``login_required`` (guests), ``unknown_game``, ``bad_players``, ``bad_stake``,
    ``insufficient_coins`` (a buy-in the wallet cannot pay now), ``already_queued``,
    ``already_playing`` (seated at an online table that has not finished). The one-live-entry
    index settles races: of two joins at once, or a join racing with the wave that seats the
    player, one fails on the index and gets a clear answer.
    """
    if player is None or player.user_id is None:
        raise QueueError("login_required")
    user_id = player.user_id
    spec, count, stake = _check(game, players, stake)
    if stake:
        from economy.selectors import wallet_balance
        from economy.services.common import UserRef

        if wallet_balance(user=UserRef(user_id)) < stake:
            raise QueueError("insufficient_coins")
    moment = _now(now)
    rating = _rating(user_id, spec.slug)
    try:
        with transaction.atomic():
            _release_finished(user_id, moment)
            _refuse_if_live(user_id)
            entry = QueueEntry.objects.create(
                user_id=user_id,
                game=spec.slug,
                players=count,
                stake=stake,
                rating=rating,
                joined_at=moment,
            )
            broadcast.to_user(user_id, queued_event(entry))
            kick_wave((entry.game, entry.players, entry.stake))
            return entry
    except IntegrityError:
        _refuse_if_live(user_id)  # the twin that won is committed now: say which
        raise QueueError("already_queued") from None


def queue_again(*, table_id: int, user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """ "Buscar otra" (issue 25 item 4): the player of a finished online table queues again for the
    same game, players and stake, through ``join_queue`` and its checks (the wallet for a
    buy-in). A refusal leaves as the table wing's ``TableError`` with the queue's code and
    message (the tables reach matchmaking only through ``cardgames.tables.hooks``)."""
    from django.contrib.auth import get_user_model

    from accounts.identity import player_for_user

    table = Table.objects.select_related("pot").filter(pk=table_id).first()
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if table is None or user is None:
        raise TableError("no_such_table")
    try:
        entry = join_queue(
            player=player_for_user(user),
            game=table.game,
            players=table.num_players,
            stake=online.stake_of(table),
            now=now,
        )
    except QueueError as exc:
        raise TableError(exc.code, exc.message) from None
    return queued_event(entry)


def _check(game: Any, players: Any, stake: Any) -> tuple[Any, int, int]:
    try:
        spec = game_spec(game)
    except CatalogueError:
        raise QueueError("unknown_game") from None
    if isinstance(players, bool) or not isinstance(players, int) or players not in spec.player_range():
        raise QueueError("bad_players")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake not in STAKES:
        raise QueueError("bad_stake")
    return spec, players, stake


def _rating(user_id: int, game: str) -> float:
    """The player's rating at the game (``cardgames.ratings``), 0.0 when ratings are not there."""
    try:
        from cardgames.ratings.selectors import rating_for
    except ImportError:  # pragma: no cover - the ratings wing is optional for pairing
        return 0.0
    try:
        return float(rating_for(user_id, game))
    except Exception:  # a rating is a preference, never a reason to refuse a queue
        log.warning("no rating for user %s at %s", user_id, game, exc_info=True)
        return 0.0


def _release_finished(user_id: int, moment: datetime) -> None:
    """Seated entries whose table is over (finished, closed or gone) stop being live."""
    QueueEntry.objects.filter(user_id=user_id, status=QueueEntry.Status.SEATED).filter(
        Q(table__isnull=True) | Q(table__status__in=[Table.Status.FINISHED, Table.Status.CLOSED])
    ).update(status=QueueEntry.Status.DONE, ended_at=moment)


def _refuse_if_live(user_id: int) -> None:
    live = (
        QueueEntry.objects.filter(user_id=user_id, status__in=QueueEntry.LIVE)
        .values_list("status", flat=True)
        .first()
    )
    if live == QueueEntry.Status.WAITING:
        raise QueueError("already_queued")
    if live == QueueEntry.Status.SEATED:
        raise QueueError("already_playing")


#: a leave re-reads the entry after a stand-up the table refused (it started, or the seat went):
#: each retry follows a change that cannot undo itself, so two are enough; more is a player
#: joining and leaving in a loop from several tabs
LEAVE_ATTEMPTS = 4


def leave_queue(*, player: Player | None, now: datetime | None = None) -> dict[str, Any]:
    """Leave the queue at once, whatever a wave is doing meanwhile (issue 26).

    The live entry is read under its row lock, so a wave seating it either committed first (the
    leave sees the seat) or finds it gone when it locks it. Waiting: it ends (``left``). Seated
    at an online table still waiting for players: the player stands up and a buy-in entry
    comes back (PF-57) — lock order Table → QueueEntry → Pot → Accounts, so the entry's lock is
    let go and ``online.stand_up`` takes the table first, then re-checks the seat. Seated at a
    table that started: ``already_playing`` naming the table (PF-63: nobody leaves a started
    table with their entry). Leaving when not queued changes nothing. Returns the new status:
    ``idle`` (``left`` when something ended, ``refunded`` the coins a stand-up gave back).
    """
    if player is None or player.user_id is None:
        raise QueueError("login_required")
    user_id = player.user_id
    moment = _now(now)
    for _attempt in range(LEAVE_ATTEMPTS):
        with transaction.atomic():
            _release_finished(user_id, moment)
            entry = (
                QueueEntry.objects.select_for_update(of=("self",))
                .select_related("table")
                .filter(user_id=user_id, status__in=QueueEntry.LIVE)
                .first()
            )
            if entry is None:
                return idle_event()
            if entry.status == QueueEntry.Status.WAITING:
                entry.status, entry.ended_at = QueueEntry.Status.LEFT, moment
                entry.save(update_fields=["status", "ended_at"])
                return _left(user_id, {})
            table = entry.table
            if table is None or table.status != Table.Status.WAITING:
                # started (or just over, released on the next read): the seat and its entry stay
                if table is not None and table.status == Table.Status.PLAYING:
                    raise QueueError("already_playing", where=_where(table))
                continue
        try:
            refunded = online.stand_up(table_id=table.pk, user_id=user_id, now=moment)
        except TableError as exc:
            # the table started (``not_waiting``), or the seat went (a cancellation, another
            # tab's stand-up) between the two locks: read the entry again
            if exc.code not in ("not_waiting", "not_seated", "no_such_table"):
                raise
            continue
        return _left(user_id, {"refunded": refunded})
    raise QueueError("queue_busy")


def _left(user_id: int, extra: dict[str, Any]) -> dict[str, Any]:
    event = {**idle_event(), "left": True, **extra}
    broadcast.to_user(user_id, event)  # the player's other tabs
    return event


def _where(table: Table) -> dict[str, Any]:
    """Where a seated player is: the answer of a leave that cannot stand them up."""
    return {"state": "playing", "table": table.pk, "table_code": table.code, "url": online.table_url(table)}


# -- waves --------------------------------------------------------------------------------------------
@dataclass
class Wave:
    """What one wave did (the task returns ``tables``; the benchmark reads the rest)."""

    skipped: bool = False
    rounds: int = 0
    tables: int = 0  # new tables opened
    started: int = 0  # tables that started (new or filled)
    seated: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    errors: int = 0


def kick_wave(bucket: pairing.Bucket | None = None) -> None:
    """After this transaction commits, have a wave run soon: the Celery wave of ``bucket``'s
    shard (deduplicated by a short-lived cache key, which the task clears when it starts), or
    the in-process runner's next wave."""
    runner = settings.TABLE_RUNNER
    if runner == "celery":
        shards = wave_shards()
        shard = pairing.shard_of(bucket, shards) if bucket is not None else 0
        transaction.on_commit(lambda: _enqueue_wave(shard, shards))
    elif runner == "inprocess":
        from cardgames.tables.runner import kick_wave as kick_runner

        transaction.on_commit(kick_runner)


def _enqueue_wave(shard: int, shards: int, *, countdown: float = 0) -> None:
    """Queue the shard's wave task unless one is queued already (the task clears the key)."""
    from .tasks import run_wave as run_wave_task

    try:
        if cache.add(f"{KICK_KEY}:{shard}/{shards}", 1, timeout=5):
            run_wave_task.apply_async(kwargs={"shard": shard, "shards": shards}, countdown=countdown)
    except Exception:  # the broker or cache is down: beat's next wave places the entry
        log.warning("could not kick a matchmaking wave", exc_info=True)


def kick_again(shard: int, shards: int) -> None:
    """A wave that found its shard's lock held may have been kicked by a join the running wave
    has not seen: run once more shortly after, instead of leaving that entry to beat's next wave."""
    _enqueue_wave(shard, shards, countdown=AGAIN_SECONDS)


def run_wave(*, now: datetime | None = None, shard: int | None = None, shards: int = 1) -> Wave:
    """Seat the queue: plan with ``pairing.plan_wave``, apply table by table (``seating``).

    ``shard``/``shards``: only the buckets of that shard (``pairing.shard_of``), so Celery runs
    several waves side by side; ``shard=None`` is the whole queue (the in-process runner, tests).
    Safe to run twice and concurrently: one wave per shard at a time holds its lock (a whole
    wave holds them all; another returns ``skipped``), and every placement locks its table and
    entries and re-checks them, so an entry that left or was placed meanwhile is skipped, never
    seated twice. A failed placement (a lock timeout, a lost connection) leaves its entries
    queued for the next wave. ``now`` is for tests (a fixed clock); by default each placement
    reads the clock.
    """
    wave = Wave()
    every = range(max(shards, wave_shards()))
    keys = [WAVE_LOCK_KEY + i for i in every] if shard is None else [WAVE_LOCK_KEY + shard]
    mine = (
        (lambda bucket: True) if shard is None else (lambda bucket: pairing.shard_of(bucket, shards) == shard)
    )
    with _wave_lock(keys) as held, broadcast.batched(max_delay=WAVE_SEND_SECONDS):
        if not held:
            wave.skipped = True
            return wave
        seen = 0
        for _ in range(MAX_ROUNDS):
            entries, newest = _waiting_entries(after=0, mine=mine)
            if not entries or (wave.rounds and newest <= seen):  # nobody new since the last round
                break
            seen = newest
            wave.rounds += 1
            tables = [t for t in _open_tables(_now(now)) if mine(t.bucket)]
            _apply(pairing.plan_wave(entries, tables), wave, now)
        _tell_positions(mine)
    return wave


def _apply(plan: pairing.Plan, wave: Wave, now: datetime | None) -> None:
    for fill in plan.fills:
        _place(
            wave,
            lambda f=fill: seating.place_at_table(table_id=f.table_id, entry_ids=list(f.entry_ids), now=now),
        )
    for new in plan.tables:
        _place(
            wave,
            lambda t=new: seating.place_new_table(
                game=t.game, players=t.players, stake=t.stake, entry_ids=list(t.entry_ids), now=now
            ),
            opens=True,
        )


def _place(wave: Wave, call: Any, *, opens: bool = False) -> None:
    try:
        seating = call()
    except TableError as exc:  # the table started or closed since the plan: its entries wait on
        wave.refused[exc.code] = wave.refused.get(exc.code, 0) + 1
        return
    except Exception:
        wave.errors += 1
        log.exception("a matchmaking placement failed; its entries stay queued")
        return
    wave.seated += len(seating.seated)
    wave.started += int(seating.started)
    wave.tables += int(opens and seating.table is not None)
    for code in seating.refused.values():
        wave.refused[code] = wave.refused.get(code, 0) + 1


def _waiting_entries(*, after: int, mine: Any) -> tuple[list[pairing.Entry], int]:
    rows = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING, pk__gt=after).values_list(
        "pk", "user_id", "game", "players", "stake", "rating"
    )
    entries = [
        pairing.Entry(id=pk, user_id=uid, game=game, players=n, stake=stake, order=pk, rating=rating)
        for pk, uid, game, n, stake, rating in rows
        if mine((game, n, stake))
    ]
    return entries, max((e.id for e in entries), default=0)


def _open_tables(moment: datetime) -> list[pairing.OpenTable]:
    """Online tables waiting for players whose fill deadline has not passed."""
    rows = list(
        Table.objects.filter(mode__in=online.ONLINE_MODES, status=Table.Status.WAITING)
        .filter(Q(deadline_at__isnull=True) | Q(deadline_at__gt=moment))
        .annotate(seated=Count("seats"))
        .values_list("pk", "game", "num_players", "pot__stake", "seated")
    )
    users: dict[int, set[int]] = {}
    for table_id, user_id in Seat.objects.filter(
        table_id__in=[r[0] for r in rows], user__isnull=False
    ).values_list("table_id", "user_id"):
        users.setdefault(table_id, set()).add(user_id)
    return [
        pairing.OpenTable(
            id=pk,
            game=game,
            players=n,
            stake=stake or 0,
            seated=seated,
            order=pk,
            user_ids=frozenset(users.get(pk, ())),
        )
        for pk, game, n, stake, seated in rows
    ]


def _tell_positions(mine: Any) -> None:
    """Whoever is still queued after a wave hears their place (normally nobody: a wave seats all)."""
    entries, _newest = _waiting_entries(after=0, mine=mine)
    if not entries or len(entries) > 1000:
        return
    for entry, (position, waiting) in _positions(entries).items():
        broadcast.to_user(entry.user_id, {**_queued_base(entry), "position": position, "waiting": waiting})


def _positions(entries: list[pairing.Entry]) -> dict[pairing.Entry, tuple[int, int]]:
    buckets: dict[pairing.Bucket, list[pairing.Entry]] = {}
    for entry in sorted(entries, key=lambda e: (e.order, e.id)):
        buckets.setdefault(entry.bucket, []).append(entry)
    return {e: (i + 1, len(q)) for q in buckets.values() for i, e in enumerate(q)}


@contextlib.contextmanager
def _wave_lock(keys: list[int]) -> Iterator[bool]:
    """One wave per shard at a time: session advisory locks on PostgreSQL (all or none; freed if
    the worker dies with its connection), a process lock elsewhere (SQLite runs one process and
    serialises writers)."""
    if connection.vendor == "postgresql":
        taken: list[int] = []
        with connection.cursor() as cursor:
            for key in keys:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
                if not cursor.fetchone()[0]:
                    break
                taken.append(key)
        held = len(taken) == len(keys)
        try:
            yield held
        finally:
            with connection.cursor() as cursor:
                for key in taken:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
        return
    held = _local_wave_lock.acquire(blocking=False)
    try:
        yield held
    finally:
        if held:
            _local_wave_lock.release()


_local_wave_lock = threading.Lock()


# -- lobby events ---------------------------------------------------------------------------------------
def idle_event() -> dict[str, Any]:
    return {"type": "queue", "state": "idle"}


def _queued_base(entry: pairing.Entry | QueueEntry) -> dict[str, Any]:
    return {
        "type": "queue",
        "state": "queued",
        "game": entry.game,
        "players": entry.players,
        "stake": entry.stake,
    }


def queued_event(entry: QueueEntry) -> dict[str, Any]:
    """A waiting entry: its 1-based place among the waiting entries of its bucket (FCFS)."""
    same = QueueEntry.objects.filter(
        status=QueueEntry.Status.WAITING, game=entry.game, players=entry.players, stake=entry.stake
    )
    return {
        **_queued_base(entry),
        "position": same.filter(pk__lt=entry.pk).count() + 1,
        "waiting": same.count(),
        "joined_at": round(entry.joined_at.timestamp() * 1000),
    }
