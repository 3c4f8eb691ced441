"""The installable app's files as Django serves them (PF-35); the browser side is in
tests/browser/test_pwa_browser.py."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from frontend.views import SHELL_FILES, static_version

pytestmark = pytest.mark.django_db


def test_service_worker_is_served_from_the_root_uncached_with_its_shell(client: Client) -> None:
    response = client.get("/sw.js")
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert f'const CACHE = "tapete-{static_version()}";' in body
    assert 'const OFFLINE = "/sin-conexion/";' in body
    for name in SHELL_FILES:
        assert f'"/static/{name}"' in body
        assert finders.find(name), name  # every shell file exists, or install would fail
    assert 'url.pathname.startsWith("/api/")' in body and 'url.pathname.startsWith("/ws/")' in body


def test_manifest_names_the_app_and_its_icons_in_the_page_language(client: Client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/manifest.webmanifest")
    manifest = json.loads(response.content)
    assert response["Content-Type"].startswith("application/manifest+json")
    assert manifest["lang"] == "en" and manifest["description"].startswith("Live card games")
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_every_page_links_the_manifest_and_registers_the_worker(client: Client) -> None:
    body = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert re.search(r'<script type="module" src="/static/frontend/pwa.js"></script>', body)


def test_offline_page_names_nobody(client: Client) -> None:
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_user(username="Ana", password="mesa-verde-2026"))
    body = client.get("/sin-conexion/").content.decode()
    assert "Sin conexión" in body and "Ana" not in body  # cached once, shown to whoever is offline


@pytest.mark.parametrize(("debug", "fresh"), [(False, "false"), (True, "true")])
def test_static_files_come_from_the_cache_first_except_in_development(
    client: Client, settings, debug, fresh
) -> None:
    settings.DEBUG = debug
    assert f"const FRESH_STATIC = {fresh};" in client.get("/sw.js").content.decode()
