"""Rulezz services and selectors on their own, with no request: bad input is refused and the stored
sheet is left as it was; the owner is a signed-in user's Player or a guest's session mapping."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore as CookieSession

from accounts.identity import Player, player_for_user
from accounts.models import User
from cardgames.rulezz import selectors, services
from cardgames.rulezz.models import ScoreSheet
from cardgames.rulezz.scoring import RulezzError
from cardgames.rulezz.stores import MAX_GUEST_SHEETS, SESSION_KEY, SheetNotFound


@pytest.fixture
def owner() -> CookieSession:
    return CookieSession()


@pytest.mark.parametrize("points", [[("Ana", 1), ("Bea", 2)], 3, None, "Ana=1"])
def test_points_that_are_not_per_player_are_refused(owner: CookieSession, points: object) -> None:
    sheet = services.sheet_create(owner=owner, players=["Ana", "Bea"])
    with pytest.raises(RulezzError) as err:
        services.round_add(owner=owner, sheet_id=sheet.id, points=points, closer="Ana")
    assert err.value.code == "bad_round"
    assert selectors.sheet_get(owner=owner, sheet_id=sheet.id).rounds == []


@pytest.mark.parametrize("number", [0, 2, -1, "1", True, None])
def test_editing_a_round_that_does_not_exist(owner: CookieSession, number: object) -> None:
    sheet = services.sheet_create(owner=owner, players=["Ana", "Bea"])
    services.round_add(owner=owner, sheet_id=sheet.id, points={"Ana": 1, "Bea": 2}, closer=["Ana"])
    for change in (
        lambda: services.round_replace(
            owner=owner, sheet_id=sheet.id, number=number, points={"Ana": 5, "Bea": 5}, closer="Bea"
        ),
        lambda: services.round_delete(owner=owner, sheet_id=sheet.id, number=number),
    ):
        with pytest.raises(RulezzError) as err:
            change()
        assert err.value.code == "bad_round_index"
    stored = selectors.sheet_get(owner=owner, sheet_id=sheet.id)
    assert stored.rounds == [{"points": {"Ana": 1, "Bea": 2}, "closer": "Ana"}]


def test_unknown_sheet(owner: CookieSession) -> None:
    with pytest.raises(SheetNotFound):
        services.round_add(owner=owner, sheet_id="nope", points={}, closer="Ana")
    with pytest.raises(SheetNotFound):
        selectors.sheet_get(owner=owner, sheet_id="nope")


def test_a_guests_sheets_live_in_any_mapping_and_a_session_is_marked_modified(owner: CookieSession) -> None:
    plain: dict[str, Any] = {}
    sheet = services.sheet_create(owner=plain, players=["Ana", "Bea"], title="Casa")
    assert list(plain[SESSION_KEY]) == [sheet.id]
    assert [s.id for s in selectors.sheet_list(owner=plain)] == [sheet.id]
    services.sheet_create(owner=owner, players=["Ana", "Bea"])
    assert owner.modified


def test_a_guest_keeps_at_most_20_sheets(owner: CookieSession) -> None:
    sheets = [services.sheet_create(owner=owner, players=["Ana", "Bea"]) for _ in range(MAX_GUEST_SHEETS)]
    with pytest.raises(RulezzError) as err:
        services.sheet_create(owner=owner, players=["Ana", "Bea"])
    assert err.value.code == "too_many_sheets"
    assert len(selectors.sheet_list(owner=owner)) == MAX_GUEST_SHEETS == 20
    # editing one of the 20 still works; deleting one makes room for a new one
    services.round_add(owner=owner, sheet_id=sheets[0].id, points={"Ana": 1, "Bea": 2}, closer="Ana")
    services.sheet_delete(owner=owner, sheet_id=sheets[1].id)
    services.sheet_create(owner=owner, players=["Ana", "Bea"])


@pytest.mark.django_db
def test_a_signed_up_users_sheets_are_theirs_alone() -> None:
    ana = player_for_user(User.objects.create_user(username="Ana", password="x" * 12))
    bea = player_for_user(User.objects.create_user(username="Bea", password="x" * 12))
    sheet = services.sheet_create(owner=ana, players=["Ana", "Bea"])
    services.round_add(owner=ana, sheet_id=sheet.id, points={"Ana": 1, "Bea": 2}, closer="Ana")
    assert ScoreSheet.objects.get().owner.username == "Ana"
    assert [s.id for s in selectors.sheet_list(owner=ana)] == [sheet.id]
    assert selectors.sheet_list(owner=bea) == []
    with pytest.raises(SheetNotFound):
        services.sheet_delete(owner=bea, sheet_id=sheet.id)
    services.sheet_delete(owner=ana, sheet_id=sheet.id)
    assert ScoreSheet.objects.count() == 0


def test_a_guest_player_is_not_an_owner_their_session_is() -> None:
    with pytest.raises(TypeError):
        selectors.sheet_list(owner=Player(kind="guest", id="ab12", name="Invitado"))


def test_no_service_or_selector_takes_a_request() -> None:
    for module in (services, selectors):
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ != module.__name__:
                continue
            for param in inspect.signature(function).parameters.values():
                assert param.name != "request", f"{module.__name__}.{name}"
                assert "HttpRequest" not in str(param.annotation), f"{module.__name__}.{name}"
