"""Moves through the table service: versions, action ids, spectators, illegal actions, timers by
id and PF-63's absent players, bots asked once per version with PF-50's reaction times."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.identity import Player
from cardgames.engines import get_engine
from cardgames.tables import services
from cardgames.tables.models import ActionLog, Table
from tests.tables.helpers import Clock, started_table, user_player
from tests.tables.test_rooms import refused

pytestmark = pytest.mark.django_db


def _state(table: Table):  # type: ignore[no-untyped-def]
    table.refresh_from_db()
    return get_engine(table.game).load(table.state)


def _until_turn_of(table: Table, seat: int, clock: Clock, step: float = 1.1) -> None:
    """Let the bots play (waking the table as the sweeper would) until ``seat`` must act."""
    eng = get_engine(table.game)
    for _ in range(500):
        if seat in eng.to_act(_state(table)) and eng.legal_actions(_state(table), seat):
            return
        services.wake_table(table_id=table.pk, now=clock.tick(step))
    raise AssertionError("the seat's turn never came")


def _act(table: Table, player: Player, action: dict[str, object], clock: Clock, action_id: str = "a") -> None:
    version = table.version
    services.submit_action(
        table_id=table.pk, player=player, action=action, action_id=action_id, version=version, now=clock.now
    )


def test_stale_duplicate_spectator_and_illegal_actions_change_nothing() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    _until_turn_of(table, 0, clock)
    state = _state(table)
    legal = [dict(a) for a in get_engine("one_card").legal_actions(state, 0)]
    hand = get_engine("one_card").view(state, 0)["hand"]
    not_held = next(c for c in sorted(get_engine("one_card").card_codes) if c not in hand)
    version, rows = table.version, ActionLog.objects.count()

    def submit(action: object, version: object, action_id: str = "x", table_id: object = table.pk) -> None:
        services.submit_action(
            table_id=table_id, player=ana, action=action, action_id=action_id, version=version
        )

    with refused("stale"):
        submit(legal[0], version - 1)
    with refused("spectator"):
        services.submit_action(
            table_id=table.pk, player=user_player("Mira"), action=legal[0], action_id="x", version=version
        )
    with refused("illegal_card"):
        submit({"type": "play", "card": not_held}, version)
    with refused("bad_action"):
        submit({"nope": 1}, version)
    with refused("no_such_table"):
        submit(legal[0], version, table_id="1")
    table.refresh_from_db()
    assert (table.version, ActionLog.objects.count()) == (version, rows)
    _act(table, ana, legal[0], clock, action_id="once")
    with refused("duplicate"):  # the same action id again, whatever version it names
        submit(legal[0], version + 1, action_id="once")
    assert ActionLog.objects.filter(table=table, action_id="once").count() == 1


def test_a_turn_timeout_plays_the_automatic_action_only_at_its_own_deadline() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    _until_turn_of(table, 0, clock)
    table.refresh_from_db()
    turn = next(t for t in get_engine("one_card").timers(_state(table)) if t["name"] == "turn")
    start = table.timer_starts[turn["id"]]
    version = table.version
    services.wake_table(table_id=table.pk, now=clock.tick(29))  # 29 s: nothing is due
    table.refresh_from_db()
    assert table.version == version
    services.wake_table(table_id=table.pk, now=clock.tick(1.0))  # 30 s: the automatic action (OC-46)
    row = ActionLog.objects.get(table=table, seq=version + 1)
    assert (row.source, row.timer_id, row.seat) == ("timeout", turn["id"], 0)
    assert row.action == {"type": "timeout", "timer": "turn"}
    assert clock.now.timestamp() - start == pytest.approx(30)
    assert table.seats.get(index=0).timeouts_in_row == 1


def test_a_late_wake_for_an_old_turn_never_plays_a_later_turn() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    _until_turn_of(table, 0, clock)
    first_turn_start = clock.now
    clock.tick(20)
    _act(table, ana, dict(get_engine("one_card").legal_actions(_state(table), 0)[0]), clock)
    _until_turn_of(table, 0, clock, step=1.1)  # the bot plays; Ana's next turn has a new timer id
    table.refresh_from_db()
    version = table.version
    # a countdown task for the first turn's deadline fires then: nothing of the new turn is due
    assert clock.now < first_turn_start + timedelta(seconds=30)
    services.wake_table(table_id=table.pk, now=first_turn_start + timedelta(seconds=30))
    table.refresh_from_db()
    assert table.version == version
    assert not ActionLog.objects.filter(table=table, source="timeout").exists()


def test_pf63_two_timeouts_in_a_row_bring_a_stand_in_bot_and_the_player_takes_the_seat_back() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("pika", ana, clock, players=2)
    # her page stays open while she looks away (with nobody at all there, the table would wait for
    # her instead: test_absence.py)
    services.mark_connected(table_id=table.pk, player=ana, connected=True)
    for expected in (1, 2):
        _until_turn_of(table, 0, clock)
        services.wake_table(table_id=table.pk, now=clock.tick(30))
        seat = table.seats.get(index=0)
        assert seat.timeouts_in_row == expected
    assert seat.stand_in
    # the stand-in bot now plays Ana's turns at a bot's pace (PF-63): within a few 1.1 s wakes, long
    # before her turn's 30 s; a wake makes one bot move, and the other bot's may be due first (its
    # Pika! call, as in the deal of seed 133)
    _until_turn_of(table, 0, clock)
    for _ in range(5):
        services.wake_table(table_id=table.pk, now=clock.tick(1.1))
        if ActionLog.objects.filter(table=table, seat=0, source="bot").exists():
            break
    else:
        raise AssertionError("the stand-in never played Ana's turn")
    # she comes back: the seat is hers again
    services.mark_connected(table_id=table.pk, player=ana, connected=True)
    seat.refresh_from_db()
    assert not seat.stand_in and seat.timeouts_in_row == 0 and seat.connections == 2


def test_a_move_by_the_player_resets_the_timeout_count() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("pika", ana, clock, players=2)
    _until_turn_of(table, 0, clock)
    services.wake_table(table_id=table.pk, now=clock.tick(30))
    _until_turn_of(table, 0, clock)
    _act(table, ana, dict(get_engine("pika").legal_actions(_state(table), 0)[0]), clock)
    assert table.seats.get(index=0).timeouts_in_row == 0


def test_bots_move_once_per_version_after_a_think_delay() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("skyjo", ana, clock, players=3)  # everyone reveals at once: bots first
    version = table.version
    services.wake_table(table_id=table.pk, now=clock.tick(0.5))  # before the think delay: nothing
    table.refresh_from_db()
    assert table.version == version
    moment = clock.tick(0.6)
    for _ in range(3):  # asked again and again at one moment: one move
        services.wake_table(table_id=table.pk, now=moment)
    table.refresh_from_db()
    assert table.version == version + 1
    assert ActionLog.objects.get(table=table, seq=version + 1).action_id == f"bot:{version}"


def test_pf50_a_hard_bot_catches_a_forgotten_call_after_its_reaction_time() -> None:
    """OC-38/PF-50: Ana never calls One Card; the hard bot's catch comes 1.2 s after the window opens."""
    clock = Clock()
    ana = user_player("Ana")
    eng = get_engine("one_card")
    for _game in range(10):  # some deals end before Ana is down to one card
        table = started_table("one_card", ana, clock, players=2, level="hard")
        for _ in range(3000):
            table.refresh_from_db()
            if table.status != Table.Status.PLAYING:
                break
            state = eng.load(table.state)
            if 0 in eng.to_act(state):
                turn = [dict(a) for a in eng.legal_actions(state, 0) if a["type"] in ("play", "draw")]
                if turn:
                    _act(table, ana, turn[0], clock, action_id=f"a{table.version}")
                    continue
            services.wake_table(table_id=table.pk, now=clock.tick(0.1))
            catch = ActionLog.objects.filter(table=table, source="bot", action__type="catch").first()
            if catch is not None:
                opened = ActionLog.objects.filter(table=table, seat=0, seq__lt=catch.seq).last()
                assert opened is not None and any(e.get("type") == "window" for e in opened.events)
                waited = (catch.at - opened.at).total_seconds()
                assert 1.2 <= waited < 1.2 + 0.11
                return
    pytest.fail("Ana never went down to one card without calling")


def test_a_move_costs_five_statements_in_its_transaction() -> None:
    """Lock the table, read its seats once, the action-id dedupe, log the action, save the table:
    every extra round trip is paid on every move of every table (docs/performance.md)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    clock = Clock()
    ana = user_player("Ana")
    table = started_table("skyjo", ana, clock)
    action = get_engine("skyjo").legal_actions(_state(table), 0)[0]
    with CaptureQueriesContext(connection) as queries:
        _act(table, ana, action, clock)
    statements = [q["sql"].split()[0] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert statements == ["SELECT", "SELECT", "SELECT", "INSERT", "UPDATE"]
