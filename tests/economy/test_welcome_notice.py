"""Issue 25 item 6: until a sign-up's welcome coins are paid (PF-57, after its first finished game:
cardgames/welcome.py), the welcome message, the wallet, the shop and the API say when they come
and why; the rules pages say the same; once paid, nothing more is said."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.accounts.test_signup_limits import finished_practice_game, signup

pytestmark = pytest.mark.django_db
WHEN = "Tus 1000 monedas de bienvenida llegan al terminar tu primera partida."
WHY = "Vale cualquier partida en la que juegues, también contra bots"


def test_pf57_a_new_account_is_told_when_its_welcome_coins_come_until_they_do(client: Client) -> None:
    welcome = client.post(
        "/cuenta/registro/",
        {"username": "Nueva", "password1": "mesa-verde-2026", "password2": "mesa-verde-2026"},
        REMOTE_ADDR="10.0.0.9",
        follow=True,
    ).content.decode()
    assert "¡Bienvenido a Tapete, Nueva!" in welcome and WHEN in welcome and WHY in welcome
    for url in ("/monedero/", "/tienda/"):
        body = client.get(url).content.decode()
        assert 'data-testid="welcome-pending"' in body and WHEN in body and WHY in body, url
    wallet = client.get("/api/economy/wallet/").json()
    assert (wallet["balance"], wallet["welcome_pending"], wallet["welcome_coins"]) == (0, True, 1000)

    finished_practice_game(User.objects.get(username="Nueva"), moved=True)

    for url in ("/monedero/", "/tienda/"):
        assert WHEN not in client.get(url).content.decode(), url
    wallet = client.get("/api/economy/wallet/").json()
    assert (wallet["balance"], wallet["welcome_pending"]) == (1000, False)


def test_an_account_that_got_its_coins_at_creation_is_told_nothing(client: Client) -> None:
    client.force_login(User.objects.create_user(username="Admitida", password=None))
    assert WHEN not in client.get("/monedero/").content.decode()
    assert client.get("/api/economy/wallet/").json()["welcome_pending"] is False


def test_the_rules_pages_say_when_the_welcome_coins_come(client: Client) -> None:
    assert WHEN.removesuffix(".") in client.get("/reglas/pika/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Your 1,000 welcome coins arrive when you finish your first game" in (
        client.get("/reglas/pika/").content.decode()
    )
    signup(Client(), "Otra", ip="10.0.0.8")  # the English notice too
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english.force_login(User.objects.get(username="Otra"))
    assert "Your 1000 welcome coins arrive when you finish your first game." in (
        english.get("/monedero/").content.decode()
    )
