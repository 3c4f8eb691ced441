"""The site shell: home with the five games, rules pages per language, language switch."""

from __future__ import annotations

import polib
import pytest
from django.conf import settings
from django.test import Client

from frontend.games import GAME_LIST
from frontend.management.commands.compiletranslations import catalogues

pytestmark = pytest.mark.django_db


def test_home_lists_the_five_games(client: Client) -> None:
    body = client.get("/").content.decode()
    for name in ["One Card", "Pika", "El Puteo", "Skyjo", "Guandan"]:
        assert name in body
    assert '<html lang="es">' in body


@pytest.mark.parametrize("game", [g.slug for g in GAME_LIST])
def test_rules_page_in_spanish(client: Client, game: str) -> None:
    response = client.get(f"/reglas/{game}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<h2" in body
    assert "integrado" not in body  # PF-42: stray label


@pytest.mark.parametrize(
    ("game", "phrase"),
    [
        ("one_card", "The special cards"),
        ("guandan", "Tribute and return"),
        ("skyjo", "Rulezz: keep the score"),
    ],
)
def test_rules_page_in_english(client: Client, game: str, phrase: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(f"/reglas/{game}/").content.decode()
    assert phrase in body and '<html lang="en">' in body


def test_unknown_rules_page_is_404(client: Client) -> None:
    assert client.get("/reglas/chess/").status_code == 404


def test_language_switch(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert "Live card games" in body and "Sign up" in body


@pytest.mark.parametrize("po_path", catalogues(), ids=str)
def test_english_catalogues_are_complete(po_path) -> None:
    catalogue = polib.pofile(str(po_path))
    assert [e.msgid for e in catalogue.untranslated_entries()] == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []


def test_project_and_app_catalogues_are_found() -> None:
    found = [p.relative_to(settings.BASE_DIR).as_posix() for p in catalogues()]
    assert found == ["economy/locale/en/LC_MESSAGES/django.po", "locale/en/LC_MESSAGES/django.po"]


def test_forms_have_labels_for_every_input(client: Client) -> None:
    import re

    for url in ["/cuenta/registro/", "/cuenta/entrar/", "/cuenta/invitado/"]:
        body = client.get(url).content.decode()
        ids = re.findall(r'<input[^>]*type="(?:text|password)"[^>]*id="([^"]+)"', body)
        ids += re.findall(r'<input[^>]*id="([^"]+)"[^>]*type="(?:text|password)"', body)
        assert ids
        for input_id in ids:
            assert f'for="{input_id}"' in body


def test_language_switch_is_saved_in_the_profile(client: Client) -> None:
    from accounts.models import User

    user = User.objects.create_user(username="Ana", password="mesa-verde-2026")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"
    assert client.post("/i18n/setlang/", {"language": "xx", "next": "/"}).status_code == 302
    user.refresh_from_db()
    assert user.language == "en"
