"""Rulezz through its JSON API (SK-35..SK-39, PF-38, PF-39), for users and for guests."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from cardgames.rulezz.models import ScoreSheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.defaults["HTTP_X_CSRFTOKEN"] = client.get("/api/auth/csrf").json()["csrfToken"]
    return client


def post(client: Client, url: str, data: object):
    return client.post(url, data, content_type="application/json")


def new_sheet(client: Client, players=("Ana", "Bea", "Carlos")) -> str:
    response = post(client, "/api/rulezz/sheets", {"title": "Viernes", "players": list(players)})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def add_round(client: Client, sheet: str, points: dict, closer: object):
    return post(client, f"/api/rulezz/sheets/{sheet}/rounds", {"points": points, "closer": closer})


def test_sk35_closer_doubled_when_not_exclusively_lowest(api: Client) -> None:
    sheet = new_sheet(api)
    response = add_round(api, sheet, {"Ana": 10, "Bea": 5, "Carlos": 20}, "Ana")
    body = response.json()
    assert response.status_code == 201
    assert body["rounds"][0]["doubled"] is True
    assert body["totals"] == {"Ana": 20, "Bea": 5, "Carlos": 20}


def test_sk37_tie_doubles_and_negative_is_never_doubled(api: Client) -> None:
    sheet = new_sheet(api)
    tie = add_round(api, sheet, {"Ana": 7, "Bea": 7, "Carlos": 9}, "Ana").json()
    assert tie["totals"]["Ana"] == 14
    neg = add_round(api, sheet, {"Ana": -3, "Bea": -5, "Carlos": 0}, "Ana").json()
    assert neg["rounds"][1]["doubled"] is False and neg["totals"]["Ana"] == 11


def test_sk38_game_ends_at_100_and_lowest_wins(api: Client) -> None:
    sheet = new_sheet(api, players=("Ana", "Bea"))
    add_round(api, sheet, {"Ana": 60, "Bea": 10}, "Bea")
    end = add_round(api, sheet, {"Ana": 45, "Bea": 12}, "Bea").json()
    assert end["over"] is True and end["winners"] == ["Bea"]
    late = add_round(api, sheet, {"Ana": 1, "Bea": 1}, "Ana")
    assert late.status_code == 400 and late.json()["code"] == "round_after_end"
    assert len(api.get(f"/api/rulezz/sheets/{sheet}").json()["rounds"]) == 2


def test_edit_and_delete_rounds_recompute_totals(api: Client) -> None:
    sheet = new_sheet(api, players=("Ana", "Bea"))
    add_round(api, sheet, {"Ana": 60, "Bea": 10}, "Bea")
    add_round(api, sheet, {"Ana": 45, "Bea": 12}, "Bea")
    fixed = api.put(
        f"/api/rulezz/sheets/{sheet}/rounds/2",
        {"points": {"Ana": 5, "Bea": 12}, "closer": "Ana"},
        content_type="application/json",
    ).json()
    assert fixed["totals"] == {"Ana": 65, "Bea": 22} and fixed["over"] is False
    after = api.delete(f"/api/rulezz/sheets/{sheet}/rounds/1").json()
    assert after["totals"] == {"Ana": 5, "Bea": 12}
    assert api.delete(f"/api/rulezz/sheets/{sheet}/rounds/9").status_code == 400


@pytest.mark.parametrize(
    ("points", "closer", "code"),
    [
        ({"Ana": 143, "Bea": 1, "Carlos": 1}, "Ana", "out_of_range"),
        ({"Ana": -18, "Bea": 1, "Carlos": 1}, "Ana", "out_of_range"),
        ({"Ana": 1, "Bea": 1, "Carlos": 1}, "", "no_closer"),
        ({"Ana": 1, "Bea": 1, "Carlos": 1}, ["Ana", "Bea"], "several_closers"),
        ({"Ana": 1, "Bea": 1, "Zoe": 1}, "Ana", "unknown_player"),
        ({"Ana": "diez", "Bea": 1, "Carlos": 1}, "Ana", "not_a_number"),
        ({"Ana": 1.5, "Bea": 1, "Carlos": 1}, "Ana", "not_an_integer"),
        ({"Ana": 1, "Bea": 1}, "Ana", "missing_player"),
        ({"Ana": 1, "Bea": 1, "Carlos": 1}, "Zoe", "unknown_closer"),
    ],
)
def test_sk39_bad_rounds_are_refused_and_change_nothing(
    api: Client, points: dict, closer: object, code: str
) -> None:
    sheet = new_sheet(api)
    add_round(api, sheet, {"Ana": 3, "Bea": 4, "Carlos": 5}, "Ana")
    before = api.get(f"/api/rulezz/sheets/{sheet}").json()
    response = add_round(api, sheet, points, closer)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]
    assert api.get(f"/api/rulezz/sheets/{sheet}").json() == before


@pytest.mark.parametrize("players", [["Ana"], ["Ana", "Ana"], [f"P{i}" for i in range(9)], ["Ana", "x" * 21]])
def test_bad_player_lists_are_refused(api: Client, players: list) -> None:
    response = post(api, "/api/rulezz/sheets", {"players": players})
    assert response.status_code == 400 and response.json()["detail"]
    assert api.get("/api/rulezz/sheets").json()["results"] == []


def test_malformed_bodies_are_400_not_500(api: Client) -> None:
    sheet = new_sheet(api)
    for body in ["{nope", "[]", '{"points": 3, "closer": "Ana"}', '{"closer": "Ana"}']:
        response = api.post(f"/api/rulezz/sheets/{sheet}/rounds", body, content_type="application/json")
        assert response.status_code == 400, body
    assert api.get("/api/rulezz/sheets/not-a-uuid").status_code == 404


def test_signed_up_users_keep_sheets_and_cannot_see_others(api: Client) -> None:
    post(api, "/api/auth/signup", {"username": "Ana", "password": "mesa-verde-2026"})
    api.defaults["HTTP_X_CSRFTOKEN"] = api.cookies["csrftoken"].value
    sheet = new_sheet(api)
    assert ScoreSheet.objects.get().owner.username == "Ana"
    assert [s["id"] for s in api.get("/api/rulezz/sheets").json()["results"]] == [sheet]
    other = Client()
    other.force_login(User.objects.create_user(username="Bea", password="mesa-verde-2026"))
    assert other.get(f"/api/rulezz/sheets/{sheet}").status_code == 404
    assert other.get("/api/rulezz/sheets").json()["results"] == []


def test_guests_keep_sheets_in_their_session(api: Client) -> None:
    sheet = new_sheet(api)
    add_round(api, sheet, {"Ana": 3, "Bea": 4, "Carlos": 5}, "Ana")
    assert ScoreSheet.objects.count() == 0
    assert api.get(f"/api/rulezz/sheets/{sheet}").json()["totals"]["Ana"] == 3
    assert Client().get(f"/api/rulezz/sheets/{sheet}").status_code == 404
    assert api.delete(f"/api/rulezz/sheets/{sheet}").status_code == 204
    assert api.get("/api/rulezz/sheets").json()["results"] == []
