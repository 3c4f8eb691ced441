"""The only writer of live tables: rooms, seats, moves, timeouts, bots, chat and invitations.

Every function runs in one transaction and locks the Table row first (lock order: Table →
Pot → Accounts, docs/architecture.md); ``wake_table`` runs two when a searching bot is asked, so
that the bot thinks between them, holding no lock. A move: lock, dedupe ``action_id``, check the
version, ``engine.load`` → ``engine.apply``, append to the ActionLog, save the snapshot,
bump the version, store the timers' starts and the next wake-up (``cardgames.tables.flow``),
then, on commit, tell the table's group the new version (``broadcast``) and settle a
finished game (``settlement``). Services take a ``Player`` (accounts.identity), never a
request, and raise ``TableError`` (nothing changed) for anything they refuse.

Rules: PF-14/PF-22–PF-27 rooms and joining, PF-34 chat, PF-54/PF-55 codes and expiry,
PF-61 guests, PF-63 absent players, PF-50 bot reaction times (../shared/rules/platform.md).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.identity import Player
from accounts.names import clean_text
from cardgames import bots
from cardgames.catalogue import CatalogueError, clean_options, game_spec
from cardgames.engines import Engine, IllegalAction, get_engine
from cardgames.engines.guandan.cards import level_number, parse_level

from . import access, broadcast, core, envelopes, flow, hooks, quotas, statements

# the core's writes (core.py) keep their old private names here: this module's calls read as before
from .core import close as _close
from .core import deal as _deal
from .core import lock as _lock
from .core import new_code as _new_code
from .core import store as _store
from .core import touch as _touch
from .core import wake_of as _wake_of
from .errors import TableError
from .invitations import invitation_dict
from .models import ActionLog, ChatMessage, Invitation, Seat, Table

ROOM_MODES = (Table.Mode.BOTS, Table.Mode.FRIENDS)
IDLE_HOURS = 4  # PF-54
INVITATION_MINUTES = 10
CHAT_WINDOW_SECONDS = 10
CHAT_MESSAGES_PER_WINDOW = 5
CHAT_MAX_CHARS = 300
MAX_WAKE_STEPS = 50  # timeouts applied in one wake-up, at most (a safety bound, never reached in play)
# What one person can grow (issue 13 item 13; live rooms: quotas.py): pending invitations sent, and
# the chat lines a room keeps; settings so a benchmark can raise them.
MAX_PENDING_INVITATIONS = getattr(settings, "TABLES_MAX_PENDING_INVITATIONS", 30)
MAX_CHAT_MESSAGES = getattr(settings, "TABLES_MAX_CHAT_MESSAGES", 2000)
LIVE_STATUSES = (Table.Status.WAITING, Table.Status.PLAYING, Table.Status.FINISHED)
BOT_NAMES = {"easy": "Bot fácil", "normal": "Bot normal", "hard": "Bot difícil"}


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def _ts(moment: datetime) -> float:
    return moment.timestamp()


def _at(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=UTC)


def _lock_live(table_id: Any) -> Table:
    table = _lock(table_id)
    assert table is not None
    if table.status == Table.Status.CLOSED:
        raise TableError("no_such_table")
    return table


def _seat_of(table: Table, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return Seat.objects.filter(table=table, player_key=player.key).first()


def _require_host(table: Table, player: Player | None) -> None:
    if player is None or table.host_key != player.key:
        raise TableError("not_host")


def _require_waiting(table: Table) -> None:
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting")


def _check_level(level: Any) -> str:
    if level not in bots.LEVELS:
        raise TableError("bad_level")
    return str(level)


def _free_index(table: Table) -> int | None:
    taken = set(table.seats.values_list("index", flat=True))
    return next((i for i in range(table.num_players) if i not in taken), None)


def _seat_human(table: Table, player: Player, index: int) -> Seat:
    return Seat.objects.create(
        table=table,
        index=index,
        kind=Seat.Kind.HUMAN if player.is_user else Seat.Kind.GUEST,
        user_id=player.user_id,
        player_key=player.key,
        name=player.name,
    )


def _seat_bot(table: Table, index: int, level: str) -> Seat:
    return Seat.objects.create(
        table=table, index=index, kind=Seat.Kind.BOT, name=BOT_NAMES[level], bot_level=level
    )


# -- rooms ----------------------------------------------------------------------
def create_room(
    *,
    player: Player | None,
    game: Any,
    mode: Any,
    players: Any = None,
    options: Any = None,
    bot_level: Any = "normal",
    start_levels: Any = None,
    address: str = "",
    now: datetime | None = None,
) -> Table:
    """A new room with a fresh code (PF-55); the creator is its host at seat 0.

    A host holds at most ``TABLES_MAX_LIVE_ROOMS`` rooms waiting or in play, and the creator's
    ``address`` (when given) ``TABLES_MAX_LIVE_ROOMS_PER_ADDRESS`` (``quotas``, issue 26).

    ``bots`` (practice, PF-13, guests too): every other seat gets a bot of ``bot_level``.
    ``friends`` (PF-14, PF-22): the other seats wait for people or the host's bots.
    ``start_levels`` (Guandan only): a match set up late, like a puzzle position, with the
    teams at [team A, team B] (2..14 or "2".."10", "J", "Q", "K", "A") instead of both at 2
    (GD-3); its first deal is played at team A's level with no tribute (GD-47). A set-up for
    tests and demonstrations, never a host's room option (GD-65: Guandan has none).
    """
    if player is None:
        raise TableError("identity_required")
    if mode not in ROOM_MODES:
        raise TableError("bad_mode")
    try:
        spec = game_spec(game)
        count, cleaned = clean_options(spec.slug, players, options)
    except CatalogueError as exc:
        raise TableError(exc.code, exc.message) from None
    if start_levels is not None:
        cleaned["levels"] = _start_levels(spec.slug, start_levels)
    level = _check_level(bot_level)
    moment = _now(now)
    # waiting or in play: finished rooms linger until their idle close and must not count
    with quotas.room_slot(player=player, address=address) as created:
        table = _open_room(player, spec.slug, spec.code_style, spec.code_length, mode, count, cleaned, moment)
        created.append(table.pk)
    with transaction.atomic():
        _seat_human(table, player, 0)
        if mode == Table.Mode.BOTS:
            for index in range(1, count):
                _seat_bot(table, index, level)
    return table


def _open_room(
    player: Player,
    game: str,
    code_style: str,
    code_length: int,
    mode: str,
    count: int,
    options: dict[str, Any],
    moment: datetime,
) -> Table:
    for _ in range(20):
        try:
            with transaction.atomic():
                return Table.objects.create(
                    game=game,
                    mode=mode,
                    code=_new_code(code_style, code_length),
                    host_key=player.key,
                    num_players=count,
                    options=options,
                    last_activity_at=moment,
                )
        except IntegrityError:
            continue  # the code is taken by a live room: draw again
    raise TableError("no_such_table", "No free room code; try again.")  # pragma: no cover - 10^6 codes


def _start_levels(game: str, levels: Any) -> list[int]:
    """Both teams' levels for a Guandan match set up late (GD-3, GD-39), as numbers 2..14."""
    if game != "guandan":
        raise TableError("bad_options", "Only Guandan has team levels.")
    if not isinstance(levels, list | tuple) or len(levels) != 2:
        raise TableError("bad_options", "Start levels are two: [team A, team B].")
    try:
        return [level_number(parse_level(value)) for value in levels]
    except ValueError:
        raise TableError("bad_options", "A level is 2 to 10, J, Q, K or A.") from None


def find_room(*, code: Any) -> Table:
    """The live room with ``code`` (codes are compared in capitals)."""
    if not isinstance(code, str) or not 1 <= len(code) <= 8:
        raise TableError("no_such_table")
    table = Table.objects.filter(code=code.strip().upper()).exclude(status=Table.Status.CLOSED).first()
    if table is None:
        raise TableError("no_such_table")
    return table


def join_room(
    *, table_id: int, player: Player | None, code: Any = None, now: datetime | None = None
) -> Seat | None:
    """Sit ``player`` at a waiting friends room; None means they watch (PF-26).

    A room is joined by its ``code`` (its link carries it) or an invitation, never by its id
    alone (``private_room``, PF-24, PF-61: ``access``). Latecomers, a full room and practice
    tables (someone else's bots game) give a spectator. Joining twice returns the same seat.
    """
    if player is None:
        raise TableError("identity_required")
    moment = _now(now)
    with transaction.atomic():
        table = _lock_live(table_id)
        seat = _seat_of(table, player)
        if seat is not None:
            return seat
        if not access.may_watch(table, player, code):
            raise TableError("private_room")
        if table.mode != Table.Mode.FRIENDS or table.status != Table.Status.WAITING:
            return None
        index = _rematch_index(table, player)
        if index is None:
            index = _free_index(table)
        if index is None:
            return None
        seat = _seat_human(table, player, index)
        _touch(table, moment)
        return seat


def _rematch_index(table: Table, player: Player) -> int | None:
    """A rematch's player takes back the seat they had in the old room, if it is free (issue 25)."""
    old = Table.objects.filter(rematch=table).only("pk").first()
    if old is None:
        return None
    before = Seat.objects.filter(table=old, player_key=player.key).values_list("index", flat=True).first()
    if before is None or table.seats.filter(index=before).exists():
        return None
    return int(before)


def leave_room(*, table_id: int, player: Player | None, now: datetime | None = None) -> None:
    """Stand up before the start; the host's role passes on, an empty room closes.

    After the start a seat keeps its place (PF-63): an absent player's turns time out.
    """
    moment = _now(now)
    with transaction.atomic():
        table = _lock_live(table_id)
        if table.mode in (Table.Mode.ONLINE, Table.Mode.BUYIN):
            if player is None or player.user_id is None:
                raise TableError("not_seated")
            # matchmaking's: the queue entry and a buy-in entry go back too
            hooks.online().stand_up(table_id=table.pk, user_id=player.user_id, now=moment)
            return
        seat = _seat_of(table, player)
        if seat is None:
            raise TableError("not_seated")
        _require_waiting(table)
        seat.delete()
        humans = list(table.seats.exclude(player_key="").order_by("index"))
        if not humans:
            _close(table, moment)
            return
        if player is not None and table.host_key == player.key:
            table.host_key = humans[0].player_key
        _touch(table, moment, fields=["host_key"])


def _host_room(table_id: Any, player: Player | None, *, waiting: bool = True) -> Table:
    """The locked room that ``player`` hosts (and that has not started, when ``waiting``)."""
    table = _lock_live(table_id)
    _require_host(table, player)
    if waiting:
        _require_waiting(table)
    return table


def _seat_number(table: Table, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.num_players:
        raise TableError("bad_seat")
    return seat


def _guest_seat(table: Table, seat: Any) -> Seat:
    """Someone else's seat at the host's table (never the host's own)."""
    target = table.seats.filter(index=_seat_number(table, seat)).first()
    if target is None or target.player_key == table.host_key:
        raise TableError("bad_seat")
    return target


def add_bot(
    *, table_id: int, player: Player | None, level: Any, seat: Any = None, now: datetime | None = None
) -> Seat:
    """The host puts a bot of ``level`` in an empty seat (the first free one by default, PF-25)."""
    moment = _now(now)
    level = _check_level(level)
    with transaction.atomic():
        table = _host_room(table_id, player)
        if seat is None:
            index = _free_index(table)
            if index is None:
                raise TableError("table_full")
        else:
            index = _seat_number(table, seat)
            if table.seats.filter(index=index).exists():
                raise TableError("seat_taken")
        new_seat = _seat_bot(table, index, level)
        _touch(table, moment)
        return new_seat


def set_bot_level(
    *, table_id: int, player: Player | None, seat: Any, level: Any, now: datetime | None = None
) -> Seat:
    """The host changes the level of a bot before the start."""
    moment = _now(now)
    level = _check_level(level)
    with transaction.atomic():
        table = _host_room(table_id, player)
        target = _guest_seat(table, seat)
        if target.kind != Seat.Kind.BOT:
            raise TableError("bad_seat")
        target.bot_level, target.name = level, BOT_NAMES[level]
        target.save(update_fields=["bot_level", "name"])
        _touch(table, moment)
        return target


def remove_seat(*, table_id: int, player: Player | None, seat: Any, now: datetime | None = None) -> None:
    """The host frees a seat before the start: a bot, or a person (kicked)."""
    moment = _now(now)
    with transaction.atomic():
        table = _host_room(table_id, player)
        _guest_seat(table, seat).delete()
        _touch(table, moment)


def set_muted(
    *, table_id: int, player: Player | None, seat: Any, muted: bool, now: datetime | None = None
) -> None:
    """The host mutes (or unmutes) a seat's chat (PF-34)."""
    moment = _now(now)
    with transaction.atomic():
        table = _host_room(table_id, player, waiting=False)
        target = _guest_seat(table, seat)
        target.muted = bool(muted)
        target.save(update_fields=["muted"])
        _touch(table, moment)


def start_table(*, table_id: int, player: Player | None, now: datetime | None = None) -> Table:
    """The host starts a full room (PF-25): a secret seed is drawn and its SHA-256 published."""
    moment = _now(now)
    with transaction.atomic():
        table = _host_room(table_id, player)
        if table.seats.count() != table.num_players:
            raise TableError("seats_empty")
        return _deal(table, moment)


# -- moves ----------------------------------------------------------------------
@dataclass(frozen=True)
class Applied:
    version: int
    action_id: str


def submit_action(
    *,
    table_id: int,
    player: Player | None,
    action: Any,
    action_id: str,
    version: Any,
    now: datetime | None = None,
) -> Applied:
    """A person's move: checked by the engine, logged, and the table's version bumped.

    Refusals (nothing changes): ``not_playing``, ``spectator``, ``duplicate`` (this seat's
    ``action_id`` was already applied), ``stale`` (made against another version), and the
    engine's own codes (``not_your_turn``, ``illegal_card`` …). PF-63: acting brings the
    player back from a stand-in bot.
    """
    moment = _now(now)
    with transaction.atomic():
        table = _lock_live(table_id)
        if table.status != Table.Status.PLAYING:
            raise TableError("not_playing")
        seats = statements.seats(table)  # read once: _store needs them all for the envelopes
        seat = next((s for s in seats if player is not None and s.player_key == player.key), None)
        if seat is None:
            raise TableError("spectator")
        if statements.applied_before(table, seat.index, action_id):
            raise TableError("duplicate")
        if version != table.version:
            raise TableError("stale")
        eng = get_engine(table.game)
        state = eng.load(table.state)
        try:
            state, events = eng.apply(state, seat.index, action)
        except IllegalAction as exc:
            raise TableError(exc.code, exc.message) from None
        if seat.timeouts_in_row or seat.stand_in:
            seat.timeouts_in_row, seat.stand_in = 0, False
            statements.update(seat, ["timeouts_in_row", "stand_in"])
        table.last_activity_at = moment
        _record(
            table,
            eng,
            state,
            moment,
            seat.index,
            action,
            events,
            ActionLog.Source.PLAYER,
            action_id=action_id,
            fields=["last_activity_at"],
            seats=seats,
        )
        return Applied(table.version, action_id)


def wake_table(*, table_id: int, now: datetime | None = None, skip_locked: bool = False) -> bool:
    """Do what is due at a table: lapsed timers (by id), then the bots' move, then settlement.

    Safe to call at any time, any number of times, from any process (the sweeper, a
    countdown task, the in-process runner): a timer that is no longer live at this version
    does nothing, and bots are asked once per version. Returns False when another worker
    holds the table (``skip_locked``).

    Bots that answer at once (easy, normal, stand-ins) are asked under the table's lock, in the
    same transaction as the timers. A bot that searches (``bots.searches``: a hard bot that spends
    its whole budget, ``BOT_HARD_BUDGET_SECONDS``) is not: holding the lock for its budget would
    hold SQLite's write lock (PostgreSQL's table row) as long. Then the timers' transaction
    commits first, the bots think on what it read with no transaction open, and a second
    transaction locks the row again and applies their answer only if the table is still where
    they read it (``_think_then_move``); otherwise nothing is written and the next wake asks again.
    """
    from .settlement import settle_later

    moment = _now(now)
    with transaction.atomic():
        table = _lock(table_id, skip_locked=skip_locked)
        if table is None:
            return False
        if table.status == Table.Status.FINISHED and table.settled_at is None:
            settle_later(table.pk)
            return True
        if table.status == Table.Status.WAITING and table.mode in (Table.Mode.ONLINE, Table.Mode.BUYIN):
            hooks.online().wake_waiting(table, moment)  # an online table's fill deadline (PF-51, PF-52)
            return True
        if table.status != Table.Status.PLAYING:
            if table.wake_at is not None:
                table.wake_at = None
                table.save(update_fields=["wake_at"])
            return True
        eng = get_engine(table.game)
        state = eng.load(table.state)
        seats: list[Seat] | None = statements.seats(table)
        if core.gone(table, seats):
            return True  # everyone is gone: the table waits for a person (PF-63), a late task too
        for _ in range(MAX_WAKE_STEPS):
            timers = eng.timers(state)
            lapsed = flow.due(timers, table.timer_starts, _ts(moment))
            if not lapsed or eng.is_over(state):
                break
            state = _time_out(table, eng, state, lapsed[0], moment)
            seats = None  # a timeout may have changed a seat (PF-63's count): read them again
            if table.wake_at is None:
                break  # that timeout made the last person gone: the table waits now
        if table.bots_at is None or table.bots_at > moment or eng.is_over(state):
            return True
        seats = statements.seats(table) if seats is None else seats
        read = _BotsRead(table, eng, state, {s.index: s for s in seats})
        if not read.searching():
            _bots_move(table, eng, state, moment, read.seats, _bots_plan(read, moment))
            return True
    _think_then_move(read, moment, skip_locked=skip_locked)
    return True


def _time_out(table: Table, eng: Engine, state: Any, timer: flow.Timer, moment: datetime) -> Any:
    """Apply the automatic action of a lapsed timer for its seat (PF-63 counts absences)."""
    seat_index = timer["seat"]
    state, events = eng.apply(state, seat_index, flow.timeout_action(timer))
    if flow.counts_as_absence(timer):
        seat = table.seats.get(index=seat_index)
        if not seat.is_bot:
            seat.timeouts_in_row += 1
            if seat.timeouts_in_row >= flow.TIMEOUTS_BEFORE_BOT:
                seat.stand_in = True
            seat.save(update_fields=["timeouts_in_row", "stand_in"])
    action = flow.timeout_action(timer)
    _record(
        table, eng, state, moment, seat_index, action, events, ActionLog.Source.TIMEOUT, timer_id=timer["id"]
    )
    return state


def _bot_level(seat: Seat) -> str:
    return seat.bot_level if seat.is_bot else flow.STAND_IN_LEVEL


@dataclass(frozen=True)
class _BotsRead:
    """A table in play as its bots are asked: the row, its state and its seats by index."""

    table: Table
    eng: Engine
    state: Any
    seats: dict[int, Seat]

    def wanted(self) -> list[int]:
        """The bot-played seats in ``to_act``, in its order."""
        played = [i for i, s in self.seats.items() if s.plays_by_bot]
        return flow.wanted_bot_seats(self.eng.to_act(self.state), played)

    def searching(self) -> bool:
        """Would one of the bots asked spend its budget thinking?"""
        return any(bots.searches(self.table.game, _bot_level(self.seats[i])) for i in self.wanted())

    def inputs(self) -> tuple[Any, ...]:
        """What the bots' answer depends on besides the state, which the version fixes and a seat or
        a presence change does not: who is asked, at which level and with which memory, and the
        timers' starts (PF-50's delays; PF-63's resume restarts them at the same version)."""
        asked = tuple((i, _bot_level(self.seats[i]), self.seats[i].bot_memory) for i in self.wanted())
        return (self.table.timer_starts, asked)


@dataclass(frozen=True)
class _BotsPlan:
    """What the asked bots answered at one version, nothing of it written yet: each asked seat's
    memory to store (kept even when its action is None), the move to apply (seat, action), and when
    no bot moves now the earliest moment a waiting catch is ready (PF-50)."""

    memories: tuple[tuple[int, dict[str, Any]], ...]
    move: tuple[int, dict[str, Any]] | None
    not_before: float | None


def _bots_plan(read: _BotsRead, moment: datetime) -> _BotsPlan:
    """Ask the bot-played seats in ``to_act`` (seat order) until one makes a move it may make now.

    A One Card catch waits for the bot level's reaction time (PF-50) counted from the window's
    start. Reads nothing from the database and writes nothing: it may run outside any transaction.
    """
    table, eng, state = read.table, read.eng, read.state
    memories: list[tuple[int, dict[str, Any]]] = []
    not_before: float | None = None
    for index in read.wanted():
        seat = read.seats[index]
        level = _bot_level(seat)
        move = bots.decide(
            table.game,
            level,
            eng.view(state, index),
            eng.legal_actions(state, index),
            rng=bots.bot_rng(table.pk, index, table.version),
            memory=seat.bot_memory,
            budget=bots.Budget(settings.BOT_HARD_BUDGET_SECONDS, time.perf_counter),
        )
        memories.append((index, move.memory))
        if move.action is None:
            continue
        seconds = bots.reaction_seconds(table.game, level, move.action)
        ready_at = flow.reaction_ready_at(move.action, seconds, eng.timers(state), table.timer_starts)
        if ready_at is not None and ready_at > _ts(moment):
            not_before = ready_at if not_before is None else min(not_before, ready_at)
            continue
        return _BotsPlan(tuple(memories), (index, move.action), None)
    return _BotsPlan(tuple(memories), None, not_before)


def _bots_move(
    table: Table, eng: Engine, state: Any, moment: datetime, seats: dict[int, Seat], plan: _BotsPlan
) -> None:
    """Apply the bots' answer (row locked): store their memories, then the move, or else the next
    time to ask them (every bot saying "nothing now" leaves the table to its timers)."""
    for index, memory in plan.memories:
        seat = seats[index]
        if memory != seat.bot_memory:
            seat.bot_memory = memory
            seat.save(update_fields=["bot_memory"])
    if plan.move is None:
        table.bots_at = _at(plan.not_before)
        _save_wake(table)
        return
    index, action = plan.move
    state, events = eng.apply(state, index, action)
    _record(
        table,
        eng,
        state,
        moment,
        index,
        action,
        events,
        ActionLog.Source.BOT,
        action_id=f"bot:{table.version}",
        seats=list(seats.values()),
    )


def _think_then_move(read: _BotsRead, moment: datetime, *, skip_locked: bool) -> None:
    """A searching bot's turn: think on ``read`` with no transaction open, then lock and apply.

    ``read`` is the row as the wake's first transaction left it (committed). The answer is applied
    only if, under the lock, the table is still at that version with the same bots asked, the same
    memories and timer starts, still due and not waiting for a person (PF-63): then it is the
    answer the bots would have given under the lock (same view, memory and ``bot_rng``). Otherwise
    nothing is written, not even a memory; the table is still due (or was rescheduled by whoever
    moved it), so the next wake asks again on what is there then.
    """
    plan = _bots_plan(read, moment)
    with transaction.atomic():
        table = _lock(read.table.pk, skip_locked=skip_locked)
        if table is None or table.status != Table.Status.PLAYING or table.version != read.table.version:
            return
        if table.bots_at is None or table.bots_at > moment:
            return
        seats = statements.seats(table)
        if core.gone(table, seats):
            return
        now_read = _BotsRead(table, read.eng, read.eng.load(table.state), {s.index: s for s in seats})
        if now_read.inputs() != read.inputs():
            return
        _bots_move(table, now_read.eng, now_read.state, moment, now_read.seats, plan)


def _record(
    table: Table,
    eng: Engine,
    state: Any,
    moment: datetime,
    seat: int | None,
    action: dict[str, Any],
    events: list[Any],
    source: str,
    *,
    action_id: str = "",
    timer_id: str = "",
    fields: list[str] | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Append the applied action to the log, then store the state it led to (``_store``)."""
    row = ActionLog(
        table=table,
        seq=table.version + 1,
        seat=seat,
        action=dict(action),
        events=events,
        source=source,
        action_id=action_id,
        timer_id=timer_id,
        at=moment,
    )
    statements.insert(row)
    _store(table, eng, state, moment, fields=fields, last=row, seats=seats)


def _save_wake(table: Table) -> None:
    table.wake_at = _wake_of(table)
    table.save(update_fields=["wake_at", "bots_at"])
    broadcast.wake_later(table.pk, table.wake_at)


# -- presence (PF-63) -------------------------------------------------------------
def mark_connected(
    *, table_id: int, player: Player | None, connected: bool, now: datetime | None = None
) -> dict[str, Any] | None:
    """Count a seat's open sockets; a returning player takes the seat back from the stand-in bot.

    When what the viewers see changed (the seat went on or off line, or came back from its
    stand-in) every socket is told; on a dealt table the writer builds every viewer's envelope for
    that, and this player's is returned, so the socket that opened sends it without reading the
    table back. None otherwise.
    """
    if player is None:
        return None
    with transaction.atomic():
        table = _lock(table_id)
        assert table is not None
        seats = statements.seats(table)
        seat = next((s for s in seats if s.player_key == player.key), None)
        if seat is None:
            return None
        shown = (seat.connections > 0, seat.stand_in)
        was_gone = core.gone(table, seats)
        if connected:
            seat.connections += 1
            seat.stand_in = False
            seat.timeouts_in_row = 0
        else:
            seat.connections = max(0, seat.connections - 1)
        statements.update(seat, ["connections", "stand_in", "timeouts_in_row"])
        # the table waits while every person is gone, and plays on when one comes back (PF-63)
        core.wait_or_resume(table, seats, was_gone, _now(now))
        if (seat.connections > 0, seat.stand_in) == shown:
            return None  # a second tab, or one of two closed: nobody sees a change
        views = _announce_presence(table, seats)
        return None if views is None else views[str(seat.index)]


def _announce_presence(table: Table, seats: list[Seat]) -> dict[str, dict[str, Any]] | None:
    """Presence changed at the same version: every page opening or closing would make each of the
    table's sockets read it back, so once dealt the writer builds every viewer's envelope."""
    if table.state is None:  # a waiting room: its few sockets read it back
        broadcast.table_changed(table.pk, table.version, force=True)
        return None
    eng = get_engine(table.game)
    last = envelopes.shown_move(table, statements.last_action(table))
    views = envelopes.every_envelope(table, seats, last, eng, eng.load(table.state))
    broadcast.table_changed(table.pk, table.version, force=True, envelopes=views)
    return views


# -- chat (PF-34) -------------------------------------------------------------------
def post_chat(*, table_id: int, player: Player | None, text: Any, now: datetime | None = None) -> ChatMessage:
    """A seated player's message: 1–300 characters, 5 per 10 s, not while muted.

    Spectators read the chat but do not write (docs/decisions.md). Cleaned as names and titles
    are (``accounts.names.clean_text``: NFKC, spaces made one, invisible and bidi characters
    refused: issue 26); every page and client still escapes it on output.
    """
    moment = _now(now)
    text = _clean_chat(text)
    with transaction.atomic():
        table = _lock_live(table_id)
        seat = _seat_of(table, player)
        if seat is None or player is None:
            raise TableError("spectator")
        if seat.muted:
            raise TableError("muted")
        since = moment - timedelta(seconds=CHAT_WINDOW_SECONDS)
        recent = ChatMessage.objects.filter(table=table, player_key=player.key, at__gt=since).count()
        if recent >= CHAT_MESSAGES_PER_WINDOW:
            raise TableError("chat_rate_limited")
        if ChatMessage.objects.filter(table=table).count() >= MAX_CHAT_MESSAGES:
            raise TableError("chat_full")
        message = ChatMessage.objects.create(
            table=table, player_key=player.key, name=seat.name, text=text, at=moment
        )
        table.last_activity_at = moment
        table.save(update_fields=["last_activity_at"])
        broadcast.chat_posted(table.pk, table.version, chat_message_dict(message))
        return message


def _clean_chat(text: Any) -> str:
    if not isinstance(text, str):
        raise TableError("chat_empty")
    try:
        text = clean_text(text, max_length=CHAT_MAX_CHARS)
    except ValidationError as exc:
        raise TableError("chat_too_long" if exc.code == "too_long" else "chat_invalid") from None
    if not text:
        raise TableError("chat_empty")
    return text


def chat_message_dict(message: ChatMessage) -> dict[str, Any]:
    """A chat line as clients get it; a guest's is marked so nobody passes for an account (PF-61)."""
    return {
        "id": message.pk,
        "name": message.name,
        "guest": message.player_key.startswith("guest:"),
        "text": message.text,
        "at": int(message.at.timestamp() * 1000),
    }


# -- invitations (PF-14, PF-61) -------------------------------------------------------
def invite(*, table_id: int, sender: Player | None, username: Any, now: datetime | None = None) -> Invitation:
    """A seated user invites a registered player by username; the invitee hears it live."""
    moment = _now(now)
    if sender is None or not sender.is_user:
        raise TableError("login_required")
    if not isinstance(username, str) or not username.strip() or len(username) > 40:
        raise TableError("unknown_user")
    recipient = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if recipient is None:
        raise TableError("unknown_user")
    if recipient.pk == sender.user_id:
        raise TableError("self_invite")
    with transaction.atomic():
        table = _lock_live(table_id)
        if _seat_of(table, sender) is None:
            raise TableError("not_seated")
        if table.mode != Table.Mode.FRIENDS:
            raise TableError("bad_mode")
        _require_waiting(table)
        if table.seats.filter(user_id=recipient.pk).exists():
            raise TableError("already_seated")
        Invitation.objects.filter(
            table=table, recipient=recipient, status=Invitation.Status.PENDING, expires_at__lte=moment
        ).update(status=Invitation.Status.EXPIRED)
        if Invitation.objects.filter(
            table=table, recipient=recipient, status=Invitation.Status.PENDING
        ).exists():
            raise TableError("already_invited")
        pending = Invitation.objects.filter(
            sender_id=sender.user_id, status=Invitation.Status.PENDING, expires_at__gt=moment
        )
        if pending.count() >= MAX_PENDING_INVITATIONS:
            raise TableError("too_many_invitations")
        invitation = Invitation.objects.create(
            table=table,
            sender_id=sender.user_id,
            recipient=recipient,
            created_at=moment,
            expires_at=moment + timedelta(minutes=INVITATION_MINUTES),
        )
        broadcast.to_user(recipient.pk, {"type": "invitation", "invitation": invitation_dict(invitation)})
        return invitation


def respond_invitation(
    *, invitation_id: Any, player: Player | None, accept: bool, now: datetime | None = None
) -> Seat | None:
    """The invitee accepts (sits, or watches if the room filled or started) or declines."""
    moment = _now(now)
    if player is None or not player.is_user:
        raise TableError("login_required")
    if isinstance(invitation_id, bool) or not isinstance(invitation_id, int):
        raise TableError("no_such_invitation")
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .filter(pk=invitation_id, recipient_id=player.user_id)
            .select_related("table")
            .first()
        )
        if invitation is None:
            raise TableError("no_such_invitation")
        if invitation.status != Invitation.Status.PENDING or invitation.expires_at <= moment:
            raise TableError("invitation_closed")
        invitation.status = Invitation.Status.ACCEPTED if accept else Invitation.Status.DECLINED
        invitation.save(update_fields=["status"])
        # the invitee's other tabs drop it too, and the host sees the answer
        broadcast.to_users(
            [invitation.sender_id, invitation.recipient_id],
            {"type": "invitation", "invitation": invitation_dict(invitation)},
        )
        if not accept:
            return None
        return join_room(table_id=invitation.table_id, player=player, now=moment)


# -- closing (PF-54) -----------------------------------------------------------------------
def close_idle_rooms(*, now: datetime | None = None) -> int:
    """Close every room with no move or chat for 4 hours (PF-54); their codes are free again.

    A game abandoned mid-way is not settled; a buy-in pot still open is refunded through
    the economy (PF-18). A started buy-in game is left to an admin's explicit abort
    (``matchmaking.online.abort_table``): nobody else takes a started entry back (PF-63).
    """
    from economy.services import cancel_pot

    moment = _now(now)
    cutoff = moment - timedelta(hours=IDLE_HOURS)
    closed = 0
    for table_id in Table.objects.filter(status__in=LIVE_STATUSES, last_activity_at__lt=cutoff).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            table = _lock(table_id, skip_locked=True)
            if table is None or table.status == Table.Status.CLOSED or table.last_activity_at >= cutoff:
                continue
            if table.status == Table.Status.FINISHED and table.settled_at is None:
                continue  # settle first; the next pass closes it
            if table.pot_id is not None and table.status == Table.Status.PLAYING:
                logging.getLogger(__name__).error(
                    "buy-in table %s idle in play: an admin must abort it", table.pk
                )
                continue
            if table.pot_id is not None and table.status == Table.Status.WAITING:
                cancel_pot(pot=table.pot_id)
            _close(table, moment)
            closed += 1
    return closed
