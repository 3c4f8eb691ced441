"""The end of a game and leaving a table (issue 25 items 4 and 5), on the real engines and services:
what each seat took (coins, XP, league points) on the envelope, the rematch of a friends room
("Revancha": the host offers, each person accepts, the host starts) and of a bots room ("Otra
partida"), "Salir de la mesa" before and after the start (PF-63's stand-in), and the host's
"Cerrar sala"."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.identity import Player
from cardgames.engines import get_engine
from cardgames.tables import endgame, selectors, services, settlement
from cardgames.tables.models import Invitation, Seat, Table
from tests.tables.helpers import Clock, guest_player, play_out, started_table, user_player
from tests.tables.test_rooms import refused

pytestmark = pytest.mark.django_db


def friends_game(
    clock: Clock, *, game: str = "one_card", names: tuple[str, str] = ("Ana", "Bea")
) -> tuple[Table, Player, Player]:
    """A finished 3-seat friends game of Ana (host, seat 0), Bea (seat 1) and a hard bot (seat 2)."""
    ana, bea = user_player(names[0]), user_player(names[1])
    room = services.create_room(player=ana, game=game, mode="friends", players=3, now=clock.now)
    services.join_room(table_id=room.pk, player=bea, code=room.code, now=clock.now)
    services.add_bot(table_id=room.pk, player=ana, level="hard", now=clock.now)
    services.start_table(table_id=room.pk, player=ana, now=clock.now)
    table = play_out(room, {0: ana, 1: bea}, clock)
    settlement.finish_table(table_id=table.pk, now=clock.now)
    table.refresh_from_db()
    return table, ana, bea


# -- the result's numbers ------------------------------------------------------------------------------
def test_pf57_the_envelope_labels_what_each_seat_took_from_a_friends_game() -> None:
    clock = Clock()
    table, ana, _bea = friends_game(clock)
    envelope = selectors.table_view_for(table=table, viewer=ana)
    assert [e["seat"] for e in envelope["earnings"]] == [0, 1, 2]
    winners = set(table.result["winners"])
    for earned in envelope["earnings"]:
        # a friends game pays coins and XP to its winners who played (PF-57), never league points (PF-15)
        assert earned["league_points"] is None
        if earned["seat"] == 2 or earned["seat"] not in winners:
            assert earned["coins"] == 0 and earned["xp"] == 0
        else:
            assert earned["coins"] > 0 and earned["xp"] > 0


def test_pf13_a_bots_game_earns_nothing_and_says_so() -> None:
    clock = Clock()
    ana = guest_player("Ana")
    room = services.create_room(player=ana, game="one_card", mode="bots", players=2, now=clock.now)
    services.start_table(table_id=room.pk, player=ana, now=clock.now)
    table = play_out(room, {0: ana}, clock)
    assert selectors.table_view_for(table=table, viewer=ana)["earnings"] is None  # not settled yet
    settlement.finish_table(table_id=table.pk, now=clock.now)
    table.refresh_from_db()
    earned = selectors.table_view_for(table=table, viewer=ana)["earnings"]
    assert earned == [
        {"seat": 0, "coins": 0, "xp": 0, "league_points": None, "entry": None},
        {"seat": 1, "coins": 0, "xp": 0, "league_points": None, "entry": None},
    ]


# -- rematch: friends ("Revancha") --------------------------------------------------------------------
def test_revancha_the_host_offers_the_same_seats_and_bots_each_person_accepts_the_host_starts() -> None:
    clock = Clock()
    table, ana, bea = friends_game(clock)
    with refused("no_rematch_yet"):  # only the host offers it
        endgame.rematch(table_id=table.pk, player=bea, now=clock.now)
    with refused("spectator"):
        endgame.rematch(table_id=table.pk, player=guest_player("Mira", "g9"), now=clock.now)

    offered = endgame.rematch(table_id=table.pk, player=ana, now=clock.now)

    room = offered.table
    assert offered.kind == "room" and room is not None and room.pk != table.pk
    assert room.status == Table.Status.WAITING and room.mode == "friends" and room.host_key == ana.key
    assert room.options == {k: v for k, v in table.options.items() if k != "turn_seconds"}
    seats = {s.index: s for s in room.seats.all()}
    assert seats[0].player_key == ana.key and offered.seat == 0
    assert seats[2].kind == Seat.Kind.BOT and seats[2].bot_level == "hard"
    assert 1 not in seats  # Bea's seat waits for her
    invitation = Invitation.objects.get(table=room, recipient_id=bea.user_id)
    assert invitation.status == Invitation.Status.PENDING
    # everyone seated at the old table sees the offer; a spectator never gets the new room's code
    table.refresh_from_db()
    assert selectors.table_view_for(table=table, viewer=bea)["rematch"] == {
        "table": room.pk,
        "code": room.code,
        "url": f"/mesa/{room.code}/",
        "status": "waiting",
        "joined": False,
    }
    assert selectors.table_view_for(table=table, viewer=None)["rematch"] is None
    # a second press opens no second room
    assert endgame.rematch(table_id=table.pk, player=ana, now=clock.now).table.pk == room.pk

    accepted = endgame.rematch(table_id=table.pk, player=bea, now=clock.now)

    assert accepted.table.pk == room.pk and accepted.seat == 1  # her old seat
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED  # her toasts drop it
    assert selectors.table_view_for(table=table, viewer=bea)["rematch"]["joined"] is True
    with refused("not_host"):
        services.start_table(table_id=room.pk, player=bea, now=clock.now)
    started = services.start_table(table_id=room.pk, player=ana, now=clock.now)
    assert started.status == Table.Status.PLAYING and started.seed != table.seed  # a new seed


def test_revancha_an_invitee_who_accepts_the_toast_takes_back_their_old_seat() -> None:
    clock = Clock()
    table, ana, bea = friends_game(clock)
    room = endgame.rematch(table_id=table.pk, player=ana, now=clock.now).table
    invitation = Invitation.objects.get(table=room, recipient_id=bea.user_id)
    seat = services.respond_invitation(invitation_id=invitation.pk, player=bea, accept=True, now=clock.now)
    assert seat is not None and seat.index == 1


def test_revancha_a_latecomer_watches_a_started_rematch_and_a_closed_one_may_be_offered_again() -> None:
    clock = Clock()
    table, ana, bea = friends_game(clock)
    first = endgame.rematch(table_id=table.pk, player=ana, now=clock.now).table
    services.add_bot(table_id=first.pk, player=ana, level="easy", seat=1, now=clock.now)
    services.start_table(table_id=first.pk, player=ana, now=clock.now)
    late = endgame.rematch(table_id=table.pk, player=bea, now=clock.now)
    assert late.table.pk == first.pk and late.seat is None  # it started without her: she watches

    table2, cris, dani = friends_game(Clock(), game="skyjo", names=("Cris", "Dani"))
    offered = endgame.rematch(table_id=table2.pk, player=cris, now=clock.now).table
    endgame.close_room(table_id=offered.pk, player=cris, now=clock.now)
    table2.refresh_from_db()
    assert selectors.table_view_for(table=table2, viewer=dani)["rematch"] is None  # the offer went
    with refused("no_rematch_yet"):
        endgame.rematch(table_id=table2.pk, player=dani, now=clock.now)
    again = endgame.rematch(table_id=table2.pk, player=cris, now=clock.now).table
    assert again.pk != offered.pk and again.status == Table.Status.WAITING


def test_revancha_refused_before_the_end_and_after_a_room_closed() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    with refused("not_finished"):
        endgame.rematch(table_id=table.pk, player=ana, now=clock.now)
    with refused("identity_required"):
        endgame.rematch(table_id=table.pk, player=None, now=clock.now)
    with refused("no_such_table"):
        endgame.rematch(table_id="1", player=ana, now=clock.now)


# -- rematch: bots ("Otra partida") -------------------------------------------------------------------
def test_otra_partida_deals_the_same_room_again_with_the_same_bots_and_options() -> None:
    clock = Clock()
    ana = guest_player("Ana")
    room = services.create_room(
        player=ana,
        game="puteo",
        mode="bots",
        players=3,
        options={"lives": 3},
        bot_level="hard",
        now=clock.now,
    )
    services.start_table(table_id=room.pk, player=ana, now=clock.now)
    table = play_out(room, {0: ana}, clock)

    again = endgame.rematch(table_id=table.pk, player=ana, now=clock.now)

    new = again.table
    assert new.status == Table.Status.PLAYING and new.mode == "bots" and again.seat == 0
    assert new.options["lives"] == 3 and new.seed != table.seed
    assert [(s.index, s.kind, s.bot_level) for s in new.seats.all()] == [
        (0, "guest", ""),
        (1, "bot", "hard"),
        (2, "bot", "hard"),
    ]
    assert endgame.rematch(table_id=table.pk, player=ana, now=clock.now).table.pk == new.pk
    assert get_engine("puteo").load(new.state) is not None


# -- leaving -------------------------------------------------------------------------------------------
def test_leaving_before_the_start_stands_up_and_the_host_closes_the_room_for_everyone() -> None:
    clock = Clock()
    ana, bea, cris = user_player("Ana"), user_player("Bea"), user_player("Cris")
    room = services.create_room(player=ana, game="one_card", mode="friends", players=3, now=clock.now)
    services.join_room(table_id=room.pk, player=bea, code=room.code, now=clock.now)
    invitation = services.invite(table_id=room.pk, sender=ana, username="Cris", now=clock.now)

    assert endgame.leave_table(table_id=room.pk, player=bea, now=clock.now) == "left"
    assert not room.seats.filter(player_key=bea.key).exists()
    with refused("not_host"):
        endgame.close_room(table_id=room.pk, player=cris, now=clock.now)

    assert endgame.leave_table(table_id=room.pk, player=ana, now=clock.now) == "closed"

    room.refresh_from_db()
    invitation.refresh_from_db()
    assert room.status == Table.Status.CLOSED and room.code is None
    assert invitation.status == Invitation.Status.EXPIRED  # it disappears from Cris's pages
    assert selectors.table_view_for(table=room, viewer=bea)["status"] == "closed"
    with refused("no_such_table"):
        endgame.leave_table(table_id=room.pk, player=ana, now=clock.now)


def test_close_room_only_before_the_start() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    with refused("not_waiting"):
        endgame.close_room(table_id=table.pk, player=ana, now=clock.now)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_pf63_leaving_a_started_friends_game_hands_the_seat_to_the_stand_in_at_once() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="one_card", mode="friends", players=2, now=clock.now)
    services.join_room(table_id=room.pk, player=bea, code=room.code, now=clock.now)
    services.start_table(table_id=room.pk, player=ana, now=clock.now)
    services.mark_connected(table_id=room.pk, player=ana, connected=True, now=clock.now)
    eng = get_engine("one_card")
    room.refresh_from_db()
    to_act = eng.to_act(eng.load(room.state))
    leaver = bea if 1 in to_act else ana
    index = 1 if leaver is bea else 0

    assert endgame.leave_table(table_id=room.pk, player=leaver, now=clock.now) == "stand_in"

    seat = room.seats.get(index=index)
    assert seat.stand_in and seat.plays_by_bot
    assert selectors.table_view_for(table=room, viewer=ana)["seats"][index]["stand_in"] is True
    version = Table.objects.get(pk=room.pk).version
    services.wake_table(table_id=room.pk, now=clock.tick(5))  # the bot's think time, no turn timeout
    table = Table.objects.get(pk=room.pk)
    assert table.version > version
    assert table.log.get(seq=version + 1).seat == index and table.log.get(seq=version + 1).source == "bot"
    # the seat goes back to its player when they return (PF-63)
    services.mark_connected(table_id=room.pk, player=leaver, connected=True, now=clock.now)
    assert not room.seats.get(index=index).stand_in


def test_leaving_a_finished_game_changes_nothing_and_spectators_are_not_seated() -> None:
    clock = Clock()
    table, ana, _bea = friends_game(clock)
    assert endgame.leave_table(table_id=table.pk, player=ana, now=clock.now) == "kept"
    with refused("not_seated"):
        endgame.leave_table(table_id=table.pk, player=guest_player("Mira", "g9"), now=clock.now)


# -- the HTTP API --------------------------------------------------------------------------------------
def test_the_api_answers_rematch_leave_and_close_with_clear_codes() -> None:
    clock = Clock()
    table, _ana, _bea = friends_game(clock)
    host, friend, nobody = Client(), Client(), Client()
    host.force_login(table.seats.get(index=0).user)
    friend.force_login(table.seats.get(index=1).user)

    early = friend.post(f"/api/tables/{table.pk}/rematch", content_type="application/json")
    assert early.status_code == 409 and early.json()["code"] == "no_rematch_yet"
    assert nobody.post(f"/api/tables/{table.pk}/rematch").status_code == 403
    assert host.post("/api/tables/999999/rematch").status_code == 404

    offered = host.post(f"/api/tables/{table.pk}/rematch")
    assert offered.status_code == 200
    body = offered.json()
    assert body["kind"] == "room" and body["seat"] == 0 and body["url"] == f"/mesa/{body['code']}/"
    accepted = friend.post(f"/api/tables/{table.pk}/rematch").json()
    assert accepted["table"] == body["table"] and accepted["seat"] == 1

    new = body["table"]
    assert friend.post(f"/api/tables/{new}/close").status_code == 403  # not the host
    assert friend.post(f"/api/tables/{new}/leave").json() == {"outcome": "left"}
    assert host.post(f"/api/tables/{new}/close").status_code == 204
    assert Table.objects.get(pk=new).status == Table.Status.CLOSED
    assert host.post(f"/api/tables/{new}/leave").status_code == 404
