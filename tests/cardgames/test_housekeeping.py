"""Issue 26 item 10: a daily beat task purges expired sessions and guests' leftovers.

Guest identities are free and live in the session (PF-61): without a purge, sessions and the
closed practice rooms of guests pile up for ever. Rooms an account sat at are history
(their players' game lists, the league, ratings, pots) and stay.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db.models import Max

from cardgames import housekeeping, tasks
from cardgames.tables import services
from cardgames.tables.models import ActionLog, ChatMessage, GameResult, Seat, Table
from config.celery import app
from tests.tables.helpers import Clock, guest_player, play_out, started_table, user_player

pytestmark = pytest.mark.django_db(transaction=True)  # settlement runs on commit


def _bots_game(player, clock: Clock) -> Table:  # type: ignore[no-untyped-def]
    """``player``'s practice game against a bot, played to the end, with a chat line."""
    table = services.create_room(
        player=player, game="pika", mode="bots", players=2, bot_level="easy", now=clock.now
    )
    table = services.start_table(table_id=table.pk, player=player, now=clock.now)
    services.post_chat(table_id=table.pk, player=player, text="hola", now=clock.now)
    return play_out(table, {0: player}, clock)


def test_pf61_the_daily_task_drops_expired_sessions_and_closed_rooms_no_account_sat_at() -> None:
    # given an expired session and a live one
    expired, live = SessionStore(), SessionStore()
    expired["tapete_guest"] = {"id": "old", "name": "Ana"}
    expired.set_expiry(-60)
    expired.save()
    live["tapete_guest"] = {"id": "new", "name": "Bea"}
    live.save()
    # and rooms: a guest's finished practice game and a guest's friends room, closed (PF-54) ...
    clock = Clock()
    guest = guest_player("Ana", "old")
    guest_game = _bots_game(guest, clock)
    guest_room = started_table("one_card", guest_player("Cris", "g2"), clock, players=2)
    # ... an account's practice game, closed too, and a guest's room still open
    member_game = _bots_game(user_player("Dani"), clock)
    assert GameResult.objects.filter(table__in=[guest_game, member_game]).count() == 2
    assert services.close_idle_rooms(now=clock.tick(5 * 3600)) == 3
    open_room = services.create_room(
        player=guest_player("Eva", "g3"), game="skyjo", mode="bots", now=clock.now
    )
    gone = [guest_game.pk, guest_room.pk]
    idle_since = Table.objects.filter(pk__in=gone).aggregate(last=Max("last_activity_at"))["last"]

    # when the housekeeping runs within a session's life of their last move: no room goes
    retention = timedelta(seconds=settings.SESSION_COOKIE_AGE)
    assert housekeeping.daily(now=idle_since + retention - timedelta(hours=1)) == {
        "sessions": 1,
        "guest_tables": 0,
    }
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]

    # when it runs after that: the guests' closed rooms go, with every row that hangs on them
    assert housekeeping.daily(now=idle_since + retention + timedelta(hours=1)) == {
        "sessions": 0,
        "guest_tables": 2,
    }
    assert not Table.objects.filter(pk__in=gone).exists()
    for model in (Seat, ActionLog, ChatMessage, GameResult):
        assert not model.objects.filter(table_id__in=gone).exists(), model
    # and the account's game (its history) and the open room stay
    assert set(Table.objects.values_list("pk", flat=True)) == {member_game.pk, open_room.pk}
    assert GameResult.objects.filter(table=member_game).exists()
    assert ActionLog.objects.filter(table=member_game).exists()
    # and a second run finds nothing more (safe to run twice)
    assert housekeeping.daily(now=idle_since + retention + timedelta(hours=2)) == {
        "sessions": 0,
        "guest_tables": 0,
    }


def test_the_housekeeping_runs_daily_from_beat() -> None:
    entry = app.conf.beat_schedule["housekeeping-daily"]
    assert entry["task"] == tasks.daily_housekeeping.name == "housekeeping.daily"
    assert entry["schedule"].hour == {4} and entry["schedule"].minute == {23}  # once a day
    assert tasks.daily_housekeeping() == {"sessions": 0, "guest_tables": 0}
