"""Issue 26 (2): a room is opened by its code, an invitation or a seat — never by its id alone.

PF-24 and PF-61: people join a friends room by its link or code, or by an invitation. Every door
that takes a table's sequential id is tried here by a stranger: the envelope (which shows the
code), joining, the chat history, the replay and the shuffle check over the API, the replay page
and another player's profile; the socket's door is in tests/tables/test_socket.py. Online tables
are public to watch (docs/decisions.md).
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from cardgames.tables import services
from cardgames.tables.models import Seat, Table
from cardgames.tables.settlement import finish_table
from tests.tables.helpers import Clock, guest_player, play_out, user_player
from tests.tables.test_api import api, signed_in_client

pytestmark = pytest.mark.django_db
ID_DOORS = ("", "/chat", "/replay", "/verify")


def friends_room(host_name: str = "Ana") -> tuple[Client, dict]:  # type: ignore[type-arg]
    host = signed_in_client(host_name)
    status, room = api(host, "post", "/api/tables", {"game": "one_card", "mode": "friends", "players": 3})
    assert status == 201
    services.post_chat(table_id=room["id"], player=user_player_of(host_name), text="la clave es secreta")
    return host, room


def user_player_of(username: str):  # type: ignore[no-untyped-def]
    from accounts.identity import player_for_user

    return player_for_user(User.objects.get(username=username))


def test_pf24_a_stranger_gets_nothing_of_a_room_by_its_id() -> None:
    _host, room = friends_room()
    strangers = [Client(), signed_in_client("Eve")]
    guest = Client()
    assert api(guest, "post", "/api/auth/guest", {"name": "Mallory"})[0] in (200, 201)
    strangers.append(guest)
    for stranger in strangers:
        for door in ID_DOORS:
            status, body = api(stranger, "get", f"/api/tables/{room['id']}{door}")
            assert (status, body["code"]) == (403, "private_room"), door
            assert room["code"] not in str(body) and "secreta" not in str(body)
        status, body = api(stranger, "post", f"/api/tables/{room['id']}/join", {"name": "Intrusa"})
        assert (status, body["code"]) == (403, "private_room")
        status, body = api(stranger, "post", f"/api/tables/{room['id']}/join", {"code": "000000"})
        assert (status, body["code"]) == (403, "private_room")
    assert Seat.objects.filter(table_id=room["id"]).count() == 1  # nobody sat
    assert not User.objects.filter(username="Intrusa").exists()


def test_pf24_the_code_opens_the_room_and_a_seat_needs_none_after() -> None:
    _host, room = friends_room()
    bea = signed_in_client("Bea")
    status, envelope = api(bea, "get", f"/api/tables/{room['id']}?code={room['code'].lower()}")
    assert status == 200 and envelope["code"] == room["code"] and envelope["you"]["role"] == "spectator"
    status, chat = api(bea, "get", f"/api/tables/{room['id']}/chat?code={room['code']}")
    assert status == 200 and chat["results"][0]["text"] == "la clave es secreta"
    status, joined = api(bea, "post", f"/api/tables/{room['id']}/join", {"code": room["code"]})
    assert status == 200 and joined["seat"] == 1
    assert joined["socket"] == f"/ws/tables/{room['id']}/?code={room['code']}"
    status, envelope = api(bea, "get", f"/api/tables/{room['id']}")  # seated: her seat is her key
    assert status == 200 and envelope["you"]["seat"] == 1
    guest = Client()  # PF-22/PF-24: a visitor types a name and the code
    status, joined = api(
        guest, "post", f"/api/tables/{room['id']}/join", {"name": "Lola", "code": room["code"]}
    )
    assert status == 200 and joined["seat"] == 2


def test_pf14_an_invitation_opens_the_room_to_its_invitee() -> None:
    host, room = friends_room()
    bea = signed_in_client("Bea")
    assert api(host, "post", f"/api/tables/{room['id']}/invitations", {"username": "Bea"})[0] == 201
    status, envelope = api(bea, "get", f"/api/tables/{room['id']}")
    assert status == 200 and envelope["code"] == room["code"]
    status, invitations = api(bea, "get", "/api/invitations")
    invitation = invitations["results"][0]
    assert invitation["code"] == room["code"]  # the invitation carries the key
    status, answer = api(bea, "post", f"/api/invitations/{invitation['id']}/accept")
    assert (status, answer["seat"]) == (200, 1)


def test_staff_see_every_room_and_online_tables_are_public_to_watch() -> None:
    _host, room = friends_room()
    staff = Client()
    staff.force_login(User.objects.create_user(username="Moderadora", password="x", is_staff=True))
    assert api(staff, "get", f"/api/tables/{room['id']}/chat")[0] == 200
    online = Table.objects.create(
        game="pika", mode="online", code="246810", num_players=2, last_activity_at=timezone.now()
    )
    status, envelope = api(Client(), "get", f"/api/tables/{online.pk}")
    assert status == 200 and envelope["you"]["role"] == "spectator"


def test_a_finished_rooms_replay_and_check_are_for_its_seats_and_its_code() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="bots", players=2, now=clock.now)
    services.start_table(table_id=table.pk, player=ana, now=clock.now)
    table = play_out(table, {0: ana}, clock)
    owner = Client()
    owner.force_login(User.objects.get(username="Ana"))
    stranger = signed_in_client("Eve")
    for door in ("/replay", "/verify"):
        assert api(stranger, "get", f"/api/tables/{table.pk}{door}")[1]["code"] == "private_room"
        assert api(stranger, "get", f"/api/tables/{table.pk}{door}?code={table.code}")[0] == 200
        assert api(owner, "get", f"/api/tables/{table.pk}{door}")[0] == 200
    assert stranger.get(f"/partida/{table.pk}/repeticion/").status_code == 403
    assert stranger.get(f"/partida/{table.pk}/repeticion/?code={table.code}").status_code == 200
    assert owner.get(f"/partida/{table.pk}/repeticion/").status_code == 200
    # closed, the room gives its code back: only its seats see it now
    finish_table(table_id=table.pk)
    assert services.close_idle_rooms(now=clock.tick(5 * 3600)) == 1
    assert api(stranger, "get", f"/api/tables/{table.pk}/replay?code={table.code}")[0] == 403
    assert api(owner, "get", f"/api/tables/{table.pk}/replay")[0] == 200


def test_the_room_page_gives_its_socket_the_code_and_a_public_profile_hides_private_games() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="bots", players=2, now=clock.now)
    page = signed_in_client("Bea").get(f"/mesa/{table.code}/").content.decode()
    assert f"/ws/tables/{table.pk}/?code={table.code}" in page  # she watches with the link's key
    assert f"/api/tables/{table.pk}/verify?code={table.code}" in page
    services.start_table(table_id=table.pk, player=ana, now=clock.now)
    play_out(table, {0: ana}, clock)
    assert finish_table(table_id=table.pk) is not None
    owner = Client()
    owner.force_login(User.objects.get(username="Ana"))
    replay = f"/partida/{table.pk}/repeticion/"
    assert replay in owner.get("/cuenta/perfil/").content.decode()
    assert replay in owner.get("/cuenta/jugador/Ana/").content.decode()
    assert replay not in signed_in_client("Eve").get("/cuenta/jugador/Ana/").content.decode()
    assert replay not in Client().get("/cuenta/jugador/Ana/").content.decode()
    # an online game is public: anyone sees it on her page
    Table.objects.filter(pk=table.pk).update(mode=Table.Mode.ONLINE)
    assert replay in Client().get("/cuenta/jugador/Ana/").content.decode()


@override_settings(ROOM_CODE_FREE_MISSES=3)
def test_wrong_codes_are_counted_per_address_so_codes_cannot_be_guessed() -> None:
    host, room = friends_room()
    guesser = signed_in_client("Eve")
    for guess in ("000001", "000002", "000003"):
        assert api(guesser, "get", f"/api/rooms/{guess}")[0] == 404
    status, body = api(guesser, "get", f"/api/rooms/{room['code']}")  # even the right one, for now
    assert (status, body["code"]) == (429, "too_many_guesses") and room["code"] not in str(body)
    status, body = api(guesser, "get", f"/api/tables/{room['id']}?code={room['code']}")
    assert (status, body["code"]) == (429, "too_many_guesses")
    assert Client(REMOTE_ADDR="10.0.0.9").get(f"/mesa/{room['code']}/").status_code == 200  # others may
    page = guesser.get(f"/mesa/{room['code']}/")
    assert page.status_code == 302
    # the host shares the address: her seat needs no code, so she is never shut out of her room
    status, envelope = api(host, "get", f"/api/tables/{room['id']}?code={room['code']}")
    assert status == 200 and envelope["you"]["seat"] == 0
    assert host.get(f"/mesa/{room['code']}/").status_code == 200
    assert api(host, "get", f"/api/rooms/{room['code']}")[0] == 200


def test_a_guest_player_joins_by_code_in_the_service_too() -> None:
    host = guest_player("Paco", "g-host")
    table = services.create_room(player=host, game="pika", mode="friends")
    lola = guest_player("Lola", "g-lola")
    with pytest.raises(services.TableError) as refused:
        services.join_room(table_id=table.pk, player=lola)
    assert refused.value.code == "private_room"
    assert services.join_room(table_id=table.pk, player=lola, code=f" {table.code.lower()} ") is not None
