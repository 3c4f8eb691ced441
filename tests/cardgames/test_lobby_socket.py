"""The lobby websocket: session auth, origin check, error frames for bad input."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def session_cookie_for(username: str) -> bytes:
    def login() -> str:
        user = get_user_model().objects.create_user(username=username, password="mesa-verde-2026")
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        connection.close()  # this worker thread's connection would outlive the test database
        return cookie

    value = await sync_to_async(login)()
    return f"{settings.SESSION_COOKIE_NAME}={value}".encode()


def communicator(
    cookie: bytes | None = None, origin: bytes = b"http://127.0.0.1:8000"
) -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"127.0.0.1:8000")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)


async def test_signed_in_user_is_greeted_and_bad_frames_get_errors() -> None:
    ws = communicator(await session_cookie_for("Ana"))
    connected, _ = await ws.connect()
    assert connected
    hello = await ws.receive_json_from()
    assert hello["type"] == "hello" and hello["you"]["name"] == "Ana"
    await ws.send_to(text_data="{nope")
    assert (await ws.receive_json_from())["code"] == "bad_json"
    await ws.send_to(text_data="[1, 2]")
    assert (await ws.receive_json_from())["code"] == "bad_message"
    await ws.send_to(text_data='{"type": "dance"}')
    assert (await ws.receive_json_from())["code"] == "unknown_type"
    await ws.send_to(text_data="x" * 5000)
    assert (await ws.receive_json_from())["code"] == "bad_frame"
    await ws.send_json_to({"type": "ping", "echo": 7})
    assert await ws.receive_json_from() == {"type": "pong", "echo": 7}
    await ws.disconnect()


async def test_anonymous_socket_is_told_why_and_closed() -> None:
    ws = communicator()
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from())["code"] == "not_authenticated"
    assert (await ws.receive_output())["code"] == 4401


async def test_foreign_origin_is_refused() -> None:
    ws = communicator(await session_cookie_for("Bea"), origin=b"https://evil.example")
    connected, _ = await ws.connect()
    assert not connected
