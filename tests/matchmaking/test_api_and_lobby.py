"""``/api/queue`` (GET/POST/DELETE) and the lobby socket: a queued player hears their position,
then "table started → /mesa/<code>/" on every open tab (their own group ``user.<id>``)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.guests import SESSION_KEY
from cardgames.matchmaking import services
from cardgames.matchmaking.models import QueueEntry
from cardgames.tables.models import Table
from config.asgi import application


def signed_in(username: str) -> tuple[Client, int]:
    user = get_user_model().objects.create_user(username=username, password="mesa-verde-2026")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/api/auth/csrf")
    return client, user.pk


def api(client: Client, method: str, body: dict | None = None):
    token = (
        client.cookies[settings.CSRF_COOKIE_NAME].value if settings.CSRF_COOKIE_NAME in client.cookies else ""
    )
    call = getattr(client, method.lower())
    kwargs = {"content_type": "application/json", "HTTP_X_CSRFTOKEN": token}
    return call("/api/queue", body or {}, **kwargs) if body is not None else call("/api/queue", **kwargs)


@pytest.mark.django_db
def test_queue_api_join_status_leave() -> None:
    client, _ = signed_in("ana")
    assert api(client, "GET").json() == {"type": "queue", "state": "idle"}
    response = api(client, "POST", {"game": "guandan", "players": 4, "stake": 250})
    assert response.status_code == 201
    body = response.json()
    assert (body["state"], body["game"], body["players"], body["stake"], body["position"]) == (
        "queued",
        "guandan",
        4,
        250,
        1,
    )
    assert api(client, "GET").json()["state"] == "queued"
    again = api(client, "POST", {"game": "pika", "players": 2})
    assert again.status_code == 409 and again.json()["code"] == "already_queued"
    assert api(client, "DELETE").json() == {"type": "queue", "state": "idle", "left": True}
    assert api(client, "DELETE").json() == {"type": "queue", "state": "idle"}
    assert QueueEntry.objects.get().status == "left"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "guandan", "players": 3}, 400, "bad_players"),
        ({"game": "pika", "players": 4, "stake": 300}, 400, None),  # not one of the stakes
        ({"game": "chess", "players": 4}, 400, None),
        ({"players": 4}, 400, None),
    ],
)
def test_queue_api_refuses_bad_input(body, status, code) -> None:
    client, _ = signed_in("bea")
    response = api(client, "POST", body)
    assert response.status_code == status
    assert "detail" in response.json() or response.json()
    if code:
        assert response.json()["code"] == code
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_guests_cannot_queue_and_csrf_is_checked() -> None:
    guest = Client(enforce_csrf_checks=True)
    guest.get("/api/auth/csrf")
    token = guest.cookies[settings.CSRF_COOKIE_NAME].value
    made = guest.post(
        "/api/auth/guest", {"name": "Lola_g"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert made.status_code in (200, 201) and guest.session[SESSION_KEY]["name"] == "Lola_g"
    response = api(guest, "POST", {"game": "pika", "players": 4})
    assert response.status_code == 403 and response.json()["code"] == "login_required"
    client, _ = signed_in("carla")
    forged = client.post("/api/queue", {"game": "pika", "players": 4}, content_type="application/json")
    assert forged.status_code == 403  # no CSRF token
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_a_poor_player_is_told_before_queueing_for_a_buy_in() -> None:
    client, user_id = signed_in("dora")
    response = api(client, "POST", {"game": "pika", "players": 4, "stake": 1000})
    assert response.status_code == 201  # 1,000 coins from the welcome grant
    api(client, "DELETE")
    from economy.services import adjust_wallet
    from economy.services.common import UserRef

    admin = get_user_model().objects.create_user(username="boss", password=None, is_staff=True)
    adjust_wallet(user=UserRef(user_id), amount=-1, actor=admin, reason="test", request_id="r1")
    response = api(client, "POST", {"game": "pika", "players": 4, "stake": 1000})
    assert response.status_code == 409 and response.json()["code"] == "insufficient_coins"


# -- the lobby socket: the real path, after commit, through the channel layer -----------------------------
async def lobby_for(username: str) -> tuple[WebsocketCommunicator, WebsocketCommunicator, int]:
    def login() -> tuple[str, int]:
        user = get_user_model().objects.create_user(username=username, password="mesa-verde-2026")
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        connection.close()
        return cookie, user.pk

    cookie, user_id = await sync_to_async(login)()
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    tabs = []
    for _ in range(2):  # two open tabs
        ws = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from())["type"] == "hello"
        tabs.append(ws)
    return tabs[0], tabs[1], user_id


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_open_tab_hears_the_queue_and_is_sent_to_the_table_when_it_starts() -> None:
    first_tab, second_tab, ana_id = await lobby_for("ana")

    def queue_two() -> None:
        from accounts.identity import Player

        bea = get_user_model().objects.create_user(username="bea", password=None)
        for user_id, name in ((ana_id, "ana"), (bea.pk, "bea")):
            player = Player(kind="user", id=str(user_id), name=name)
            services.join_queue(player=player, game="one_card", players=2)
        connection.close()

    await sync_to_async(queue_two)()
    for tab in (first_tab, second_tab):
        queued = await tab.receive_json_from(timeout=5)
        assert (queued["type"], queued["state"], queued["position"]) == ("queue", "queued", 1)

    def wave() -> Table:
        services.run_wave()
        table = Table.objects.get()
        connection.close()
        return table

    table = await sync_to_async(wave)()
    for tab in (first_tab, second_tab):
        started = await tab.receive_json_from(timeout=5)
        assert started == {
            "type": "table_started",
            "table": table.pk,
            "code": table.code,
            "game": "one_card",
            "mode": "online",
            "url": f"/mesa/{table.code}/",
        }
        await tab.disconnect()


# -- pages -------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_home_page_offers_online_play_to_signed_in_players_only() -> None:
    anonymous = Client().get("/").content.decode()
    assert 'id="online-play"' not in anonymous and "queue.js" not in anonymous and "lobby.js" not in anonymous
    client, _ = signed_in("elena")
    body = client.get("/").content.decode()
    assert 'id="online-play"' in body and 'id="queue-banner"' in body
    assert "frontend/queue.js" in body and "frontend/lobby.js" in body
    assert 'data-players="4"' in body  # Guandan: 4 only
    for stake in ("0", "100", "250", "500", "1000"):
        assert f'<option value="{stake}">' in body


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "en"])
def test_the_rules_pages_disclose_simulated_players(language: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    body = client.get("/reglas/pika/").content.decode()
    assert 'data-testid="simulated-disclosure"' in body
    phrase = "simulated player" if language == "en" else "jugador simulado"
    assert phrase in body
