"""PF-61: a socket's player is found once, at its handshake, the way a page finds it — and the
socket keeps nothing else of the session (accounts.socket_identity)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.guests import SESSION_KEY
from accounts.identity import Player, player_for_user
from accounts.sessions import session_fingerprint
from accounts.socket_identity import IdentityMiddleware

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
PASSWORD = "mesa-verde-2026"


async def scope_seen(cookie: str | None) -> dict[str, Any]:
    """The scope the routed consumer gets for a handshake with this Cookie header."""
    seen: dict[str, Any] = {}

    async def consumer(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(scope)

    headers = [(b"host", b"127.0.0.1:8000")] + ([(b"cookie", cookie.encode())] if cookie else [])
    await IdentityMiddleware(consumer)(
        {"type": "websocket", "path": "/ws/lobby/", "headers": headers}, None, None
    )
    return seen


@sync_to_async
def signed_in(username: str) -> tuple[Any, Client]:
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    client = Client()
    client.force_login(user)
    connection.close()
    return user, client


def cookie_of(client: Client) -> str:
    return f"theme=dark; {settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def test_a_signed_in_users_socket_knows_its_player_and_session_and_keeps_nothing_else() -> None:
    user, client = await signed_in("Ana")
    scope = await scope_seen(cookie_of(client))
    assert scope["player"] == player_for_user(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert scope["session_fingerprint"] == session_fingerprint(type("S", (), {"session_key": key})())
    assert not {"session", "user", "cookies"} & set(scope)


async def test_a_guests_socket_is_the_sessions_guest() -> None:
    @sync_to_async
    def guest_client() -> Client:
        client = Client()
        session = client.session
        session[SESSION_KEY] = {"id": "g-77", "name": "Lola"}
        session.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
        connection.close()
        return client

    scope = await scope_seen(cookie_of(await guest_client()))
    assert scope["player"] == Player(kind="guest", id="g-77", name="Lola")
    assert scope["session_fingerprint"]


@pytest.mark.parametrize("cookie", [None, "theme=dark", f"{settings.SESSION_COOKIE_NAME}=no-such-session"])
async def test_a_socket_without_a_live_session_is_nobody(cookie: str | None) -> None:
    scope = await scope_seen(cookie)
    assert scope["player"] is None and scope["session_fingerprint"] == ""


async def test_a_session_from_before_a_password_change_is_nobody_as_it_is_for_pages() -> None:
    user, client = await signed_in("Bea")

    @sync_to_async
    def change_password() -> None:
        user.set_password("otra-mesa-2027")
        user.save()
        connection.close()

    await change_password()
    scope = await scope_seen(cookie_of(client))
    assert scope["player"] is None
    me = await sync_to_async(client.get)("/api/me")
    assert me.json()["authenticated"] is False
