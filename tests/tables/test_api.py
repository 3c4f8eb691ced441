"""The rooms API over HTTP: JSON in, JSON out, every refusal a 4xx with a code; replays per
viewer and the public shuffle verifier; invitations reaching the invitee's lobby socket live."""

from __future__ import annotations

import hashlib

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from accounts.models import User
from cardgames.tables import services
from cardgames.tables.models import Table
from config.asgi import application
from tests.tables.helpers import Clock, play_out, user_player


def api(client: Client, method: str, url: str, data: object = None) -> tuple[int, dict]:  # type: ignore[type-arg]
    response = getattr(client, method)(url, data=data, content_type="application/json")
    body = response.json() if response.content else {}
    return response.status_code, body


def signed_in_client(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(username=username, password="mesa-verde-2026"))
    return client


@pytest.fixture
def csrf_client() -> Client:
    return Client(enforce_csrf_checks=False)


@pytest.mark.django_db
def test_a_guest_creates_a_practice_room_by_typing_a_name_and_starts_it(csrf_client: Client) -> None:
    status, room = api(csrf_client, "post", "/api/tables", {"game": "pika", "mode": "bots", "name": "Paco"})
    assert status == 201 and room["link"].endswith(f"/mesa/{room['code']}/")
    assert [s["kind"] for s in room["seats"]] == ["guest", "bot", "bot", "bot"]
    status, started = api(csrf_client, "post", f"/api/tables/{room['id']}/start")
    assert status == 200 and started["status"] == "playing"
    status, envelope = api(csrf_client, "get", f"/api/tables/{room['id']}")
    assert status == 200 and envelope["you"]["seat"] == 0 and envelope["seed"] is None
    assert envelope["seed_hash"] and len(envelope["seed_hash"]) == 64


@pytest.mark.django_db
def test_friends_join_by_code_and_refusals_are_json_with_codes(csrf_client: Client) -> None:
    host = signed_in_client("Ana")
    status, room = api(host, "post", "/api/tables", {"game": "puteo", "mode": "friends", "players": 2})
    assert status == 201 and len(room["code"]) == 4
    status, found = api(csrf_client, "get", f"/api/rooms/{room['code'].lower()}")
    assert status == 200 and found["id"] == room["id"]
    assert api(csrf_client, "get", "/api/rooms/ZZZZ") == (
        404,
        {"code": "no_such_table", "detail": "Esa mesa no existe o ya se cerró."},
    )
    status, body = api(csrf_client, "post", f"/api/tables/{room['id']}/join", {"code": room["code"]})
    assert (status, body["code"]) == (403, "identity_required")
    lola = {"name": "Lola", "code": room["code"]}
    status, joined = api(csrf_client, "post", f"/api/tables/{room['id']}/join", lola)
    assert status == 200 and joined["seat"] == 1
    status, body = api(csrf_client, "post", f"/api/tables/{room['id']}/start")
    assert (status, body["code"]) == (403, "not_host")
    status, body = api(host, "post", "/api/tables", {"game": "guandan", "mode": "friends", "players": 3})
    assert status == 400 and body["code"] == "bad_players"
    status, body = api(host, "post", "/api/tables", {"game": "chess", "mode": "friends"})
    assert status == 400 and "detail" in body
    status, body = api(host, "post", "/api/tables", ["not", "an", "object"])
    assert status == 400
    status, body = api(host, "post", f"/api/tables/{room['id']}/bots", {"level": "godlike"})
    assert status == 400
    status, body = api(host, "post", f"/api/tables/{room['id']}/chat", {"text": "x" * 301})
    assert (status, body["code"]) == (400, "chat_too_long")
    assert api(host, "get", "/api/tables/999999")[0] == 404


@pytest.mark.django_db(transaction=True)
def test_replays_show_each_viewer_only_their_own_view_and_the_verifier_replays_the_seed() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="one_card", mode="bots", players=2, now=clock.now)
    table = services.start_table(table_id=table.pk, player=ana, now=clock.now)
    anon = Client()
    with_code = f"?code={table.code}"  # Ana shared her practice table's link (issue 26)
    assert api(anon, "get", f"/api/tables/{table.pk}/verify{with_code}")[1]["code"] == "not_finished"
    table = play_out(table, {0: ana}, clock)
    owner = Client()
    owner.force_login(User.objects.get(username="Ana"))
    status, replay = api(owner, "get", f"/api/tables/{table.pk}/replay")
    assert status == 200 and replay["seat"] == 0 and replay["steps"][0]["type"] == "deal"
    assert "hand" in replay["steps"][0]["view"] and replay["steps"][0]["view"]["hand"]
    status, watched = api(anon, "get", f"/api/tables/{table.pk}/replay{with_code}")
    assert watched["seat"] is None and not watched["steps"][0]["view"].get("hand")
    status, check = api(anon, "get", f"/api/tables/{table.pk}/verify{with_code}")
    assert status == 200 and check["ok"] and check["replay_matches_final_state"]
    assert hashlib.sha256(check["seed"].encode()).hexdigest() == check["seed_hash"]
    # a tampered log no longer replays to the stored state
    Table.objects.filter(pk=table.pk).update(seed="0" * 32)
    assert api(anon, "get", f"/api/tables/{table.pk}/verify{with_code}")[1]["ok"] is False


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_invitation_reaches_the_invitee_lobby_socket_live_and_can_be_accepted() -> None:
    @sync_to_async
    def setup() -> tuple[int, bytes, Client]:
        from django.conf import settings

        ana = User.objects.create_user(username="Ana", password="mesa-verde-2026")
        bea = User.objects.create_user(username="Bea", password="mesa-verde-2026")
        host, guest = Client(), Client()
        host.force_login(ana)
        guest.force_login(bea)
        status, room = api(host, "post", "/api/tables", {"game": "one_card", "mode": "friends"})
        assert status == 201
        cookie = (
            f"{settings.SESSION_COOKIE_NAME}={guest.cookies[settings.SESSION_COOKIE_NAME].value}".encode()
        )
        connection.close()
        return room["id"], cookie, host

    table_id, bea_cookie, host = await setup()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"cookie", bea_cookie)]
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await lobby.connect())[0]
    hello = await lobby.receive_json_from()
    assert hello["type"] == "hello" and hello["invitations"] == []

    @sync_to_async
    def invite() -> tuple[int, dict]:  # type: ignore[type-arg]
        result = api(host, "post", f"/api/tables/{table_id}/invitations", {"username": "bea"})
        connection.close()
        return result

    status, sent = await invite()
    assert status == 201
    live = await lobby.receive_json_from(timeout=5)
    assert live["type"] == "invitation" and live["invitation"]["id"] == sent["id"]
    assert live["invitation"]["from"] == "Ana"
    status, again = await invite()
    assert (status, again["code"]) == (400, "already_invited")
    await lobby.disconnect()


@pytest.mark.django_db
def test_the_admin_shows_tables_read_only_for_audits() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = services.create_room(player=ana, game="pika", mode="bots", now=clock.now)
    services.start_table(table_id=table.pk, player=ana, now=clock.now)
    admin = Client()
    admin.force_login(User.objects.create_superuser(username="jefa", password="mesa-verde-2026"))
    assert admin.get("/admin/cardgames/table/").status_code == 200
    page = admin.get(f"/admin/cardgames/table/{table.pk}/change/")
    assert page.status_code == 200 and b"Ana" in page.content
    assert admin.get("/admin/cardgames/table/add/").status_code == 403
