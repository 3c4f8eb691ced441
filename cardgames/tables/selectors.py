"""Reads of live tables: each viewer's envelope, chat, replays, the shuffle verifier.

A view is always computed for its viewer by the engine (``engine.view(state, seat)``,
spectators ``seat=None``) and wrapped in one envelope shared by the five games, so the
browser shell is common (docs/protocol.md). Nothing here writes.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.identity import Player
from cardgames import bots
from cardgames.engines import IllegalAction, get_engine

from . import access, envelope_parts, envelopes, statements
from .errors import TableError
from .models import ActionLog, ChatMessage, Invitation, Seat, Table
from .services import IDLE_HOURS, chat_message_dict, invitation_dict

CHAT_HISTORY = 50
#: the bot whose choice a hint is (issue 25, section 7: "the normal bot's choice")
HINT_LEVEL = "normal"
#: the move log sent on a full snapshot holds at most this many moves of the current deal (a long
#: One Card game has about 400), read this many rows at a time
MAX_LOG_ENTRIES = 500
LOG_CHUNK = 100


def get_table(table_id: Any) -> Table:
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise TableError("no_such_table")
    table = statements.table(table_id)
    if table is None:
        raise TableError("no_such_table")
    return table


def table_version(table_id: int) -> int | None:
    """The table's version alone (None if there is no such table): what a heartbeat compares."""
    return statements.version(table_id)


def seat_for(table: Table, player: Player | None) -> Seat | None:
    if player is None:
        return None
    return next((s for s in statements.seats(table) if s.player_key == player.key), None)


def table_view_for(*, table: Table, viewer: Player | None) -> dict[str, Any]:
    """The envelope for ``viewer`` (None: an anonymous spectator) at the table's current version."""
    last = envelopes.shown_move(table, statements.last_action(table))
    return envelopes.envelope_for(table, statements.seats(table), last, viewer.key if viewer else None)


def hint_for(*, table: Table, viewer: Player | None) -> tuple[int, dict[str, Any] | None]:
    """(the table's version, the move the normal bot would make for ``viewer``'s seat now, not
    made): the bot sees only the seat's view and legal actions, with no memory, and the dice a bot
    of that seat would have at this version, so asking again at the same version answers the same.
    None when the bot would let the moment pass (a window it need not use). Refused to a spectator
    (``spectator``), before or after the game (``not_playing``) and off turn (``not_your_turn``)."""
    seat = seat_for(table, viewer)
    if seat is None:
        raise TableError("spectator")
    if table.status != Table.Status.PLAYING or table.state is None:
        raise TableError("not_playing")
    eng = get_engine(table.game)
    state = eng.load(table.state)
    legal = eng.legal_actions(state, seat.index) if seat.index in eng.to_act(state) else []
    if not legal:
        raise TableError("not_your_turn")
    move = bots.decide(
        table.game,
        HINT_LEVEL,
        eng.view(state, seat.index),
        legal,
        rng=bots.bot_rng(table.pk, seat.index, table.version),
        memory=None,
    )
    return table.version, move.action


def deal_log(*, table: Table, viewer: Player | None, version: int) -> list[dict[str, Any]]:
    """The move log of the current deal (or round) up to ``version``, newest first, as ``viewer``
    may know it (docs/protocol.md, "The move log"): from the newest row back to the row that dealt
    it (``movelog.starts_deal``), at most ``MAX_LOG_ENTRIES`` moves."""
    seat = seat_for(table, viewer)
    index = seat.index if seat is not None else None
    rows = (
        ActionLog.objects.filter(table=table, seq__lte=version)
        .order_by("-seq")
        .only("seq", "seat", "action", "events", "source")
    )
    return envelope_parts.deal_entries(
        rows.iterator(chunk_size=LOG_CHUNK), table.game, index, limit=MAX_LOG_ENTRIES
    )


def chat_history(*, table: Table | int, limit: int = CHAT_HISTORY) -> list[dict[str, Any]]:
    """The room's last messages, oldest first (``table``: the Table or its id)."""
    messages = list(ChatMessage.objects.filter(table=table).order_by("-id")[:limit])
    return [chat_message_dict(m) for m in reversed(messages)]


def pending_invitations(*, user_id: int) -> QuerySet[Invitation]:
    """The user's invitations still worth answering: pending, not expired, to a room that has not
    started or closed (the services expire those, this also covers rows older than that rule)."""
    return (
        Invitation.objects.filter(
            recipient_id=user_id,
            status=Invitation.Status.PENDING,
            expires_at__gt=timezone.now(),
            table__status=Table.Status.WAITING,
        )
        .select_related("table", "sender", "recipient")
        .order_by("-created_at")
    )


def pending_invitation_dicts(*, user_id: int) -> list[dict[str, Any]]:
    return [invitation_dict(i) for i in pending_invitations(user_id=user_id)]


def running_tables(*, player: Player) -> QuerySet[Table]:
    """The live tables where ``player`` holds a seat (to go back to)."""
    return (
        Table.objects.filter(seats__player_key=player.key)
        .exclude(status=Table.Status.CLOSED)
        .order_by("-last_activity_at")
    )


def tables_to_go_back_to(*, player: Player, now: datetime | None = None) -> QuerySet[Table]:
    """The rooms and games ``player`` sits at that are still live (issue 25 item 5): waiting or in
    play, with a code, and not idle past PF-54's 4 hours (closed by the next sweep) — except a
    started buy-in game, which only an admin ends (PF-63). A finished game is history, not a table."""
    cutoff = (now or timezone.now()) - timedelta(hours=IDLE_HOURS)
    return (
        running_tables(player=player)
        .filter(status__in=(Table.Status.WAITING, Table.Status.PLAYING))
        .exclude(code=None)
        .filter(Q(last_activity_at__gte=cutoff) | Q(pot__isnull=False, status=Table.Status.PLAYING))
    )


# -- after the game: replay and the shuffle verifier -------------------------------------
def replay_states(table: Table) -> list[tuple[ActionLog | None, Any]]:
    """Every state of the game, rebuilt from the seed and the log: (log row or None for the deal, state)."""
    eng = get_engine(table.game)
    state = eng.new_game(table.num_players, seed=table.seed, options=table.options)
    states: list[tuple[ActionLog | None, Any]] = [(None, state)]
    for row in ActionLog.objects.filter(table=table).order_by("seq"):
        state, _events = eng.apply(state, row.seat, row.action)
        states.append((row, state))
    return states


def replay_for(*, table: Table, viewer: Player | None) -> dict[str, Any]:
    """A finished game step by step, as ``viewer`` was entitled to see each step.

    A seated player sees their own seat's view at every step, everyone else the
    spectator's; the engines decide what a view shows (e.g. hands revealed at the end).
    """
    if table.status not in (Table.Status.FINISHED, Table.Status.CLOSED) or table.state is None:
        raise TableError("not_finished")
    eng = get_engine(table.game)
    mine = seat_for(table, viewer)
    index = mine.index if mine is not None else None
    steps = []
    for row, state in replay_states(table):
        steps.append(
            {
                "seq": row.seq if row else 0,
                "seat": row.seat if row else None,
                "type": row.action.get("type") if row else "deal",
                "source": row.source if row else None,
                "at": envelope_parts.ms(row.at.timestamp()) if row else None,
                "view": eng.view(state, index),
            }
        )
    return {
        "id": table.pk,
        "game": table.game,
        "seat": index,
        "seats": [{"seat": s.index, "name": s.name, "kind": s.kind} for s in table.seats.all()],
        "result": table.result,
        "steps": steps,
    }


def verify_table(*, table: Table) -> dict[str, Any]:
    """The public shuffle check: the revealed seed hashes to the published commitment, and the
    action log replayed from that seed reaches the stored final state."""
    if table.status not in (Table.Status.FINISHED, Table.Status.CLOSED) or table.state is None:
        raise TableError("not_finished")
    eng = get_engine(table.game)
    seed_ok = hashlib.sha256(table.seed.encode()).hexdigest() == table.seed_hash
    actions = ActionLog.objects.filter(table=table).count()
    try:
        final = replay_states(table)[-1][1]
    except (IllegalAction, ValueError):  # the log does not replay from this seed: a tampered game
        final = None
    replay_ok = final is not None and eng.dump(final) == table.state
    return {
        "id": table.pk,
        "game": table.game,
        "seed": table.seed,
        "seed_hash": table.seed_hash,
        "seed_matches_hash": seed_ok,
        "actions": actions,
        "replay_matches_final_state": replay_ok,
        "result_matches": replay_ok and eng.is_over(final) and eng.result(final) == table.result,
        "ok": seed_ok and replay_ok,
    }


# -- after the game: a player's finished games (the profile's «Partidas») -----------------------
def finished_games(*, user_id: int) -> QuerySet[Any]:
    """The finished games where the user held a seat (``GameResult`` rows), newest first."""
    from .models import GameResult

    return (
        GameResult.objects.filter(table__seats__user_id=user_id)
        .select_related("table")
        .order_by("-finished_at", "-pk")
    )


def finished_games_shown_to(*, user_id: int, viewer: Player | None) -> QuerySet[Any]:
    """The user's finished games that ``viewer`` may see (another player's page): online and
    buy-in games, rooms where the viewer sat too; staff see all (issue 26, ``access``)."""
    games = finished_games(user_id=user_id)
    if access.is_staff(viewer):
        return games
    shown = Q(table__mode__in=access.PUBLIC_MODES)
    if viewer is not None:
        shown |= Q(table__in=Table.objects.filter(seats__player_key=viewer.key))
    return games.filter(shown)
