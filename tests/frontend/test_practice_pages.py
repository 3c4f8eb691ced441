"""Offline practice's pages (PF-13, PF-62): the games' list and each game's table, pages the
service worker can keep (they name nobody), the WebAssembly allowance only where Pyodide runs."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from cardgames.engines import GAMES

pytestmark = pytest.mark.django_db

REGIONS = ("hand", "actions", "centre", "log", "result", "turn")


def test_the_practice_list_offers_the_five_games_with_their_set_up(client: Client) -> None:
    body = client.get("/practicar/").content.decode()
    for game in GAMES:
        assert f'action="/practicar/{game}/"' in body
    assert 'name="option-lives"' in body and 'name="bot_level"' in body and 'name="players"' in body
    assert "no da monedas, XP, puntos de liga ni puntuación" in body  # PF-13, said on the page
    manifest = json.loads(
        body.split('<script id="offline-manifest" type="application/json">')[1].split("</script>")[0]
    )
    runtime, practice = manifest["caches"]
    assert runtime["name"] == "tapete-pyodide-0.25.1"  # kept across deployments: named by its version
    assert practice["name"].startswith("tapete-practice-")
    urls = {f["url"]: f["bytes"] for c in manifest["caches"] for f in c["files"]}
    assert urls["/static/vendor/pyodide/pyodide.asm.wasm"] > 1_000_000
    assert urls["/static/offline/tapete-practice.zip"] > 10_000
    assert all(f"/practicar/{game}/" in urls for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_each_practice_table_is_the_table_page_fed_by_the_worker(client: Client, game: str) -> None:
    body = client.get(f"/practicar/{game}/").content.decode()
    config = json.loads(
        body.split('<script id="table-config" type="application/json">')[1].split("</script>")[0]
    )
    assert config["practice"] is True and config["game"] == game
    assert config["worker"] == "/static/frontend/practice/worker.js"
    for region in REGIONS:
        assert f'data-region="{region}"' in body  # the live table's hooks (issue 25)
    assert 'id="chat' not in body and "waiting-room" not in body  # nobody else is there


def test_an_unknown_practice_game_is_404(client: Client) -> None:
    assert client.get("/practicar/chess/").status_code == 404


def test_practice_pages_name_nobody_so_they_can_be_kept_for_offline(
    client: Client, django_user_model
) -> None:
    django_user_model.objects.create_user(username="ana_practica", password="x-long-pass-123")
    client.login(username="ana_practica", password="x-long-pass-123")
    for url in ["/practicar/", "/practicar/pika/"]:
        body = client.get(url).content.decode()
        assert "ana_practica" not in body and "csrfmiddlewaretoken" not in body


def test_only_practice_may_compile_webassembly(client: Client) -> None:
    for url in ["/practicar/", "/practicar/skyjo/", "/static/frontend/practice/worker.js"]:
        assert "'wasm-unsafe-eval'" in client.get(url)["Content-Security-Policy"], url
    for url in ["/", "/sin-conexion/", "/static/frontend/table.js"]:
        policy = client.get(url)["Content-Security-Policy"]
        assert "wasm-unsafe-eval" not in policy and "script-src 'self';" in policy, url
    assert "'unsafe-eval'" not in client.get("/practicar/")["Content-Security-Policy"]


def test_home_and_the_offline_page_lead_to_practice(client: Client) -> None:
    for url in ["/", "/sin-conexion/"]:
        assert 'href="/practicar/" data-testid="practice-link"' in client.get(url).content.decode(), url


def test_the_service_worker_keeps_practice_in_a_cache_of_its_own(client: Client) -> None:
    body = client.get("/sw.js").content.decode()
    assert 'const PRACTICE = "/practicar/";' in body
    assert 'const PRACTICE_CACHE = "tapete-practice-' in body
    assert 'const RUNTIME_CACHE = "tapete-pyodide-0.25.1";' in body


def test_each_game_on_the_home_page_offers_its_practice_table(client: Client) -> None:
    body = client.get("/").content.decode()
    for game in GAMES:
        assert f'href="/practicar/{game}/" data-testid="practice-{game}"' in body
