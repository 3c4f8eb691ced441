"""Rulezz service on its own: bad input is refused and the stored sheet is left as it was."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore as CookieSession

from cardgames.rulezz.scoring import RulezzError
from cardgames.services import rulezz


@pytest.fixture
def store() -> rulezz.SessionStore:
    return rulezz.SessionStore(CookieSession())


@pytest.mark.parametrize("points", [[("Ana", 1), ("Bea", 2)], 3, None, "Ana=1"])
def test_points_that_are_not_per_player_are_refused(store: rulezz.SessionStore, points: object) -> None:
    sheet = rulezz.sheet_create(store=store, players=["Ana", "Bea"])
    with pytest.raises(RulezzError) as err:
        rulezz.round_add(store=store, sheet_id=sheet.id, points=points, closer="Ana")
    assert err.value.code == "bad_round"
    assert store.get(sheet.id).rounds == []


@pytest.mark.parametrize("number", [0, 2, -1, "1", True, None])
def test_editing_a_round_that_does_not_exist(store: rulezz.SessionStore, number: object) -> None:
    sheet = rulezz.sheet_create(store=store, players=["Ana", "Bea"])
    rulezz.round_add(store=store, sheet_id=sheet.id, points={"Ana": 1, "Bea": 2}, closer=["Ana"])
    for change in (
        lambda: rulezz.round_replace(
            store=store, sheet_id=sheet.id, number=number, points={"Ana": 5, "Bea": 5}, closer="Bea"
        ),
        lambda: rulezz.round_delete(store=store, sheet_id=sheet.id, number=number),
    ):
        with pytest.raises(RulezzError) as err:
            change()
        assert err.value.code == "bad_round_index"
    assert store.get(sheet.id).rounds == [{"points": {"Ana": 1, "Bea": 2}, "closer": "Ana"}]


def test_unknown_sheet(store: rulezz.SessionStore) -> None:
    with pytest.raises(rulezz.SheetNotFound):
        rulezz.round_add(store=store, sheet_id="nope", points={}, closer="Ana")
