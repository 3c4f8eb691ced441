"""A practice table against bots, kept by the player's own browser (PF-13, PF-62).

The live table service (``cardgames/tables/services.py``) keeps a table in the database; this is
the same table with no database: one person at seat 0, bots in the others, the state, the log
and the bots' memories in one JSON-serializable dataclass that the browser stores in IndexedDB.
It follows the live service's rules of play step for step, through the same pure modules:

- moves are the engine's (``engine.apply``), refused with the engine's code and nothing changed;
- timers are known by id and lapse by ``flow.due`` (windows and pauses: practice has no turn
  clock, as the live bots rooms, ``tables/core.engine_options``);
- bots are asked once per version with the live dice (``bots.bot_rng`` on the practice table's
  key), their memory kept on the seat, a One Card catch after the level's reaction (PF-50);
- the envelope and the move log are built by ``tables.envelope_parts``, so the table page draws a
  practice table with the very code that draws a live one.

Nothing here is money, XP, league or rating: a practice table is never sent to the server (PF-13).
Time enters as ``now`` (epoch seconds, the browser's clock) and the bots' budget with its clock.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final

from cardgames import bots
from cardgames.catalogue import CatalogueError, clean_options
from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.base import Engine
from cardgames.engines.guandan.cards import level_number, parse_level
from cardgames.tables import envelope_parts, flow, movelog
from cardgames.tables.protocol import PROTOCOL_VERSION

#: the practice table's mode on the wire (the table page's words and exits depend on it)
MODE: Final[str] = "practice"
#: the person's seat: the one who opened the practice table sits first, as a live room's host
YOU: Final[int] = 0
#: moves kept in a deal's log frame (the live selector's limit)
MAX_LOG_ENTRIES: Final[int] = 500
#: a practice table stores its log for the move log and the result; a long Guandan match stays
#: far below this, and past it the oldest deals' rows go (only the current deal is ever shown)
MAX_ROWS: Final[int] = 5000
#: how long a bot "thinks" before it moves: the live tables' pace, so a person can follow
THINK_SECONDS: Final[float] = flow.THINK_SECONDS
#: the person's seat name when the page gives none (the page gives "Jugador"/"Player", translated)
DEFAULT_NAME: Final[str] = "Jugador"
#: a seat name's length at most (a guest's name, accounts)
NAME_LENGTH: Final[int] = 20
#: guard against a bug looping forever inside one wake-up (the live service has the same)
MAX_WAKE_STEPS: Final[int] = 50

MESSAGES: Final[dict[str, str]] = {
    "not_playing": "La partida no está en juego.",
    "not_your_turn": "Ahora no es tu turno.",
    "stale": "La mesa ha cambiado: aquí tienes la situación actual.",
    "bad_level": "El nivel de un bot es fácil, normal o difícil.",
    "bad_options": "Opciones no válidas para este juego.",
    "bad_players": "Número de jugadores no válido para este juego.",
    "unknown_game": "Juego desconocido.",
    "bad_think": "El tiempo de los bots es un número de segundos entre 0 y 5.",
}


class PracticeError(ValueError):
    """A request the practice table refuses; nothing was changed. ``code`` is stable."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message or MESSAGES.get(code, code)
        super().__init__(self.message)


@dataclass
class LogRow:
    """One applied action, as the live ``ActionLog`` keeps it (``envelope_parts.Row``)."""

    seq: int
    seat: int | None
    action: dict[str, Any]
    events: list[Any]
    source: str  # "player", "bot" or "timeout", the live log's sources


@dataclass
class PracticeSeat:
    name: str
    kind: str  # "human" (the person) or "bot"
    level: str | None = None
    memory: dict[str, Any] = field(default_factory=dict)


@dataclass
class PracticeTable:
    """One practice game: its set-up, the engine's state (dumped) and what the live row keeps."""

    key: str  # the bots' dice are seeded on it, as on a live table's id
    game: str
    num_players: int
    options: dict[str, Any]
    seed: str
    seats: list[PracticeSeat]
    state: dict[str, Any]
    version: int = 0
    status: str = "playing"
    log: list[LogRow] = field(default_factory=list)
    timer_starts: dict[str, float] = field(default_factory=dict)
    bots_at: float | None = None
    think: float = THINK_SECONDS
    #: what the person chose (players, level, options): "Otra partida" deals the same again
    setup: dict[str, Any] = field(default_factory=dict)
    #: the person's seat played by a bot of the table's level too (bench/offline.py measures every
    #: bot move of a whole game in the browser); the page shows that game as the person's
    autoplay: bool = False

    # -- set-up and storage -------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        *,
        game: str,
        seed: str,
        now: float,
        players: Any = None,
        level: Any = "normal",
        options: Any = None,
        name: Any = None,
        think: Any = THINK_SECONDS,
        start_levels: Any = None,
        autoplay: Any = False,
    ) -> PracticeTable:
        """A new practice table, dealt at once: the person at seat 0, ``level`` bots elsewhere.

        ``players`` and ``options`` are checked like a live room's (the catalogue's choices);
        ``start_levels`` (Guandan) sets a match up late, as the live ``create_room`` does."""
        try:
            count, cleaned = clean_options(game, players, options)
        except CatalogueError as exc:
            raise PracticeError(exc.code) from None
        if level not in bots.LEVELS:
            raise PracticeError("bad_level")
        if isinstance(think, bool) or not isinstance(think, int | float) or not 0 <= think <= 5:
            raise PracticeError("bad_think")
        if not isinstance(autoplay, bool):
            raise PracticeError("bad_options")
        # the page gives the name in its language; anything else gets the default, cut to a seat's size
        name = name.strip()[:NAME_LENGTH] if isinstance(name, str) and name.strip() else DEFAULT_NAME
        # the person's choices, kept for "Otra partida": a match set up late starts afresh (as live)
        setup = {"players": count, "level": level, "options": dict(cleaned), "name": name, "think": think}
        if start_levels is not None:
            cleaned["levels"] = _start_levels(game, start_levels)
        engine_options = {**cleaned, "turn_seconds": None}  # no per-player clock against bots
        eng = get_engine(game)
        state = eng.new_game(count, seed=seed, options=engine_options)
        seats = [PracticeSeat(name, "human")] + [
            PracticeSeat(f"Bot {index}", "bot", level) for index in range(1, count)
        ]
        table = cls(
            key=f"practice:{seed}",
            game=game,
            num_players=count,
            options=engine_options,
            seed=seed,
            seats=seats,
            state=eng.dump(state),
            think=float(think),
            autoplay=autoplay,
            setup=setup,
        )
        table._settle_clock(eng, state, now)
        return table

    def dump(self) -> dict[str, Any]:
        """The whole table as JSON (the browser keeps it in IndexedDB)."""
        return asdict(self)

    @classmethod
    def load(cls, data: dict[str, Any]) -> PracticeTable:
        fields = dict(data)
        fields["seats"] = [PracticeSeat(**s) for s in data["seats"]]
        fields["log"] = [LogRow(**r) for r in data["log"]]
        return cls(**fields)

    # -- play -------------------------------------------------------------------------------------
    def act(self, action: Any, *, version: Any, now: float) -> None:
        """The person's move, made against ``version``: the engine checks it; refused moves
        (``stale``, ``not_playing``, the engine's codes) change nothing."""
        if self.status != "playing":
            raise PracticeError("not_playing")
        if version != self.version:
            raise PracticeError("stale")
        eng = get_engine(self.game)
        state = eng.load(self.state)
        try:
            state, events = eng.apply(state, YOU, action)
        except IllegalAction as exc:
            raise PracticeError(exc.code, exc.message) from None
        self._record(eng, state, YOU, dict(action), events, "player", now)

    def wake(self, now: float, *, budget: bots.Budget | None = None) -> bool:
        """Do what is due at ``now``: lapsed timers (by id), then one bot move; True if the table
        changed. Safe to call at any time, any number of times (the live ``wake_table``).
        ``budget``: the searching (hard) bots' thinking time per decision, with its clock."""
        if self.status != "playing":
            return False
        eng = get_engine(self.game)
        state = eng.load(self.state)
        changed = False
        for _ in range(MAX_WAKE_STEPS):
            lapsed = flow.due(eng.timers(state), self.timer_starts, now)
            if not lapsed or eng.is_over(state):
                break
            timer = lapsed[0]
            action = flow.timeout_action(timer)
            state, events = eng.apply(state, timer["seat"], action)
            self._record(eng, state, timer["seat"], action, events, "timeout", now)
            changed = True
        if self.bots_at is not None and self.bots_at <= now and not eng.is_over(state):
            changed = self._bots_move(eng, state, now, budget) or changed
        return changed

    def next_wake(self) -> float | None:
        """When ``wake`` next has something to do (epoch seconds), or None: waiting for the person."""
        if self.status != "playing":
            return None
        eng = get_engine(self.game)
        times = [
            t
            for t in (flow.next_deadline(eng.timers(eng.load(self.state)), self.timer_starts), self.bots_at)
            if t is not None
        ]
        return min(times) if times else None

    def hint(self, budget: bots.Budget | None = None) -> dict[str, Any] | None:
        """The normal bot's move for the person now (the live ``hint_for``), not made."""
        eng = get_engine(self.game)
        state = eng.load(self.state)
        if self.status != "playing" or YOU not in eng.to_act(state):
            raise PracticeError("not_your_turn")
        move = bots.decide(
            self.game,
            "normal",
            eng.view(state, YOU),
            eng.legal_actions(state, YOU),
            rng=bots.bot_rng(self.key, YOU, self.version),
            memory=None,
            budget=budget,
        )
        return move.action

    # -- what the person sees ------------------------------------------------------------------------
    def envelope(self, now: float) -> dict[str, Any]:
        """The person's envelope, in the live tables' shape (docs/protocol.md)."""
        eng = get_engine(self.game)
        state = eng.load(self.state)
        over = self.status != "playing"
        envelope: dict[str, Any] = {
            "protocol": PROTOCOL_VERSION,
            "id": None,
            "code": "",
            "game": self.game,
            "mode": MODE,
            "status": self.status,
            "version": self.version,
            "server_time": envelope_parts.ms(now),
            "num_players": self.num_players,
            "options": self.options,
            "you": {"seat": YOU, "role": "player"},
            "is_host": True,
            "seats": [self._seat_dict(index, seat) for index, seat in enumerate(self.seats)],
            "seed_hash": None,
            "seed": self.seed if over else None,
            "to_act": [],
            "timers": [],
            "legal": [],
            "plays": None,
            "result": None,
            "earnings": None,  # PF-13: practice earns nothing
            "rematch": None,
            "last": None,
            "view": None,
        }
        envelope_parts.fill_played(envelope, eng, state, self.timer_starts)
        envelope_parts.fill_view(envelope, self.game, eng, state, YOU, self._shown_row())
        return envelope

    def log_entries(self) -> list[dict[str, Any]]:
        """The current deal's move log, newest first (the live ``deal_log``)."""
        return envelope_parts.deal_entries(reversed(self.log), self.game, YOU, limit=MAX_LOG_ENTRIES)

    # -- the live service's steps ---------------------------------------------------------------------
    def _bots_move(self, eng: Engine, state: Any, now: float, budget: bots.Budget | None) -> bool:
        """Ask the bot seats in ``to_act`` (seat order) and apply the first move one makes; a catch
        waits for its level's reaction time (PF-50); all passing leaves it to the timers."""
        bot_seats = self._bot_seats()
        not_before: float | None = None
        for index in flow.wanted_bot_seats(eng.to_act(state), bot_seats):
            seat = self.seats[index]
            level = seat.level or self.setup.get("level") or "normal"
            move = bots.decide(
                self.game,
                level,
                eng.view(state, index),
                eng.legal_actions(state, index),
                rng=bots.bot_rng(self.key, index, self.version),
                memory=seat.memory,
                budget=budget,
            )
            seat.memory = move.memory
            if move.action is None:
                continue
            seconds = bots.reaction_seconds(self.game, level, move.action)
            ready_at = flow.reaction_ready_at(move.action, seconds, eng.timers(state), self.timer_starts)
            if ready_at is not None and ready_at > now:
                not_before = ready_at if not_before is None else min(not_before, ready_at)
                continue
            state, events = eng.apply(state, index, move.action)
            self._record(eng, state, index, move.action, events, "bot", now)
            return True
        self.bots_at = not_before
        return False

    def _record(
        self,
        eng: Engine,
        state: Any,
        seat: int | None,
        action: dict[str, Any],
        events: list[Any],
        source: str,
        now: float,
    ) -> None:
        self.version += 1
        self.log.append(LogRow(self.version, seat, dict(action), list(events), source))
        if len(self.log) > MAX_ROWS:
            del self.log[: len(self.log) - MAX_ROWS]
        self.state = eng.dump(state)
        self._settle_clock(eng, state, now)

    def _settle_clock(self, eng: Engine, state: Any, now: float) -> None:
        """After a change: the timers' starts, the bots' next ask, and the end of the game."""
        if eng.is_over(state):
            self.status = "finished"
            self.timer_starts, self.bots_at = {}, None
            return
        self.timer_starts = flow.sync_starts(eng.timers(state), self.timer_starts, now)
        bot_seats = self._bot_seats()
        wanted = flow.wanted_bot_seats(eng.to_act(state), bot_seats)
        self.bots_at = flow.bot_wake(now, delay=self.think) if wanted else None

    def _bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" or (self.autoplay and i == YOU)]

    def _shown_row(self) -> LogRow | None:
        """The newest row that is a move (a reorder or a return pick is nobody's last move)."""
        return next((row for row in reversed(self.log) if movelog.shown(self.game, row.action)), None)

    def _seat_dict(self, index: int, seat: PracticeSeat) -> dict[str, Any]:
        return {
            "seat": index,
            "name": seat.name,
            "kind": seat.kind,
            "level": seat.level,
            "connected": True,
            "stand_in": False,
            "host": index == YOU,
            "muted": False,
        }


def _start_levels(game: str, levels: Any) -> list[int]:
    """Both teams' levels for a Guandan match set up late (GD-3, GD-39), as the live rooms take them."""
    if game != "guandan" or not isinstance(levels, list | tuple) or len(levels) != 2:
        raise PracticeError("bad_options")
    try:
        return [level_number(parse_level(value)) for value in levels]
    except (ValueError, TypeError):
        raise PracticeError("bad_options") from None
