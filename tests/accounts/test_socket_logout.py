"""Issue 13 items 6 and 9: sockets end with their session; the Origin check is exact."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.identity import player_for_user
from cardgames.tables import services
from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
PASSWORD = "mesa-verde-2026"
HOST = b"127.0.0.1:8000"
ORIGIN = b"http://127.0.0.1:8000"


def cookie_of(client: Client) -> bytes:
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


@sync_to_async
def two_sessions(username: str) -> tuple[Client, Client, int]:
    get_user_model().objects.create_user(username=username, password=PASSWORD)
    clients = []
    for _ in range(2):
        client = Client()
        assert client.post("/cuenta/entrar/", {"username": username, "password": PASSWORD}).status_code == 302
        clients.append(client)
    user = get_user_model().objects.get(username=username)
    table = services.create_room(player=player_for_user(user), game="one_card", mode="bots")
    connection.close()
    return clients[0], clients[1], table.pk


def socket(path: str, cookie: bytes, origin: bytes = ORIGIN, host: bytes = HOST) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, path, headers=[(b"origin", origin), (b"host", host), (b"cookie", cookie)]
    )


async def opened(ws: WebsocketCommunicator) -> WebsocketCommunicator:
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from()  # hello / snapshot
    return ws


async def closed_with(ws: WebsocketCommunicator) -> int | None:
    while True:
        output = await ws.receive_output(timeout=2)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_logging_out_closes_that_sessions_sockets_only() -> None:
    first, second, table_id = await two_sessions("Ana")
    lobby = await opened(socket("/ws/lobby/", cookie_of(first)))
    table = await opened(socket(f"/ws/tables/{table_id}/", cookie_of(first)))
    other = await opened(socket("/ws/lobby/", cookie_of(second)))
    # when the first session logs out
    await sync_to_async(first.post)("/cuenta/salir/")
    # then its sockets close with 4401 and the other session's stays open
    assert await closed_with(lobby) == 4401
    assert await closed_with(table) == 4401
    await other.send_json_to({"type": "ping", "echo": 1})
    assert await other.receive_json_from(timeout=2) == {"type": "pong", "echo": 1}
    await other.disconnect()


async def test_a_password_change_ends_the_other_sessions() -> None:
    first, second, _ = await two_sessions("Bea")
    mine = await opened(socket("/ws/lobby/", cookie_of(first)))
    theirs = await opened(socket("/ws/lobby/", cookie_of(second)))
    token = (await sync_to_async(first.get)("/api/auth/csrf")).json()["csrfToken"]
    response = await sync_to_async(first.post)(
        "/api/auth/password",
        {"old_password": PASSWORD, "new_password": "otra-mesa-2027"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 204
    assert await closed_with(theirs) == 4401
    await mine.send_json_to({"type": "ping", "echo": 2})
    assert await mine.receive_json_from(timeout=2) == {"type": "pong", "echo": 2}
    await mine.disconnect()
    # the other session is over for pages too
    me = await sync_to_async(second.get)("/api/me")
    assert me.json()["authenticated"] is False


@pytest.mark.parametrize(
    "origin",
    [
        b"http://127.0.0.1:9000",  # same host, another port
        b"https://127.0.0.1:8000",  # another scheme
        b"http://127.0.0.1",  # the default port is another port
        b"https://evil.example",
        b"null",
    ],
)
async def test_origin_must_match_scheme_host_and_port(origin: bytes) -> None:
    first, _, _ = await two_sessions("Cai")
    ws = socket("/ws/lobby/", cookie_of(first), origin=origin)
    connected, _ = await ws.connect()
    assert not connected


async def test_configured_site_origins_are_accepted(settings) -> None:
    settings.SITE_ORIGINS = ["https://tapete.example"]
    first, _, _ = await two_sessions("Dora")
    ws = socket("/ws/lobby/", cookie_of(first), origin=b"https://tapete.example", host=b"127.0.0.1:8000")
    connected, _ = await ws.connect()
    assert connected
    await ws.disconnect()
    ws = socket("/ws/lobby/", cookie_of(first), origin=b"https://tapete.example:8443")
    assert not (await ws.connect())[0]
