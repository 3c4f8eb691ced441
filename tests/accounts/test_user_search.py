"""The room's invite box suggests usernames (issue 12: "invite by username with autocomplete")."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def nico() -> Client:
    for name in ["Nico", "Nicanor", "nina", "Niño", "Bea", "NiLo"]:
        User.objects.create_user(username=name, password="mesa-verde-2026")
    User.objects.filter(username="NiLo").update(is_active=False)
    client = Client()
    client.force_login(User.objects.get(username="Nico"))
    return client


def search(client: Client, q: object) -> object:
    return client.get("/api/users", {"q": q}, HTTP_ACCEPT="application/json")


def test_names_starting_with_the_typed_letters_any_case_not_the_asker_nor_inactive(nico: Client) -> None:
    response = search(nico, "NI")
    assert response.status_code == 200
    assert response.json() == {"results": ["Nicanor", "nina", "Niño"]}


def test_fewer_than_two_letters_or_junk_suggest_nothing(nico: Client) -> None:
    for q in ["", "n", " n ", "x" * 41, "\x00\x00", "ni%", "n_", "ni\u202e"]:
        response = search(nico, q)
        assert response.status_code == 200 and response.json() == {"results": []}


def test_at_most_eight_suggestions(nico: Client) -> None:
    for i in range(12):
        User.objects.create_user(username=f"beatriz{i}", password="mesa-verde-2026")
    assert len(search(nico, "bea").json()["results"]) == 8


def test_only_signed_in_players_may_search(nico: Client) -> None:
    response = Client().get("/api/users", {"q": "ni"}, HTTP_ACCEPT="application/json")
    assert response.status_code in (401, 403) and "detail" in response.json()
