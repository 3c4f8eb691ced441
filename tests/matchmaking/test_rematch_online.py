"""The end of an online table (issue 25 items 4 and 5): its result carries each seat's coins, XP
and league points (PF-15, PF-57, PF-58, PF-60); "Buscar otra" queues the player again for the same
game, players and stake through the queue's own checks (the wallet too); "Salir de la mesa" keeps
PF-63's rule (the seat and a buy-in entry stay)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cardgames.matchmaking.models import QueueEntry
from cardgames.tables import endgame, selectors, settlement
from cardgames.tables.models import Table
from economy.services import adjust_wallet
from economy.services.common import UserRef
from tests.matchmaking.test_online_tables import coins, queue_and_wave
from tests.tables.helpers import play_out
from tests.tables.test_rooms import refused

pytestmark = pytest.mark.django_db


def finished_online(people, clock, *, stake: int = 0) -> Table:
    table = queue_and_wave(people, clock, "one_card", 2, stake=stake)
    assert table.status == "playing"
    with refused("not_finished"):
        endgame.rematch(table_id=table.pk, player=people[0], now=clock.now)
    table = play_out(table, dict(enumerate(people)), clock)
    settlement.finish_table(table_id=table.pk, now=clock.now)
    table.refresh_from_db()
    return table


def test_pf60_an_online_result_labels_coins_xp_and_league_points_per_seat(make_player, clock) -> None:
    people = [make_player(), make_player()]
    table = finished_online(people, clock)
    earned = selectors.table_view_for(table=table, viewer=people[0])["earnings"]
    places = table.result["placements"]
    for row in earned:
        # PF-60: 10 × (N − p + 1) league points; every place of an online game earns coins and XP
        assert row["league_points"] == 10 * (2 - places[row["seat"]] + 1)
        assert row["coins"] > 0 and row["xp"] > 0


def test_buscar_otra_queues_again_for_the_same_game_players_and_stake(make_player, clock) -> None:
    people = [make_player(), make_player()]
    table = finished_online(people, clock, stake=100)
    winner = people[table.result["winners"][0]]
    before = coins(winner)
    assert before >= 100

    again = endgame.rematch(table_id=table.pk, player=winner, now=clock.now)

    earned = selectors.table_view_for(table=table, viewer=winner)["earnings"]
    seat = table.result["winners"][0]
    # PF-53: the pot (both entries) goes to the winner; each person paid their entry (PF-17)
    assert [row["entry"] for row in earned] == [100, 100]
    assert earned[seat]["coins"] == 200 and earned[1 - seat]["coins"] == 0
    assert again.kind == "queue" and again.queued["state"] == "queued"
    entry = QueueEntry.objects.get(user_id=winner.user_id, status=QueueEntry.Status.WAITING)
    assert (entry.game, entry.players, entry.stake) == ("one_card", 2, 100)
    assert coins(winner) == before  # the queue takes nothing: the buy-in is paid at the seat
    with refused("already_queued"):
        endgame.rematch(table_id=table.pk, player=winner, now=clock.now)


def test_buscar_otra_is_refused_when_the_wallet_cannot_pay_the_stake(make_player, clock) -> None:
    people = [make_player(), make_player()]
    table = finished_online(people, clock, stake=100)
    loser = people[1 - table.result["winners"][0]]
    admin = get_user_model().objects.create_user(username="boss", password=None, is_staff=True)
    adjust_wallet(
        user=UserRef(loser.user_id),
        amount=-coins(loser),
        actor=admin,
        reason="test: spent",
        request_id="spent",
    )
    client = Client()
    client.force_login(get_user_model().objects.get(pk=loser.user_id))
    answer = client.post(f"/api/tables/{table.pk}/rematch")
    assert answer.status_code == 409 and answer.json()["code"] == "insufficient_coins"
    assert not QueueEntry.objects.filter(user_id=loser.user_id, status=QueueEntry.Status.WAITING).exists()


def test_pf63_leaving_a_started_buy_in_table_keeps_the_seat_and_the_entry(make_player, clock) -> None:
    people = [make_player(), make_player()]
    table = queue_and_wave(people, clock, "one_card", 2, stake=100)
    assert endgame.leave_table(table_id=table.pk, player=people[0], now=clock.now) == "kept"
    seat = table.seats.get(user_id=people[0].user_id)
    assert not seat.stand_in
    assert table.pot.buyins.filter(status="seated").count() == 2
