"""Issue 13 items 13, 14 and 15 for Rulezz: bounded growth, paginated lists, admin edits
validated like the services, and a visible message for a round posted to a finished sheet."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.pagination import PageNumberPagination

from accounts.identity import player_for_user
from cardgames.rulezz import services, stores
from cardgames.rulezz.admin import ScoreSheetForm
from cardgames.rulezz.models import ScoreSheet
from cardgames.rulezz.scoring import RulezzError

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user(username="ana", password="mesa-verde-2026")


@pytest.fixture
def api(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.defaults["HTTP_X_CSRFTOKEN"] = client.get("/api/auth/csrf").json()["csrfToken"]
    return client


def zero_round() -> dict:
    return {"points": {"Ana": 0, "Bea": 0}, "closer": "Ana"}


def test_rounds_per_sheet_are_bounded(user, monkeypatch) -> None:
    monkeypatch.setattr(services, "MAX_ROUNDS", 3)
    owner = player_for_user(user)
    sheet = services.sheet_create(owner=owner, players=["Ana", "Bea"])
    for _ in range(3):
        services.round_add(owner=owner, sheet_id=sheet.id, **zero_round())
    with pytest.raises(RulezzError) as caught:
        services.round_add(owner=owner, sheet_id=sheet.id, **zero_round())
    assert caught.value.code == "too_many_rounds"
    assert len(ScoreSheet.objects.get(pk=sheet.id).rounds) == 3


def test_sheets_per_user_are_bounded(user, monkeypatch) -> None:
    monkeypatch.setattr(stores, "MAX_USER_SHEETS", 2)
    owner = player_for_user(user)
    services.sheet_create(owner=owner, players=["Ana", "Bea"])
    services.sheet_create(owner=owner, players=["Ana", "Bea"])
    with pytest.raises(RulezzError) as caught:
        services.sheet_create(owner=owner, players=["Ana", "Bea"])
    assert caught.value.code == "too_many_sheets"
    assert ScoreSheet.objects.filter(owner=user).count() == 2


def test_too_many_rounds_over_the_api_is_a_readable_400(api, monkeypatch) -> None:
    monkeypatch.setattr(services, "MAX_ROUNDS", 1)
    sheet = api.post("/api/rulezz/sheets", {"players": ["Ana", "Bea"]}, content_type="application/json")
    url = f"/api/rulezz/sheets/{sheet.json()['id']}/rounds"
    assert api.post(url, zero_round(), content_type="application/json").status_code == 201
    refused = api.post(url, zero_round(), content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "too_many_rounds" and refused.json()["detail"]


def test_sheet_list_is_paginated(api, monkeypatch) -> None:
    monkeypatch.setattr(PageNumberPagination, "page_size", 2)  # read from settings at import
    for _ in range(3):
        api.post("/api/rulezz/sheets", {"players": ["Ana", "Bea"]}, content_type="application/json")
    first = api.get("/api/rulezz/sheets").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["next"]
    second = api.get("/api/rulezz/sheets?page=2").json()
    assert len(second["results"]) == 1 and second["next"] is None
    past = api.get("/api/rulezz/sheets?page=9")
    assert past.status_code == 404 and past.json()["detail"]


def admin_form(user, **changes) -> ScoreSheetForm:
    data = {
        "owner": user.pk,
        "title": "Viernes",
        "players": json.dumps(["Ana", "Bea"]),
        "rounds": json.dumps([zero_round()]),
    }
    return ScoreSheetForm(data={**data, **changes})


@pytest.mark.parametrize(
    "changes",
    [
        {"players": json.dumps("Ana")},
        {"players": json.dumps(["Ana"])},
        {"players": json.dumps(["Ana", "ana"])},
        {"players": json.dumps([{"x": 1}, "Bea"])},
        {"rounds": json.dumps({"points": 1})},
        {"rounds": json.dumps([{"points": {"Ana": "x", "Bea": 0}, "closer": "Ana"}])},
        {"rounds": json.dumps([{"points": {"Ana": 0, "Bea": 0}, "closer": "Carlos"}])},
        {"rounds": json.dumps([{"points": {"Ana": 0}, "closer": "Ana"}])},
        {"rounds": json.dumps([{"points": {"Ana": 60, "Bea": 0}, "closer": "Bea"}] * 3)},
        {"rounds": json.dumps([1, 2])},
        {"title": "An\u202etitle"},
    ],
    ids=str,
)
def test_admin_edits_go_through_the_services_validation(user, changes) -> None:
    form = admin_form(user, **changes)
    assert not form.is_valid()
    assert form.non_field_errors() or form.errors


def test_admin_saves_a_valid_sheet_as_the_services_would(user) -> None:
    form = admin_form(user, players=json.dumps(["Ana ", "Bea"]))
    assert form.is_valid(), form.errors
    sheet = form.save()
    assert sheet.players == ["Ana", "Bea"]
    client = Client()
    client.force_login(user)
    assert client.get(f"/rulezz/{sheet.pk}/").status_code == 200


def test_round_posted_to_a_finished_sheet_shows_why(user) -> None:
    owner = player_for_user(user)
    sheet = services.sheet_create(owner=owner, players=["Ana", "Bea"])
    services.round_add(owner=owner, sheet_id=sheet.id, points={"Ana": 100, "Bea": 0}, closer="Bea")
    client = Client()
    client.force_login(user)
    response = client.post(f"/rulezz/{sheet.id}/", {"points-0": "1", "points-1": "2", "closer": "Ana"})
    assert response.status_code == 400
    assert "La partida ya terminó" in response.content.decode()
