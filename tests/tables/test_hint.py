"""A hint: the normal bot's choice for the viewer's turn, told and not played (issue 25, section 7;
docs/protocol.md, the ``hint`` frame)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from accounts.identity import Player
from cardgames import bots
from cardgames.engines import get_engine
from cardgames.tables import protocol, selectors, services
from cardgames.tables.errors import TableError
from cardgames.tables.models import ActionLog, Table
from tests.tables.helpers import Clock, started_table, user_player
from tests.tables.test_socket import Client_, signed_in, started_practice


def _to_turn(table: Table, seat: int, clock: Clock) -> tuple[Table, Any]:
    """Wake the table (the bots play) until ``seat`` may act: the table and its state."""
    eng = get_engine(table.game)
    for _ in range(200):
        table.refresh_from_db()
        state = eng.load(table.state)
        if seat in eng.to_act(state) and eng.legal_actions(state, seat):
            return table, state
        services.wake_table(table_id=table.pk, now=clock.tick(1.1))
    raise AssertionError("the seat never got the turn")


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["guandan", "one_card"])
def test_a_hint_is_the_normal_bots_choice_from_the_seats_view_and_nothing_is_played(game: str) -> None:
    clock = Clock()
    ana = user_player("ana")
    table, state = _to_turn(started_table(game, ana, clock), 0, clock)
    eng = get_engine(game)
    rows = ActionLog.objects.filter(table=table).count()

    version, action = selectors.hint_for(table=table, viewer=ana)

    expected = bots.decide(
        game,
        "normal",
        eng.view(state, 0),
        eng.legal_actions(state, 0),
        rng=bots.bot_rng(table.pk, 0, table.version),
        memory=None,
    ).action
    assert version == table.version and action == expected and action in eng.legal_actions(state, 0)
    assert selectors.hint_for(table=table, viewer=ana) == (version, action)  # asked again: the same
    table.refresh_from_db()
    assert table.version == version and ActionLog.objects.filter(table=table).count() == rows


@pytest.mark.django_db
def test_a_hint_is_refused_off_turn_to_a_spectator_and_outside_the_game() -> None:
    clock = Clock()
    ana, mira = user_player("ana"), user_player("mira")
    table = started_table("guandan", ana, clock)
    eng = get_engine("guandan")
    table, state = _to_turn(table, 0, clock)
    services.submit_action(
        table_id=table.pk,
        player=ana,
        action=eng.legal_actions(state, 0)[-1],
        action_id="a",
        version=table.version,
        now=clock.now,
    )
    table.refresh_from_db()
    for viewer, code in ((ana, "not_your_turn"), (mira, "spectator")):
        with pytest.raises(TableError) as refused:
            selectors.hint_for(table=table, viewer=viewer)
        assert refused.value.code == code
    waiting = services.create_room(player=mira, game="guandan", mode="friends", now=clock.now)
    with pytest.raises(TableError) as refused:
        selectors.hint_for(table=waiting, viewer=mira)
    assert refused.value.code == "not_playing"


def test_the_hint_frame_parses_and_its_answer_carries_the_version() -> None:
    assert protocol.parse_client_frame('{"type": "hint"}').type == "hint"
    assert protocol.hint_frame(7, None) == {"type": "hint", "version": 7, "action": None}


@sync_to_async
def _wake_until_turn(table_id: int, seat: int) -> int:
    """Let the bots play until ``seat`` may act: the table's version then."""
    table = Table.objects.get(pk=table_id)
    table, _ = _to_turn(table, seat, Clock(timezone.now()))
    connection.close()
    return table.version


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_hint_over_the_socket_is_answered_counted_by_the_rate_limit_and_refused_to_spectators() -> (
    None
):
    ana, ana_cookie = await signed_in("Ana")
    _mira, mira_cookie = await signed_in("Mira")
    table_id = await started_practice(ana, "guandan", bot_level="easy")
    version = await _wake_until_turn(table_id, 0)
    code = await sync_to_async(lambda: Table.objects.get(pk=table_id).code)()  # Mira has the link
    host, spectator = Client_(table_id, ana_cookie), Client_(table_id, mira_cookie, code=code)
    assert await host.connect() and await spectator.connect()
    await host.until_version(version)
    legal = await sync_to_async(_legal_of)(table_id, ana)

    await host.send({"type": "hint"})
    hint = await host.until(lambda f: f.get("type") in ("hint", "error"))
    assert hint["type"] == "hint" and hint["version"] == version and hint["action"] in legal

    await spectator.send({"type": "hint"})
    refused = await spectator.until(lambda f: f.get("type") in ("hint", "error"))
    assert refused["type"] == "error" and refused["code"] == "spectator"

    for _ in range(protocol.RATE_FRAMES + 2):  # hints count as frames: a flood is refused
        await host.send({"type": "hint"})
    answers = [
        await host.until(lambda f: f.get("type") in ("hint", "error"))
        for _ in range(protocol.RATE_FRAMES + 2)
    ]
    assert {a.get("code") for a in answers} >= {"rate_limited"}
    assert all(a["action"] == hint["action"] for a in answers if a["type"] == "hint")
    await asyncio.sleep(0)
    await host.close()
    await spectator.close()


def _legal_of(table_id: int, player: Player) -> list[dict[str, Any]]:
    table = Table.objects.get(pk=table_id)
    eng = get_engine(table.game)
    seat = selectors.seat_for(table, player)
    assert seat is not None
    legal = eng.legal_actions(eng.load(table.state), seat.index)
    connection.close()
    return legal
