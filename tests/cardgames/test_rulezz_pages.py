"""Rulezz pages: create a sheet, add, fix and delete rounds, errors in the page (SK-35..SK-39)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def create(client: Client, *names: str) -> str:
    data = {f"player-{i}": name for i, name in enumerate(names)}
    response = client.post("/rulezz/", {"title": "Casa", **data})
    assert response.status_code == 302
    return response["Location"]


def add(client: Client, url: str, points: list[str], closer: str | None):
    data = {f"points-{i}": p for i, p in enumerate(points)}
    if closer is not None:
        data["closer"] = closer
    return client.post(url, data)


def test_create_and_score_a_sheet(client: Client) -> None:
    url = create(client, "Ana", "Bea")
    add(client, url, ["10", "5"], "Ana")
    page = client.get(url).content.decode()
    assert "(×2 de 10)" in page
    assert 'data-testid="total-0"><strong>20</strong>' in page


def test_errors_show_in_the_page_and_keep_the_input(client: Client) -> None:
    url = create(client, "Ana", "Bea")
    response = add(client, url, ["200", "5"], "Ana")
    assert response.status_code == 400
    body = response.content.decode()
    assert "entre -17 y 142" in body and 'value="200"' in body
    response = add(client, url, ["3", "5"], None)
    assert "indica quién cerró" in response.content.decode()
    response = add(client, url, ["tres", "5"], "Ana")
    assert "no son un número" in response.content.decode()


def test_fix_and_delete_a_round(client: Client) -> None:
    url = create(client, "Ana", "Bea")
    add(client, url, ["10", "5"], "Ana")
    add(client, url, ["1", "2"], "Ana")
    client.post(url + "ronda/1/", {"points-0": "1", "points-1": "5", "closer": "Ana"})
    assert 'data-testid="total-0"><strong>2</strong>' in client.get(url).content.decode()
    client.post(url + "ronda/2/borrar/")
    assert 'data-testid="total-0"><strong>1</strong>' in client.get(url).content.decode()
    assert client.get(url + "ronda/7/").status_code == 404


def test_create_needs_two_players(client: Client) -> None:
    response = client.post("/rulezz/", {"player-0": "Ana"})
    assert response.status_code == 400
    assert "al menos 2 jugadores" in response.content.decode()


def test_unknown_sheet_is_404(client: Client) -> None:
    assert client.get("/rulezz/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_english_page(client: Client) -> None:
    client.cookies["django_language"] = "en"
    url = create(client, "Ana", "Bea")
    response = add(client, url, ["200", "5"], "Ana")
    assert "between -17 and 142" in response.content.decode()
