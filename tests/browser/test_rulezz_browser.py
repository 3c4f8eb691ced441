"""Rulezz in a real Chromium (SK-35..SK-39): a guest scores a paper game to its end."""

from __future__ import annotations

import os

import pytest

from tests.browser.test_accounts_browser import page  # noqa: F401  (the Chromium page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter_round(page, points: list[int], closer: str) -> None:  # noqa: F811
    for i, value in enumerate(points):
        page.locator(f"#points-{i}").fill(str(value))
    page.get_by_label(closer, exact=True).last.check()
    page.get_by_role("button", name="Añadir ronda").click()


def test_guest_scores_a_game_fixes_a_round_and_sees_the_winner(page, live_server) -> None:  # noqa: F811
    page.goto(live_server.url + "/rulezz/")
    page.get_by_label("Jugador 1", exact=True).fill("Ana")
    page.get_by_label("Jugador 2", exact=True).fill("Bea")
    page.get_by_role("button", name="Crear hoja").click()

    enter_round(page, [10, 5], "Ana")  # SK-37: Ana closed without the lowest score: doubled
    page.get_by_text("(×2 de 10)").wait_for()
    assert page.get_by_test_id("total-0").inner_text().startswith("20")

    enter_round(page, [300, 5], "Ana")  # SK-39: out of range, refused
    page.get_by_role("alert").filter(has_text="entre -17 y 142").wait_for()
    assert page.get_by_test_id("total-0").inner_text().startswith("20")

    page.locator("#points-0").fill("90")
    page.locator("#points-1").fill("3")
    page.get_by_label("Bea", exact=True).last.check()
    page.get_by_role("button", name="Añadir ronda").click()
    page.get_by_test_id("rulezz-winner").filter(has_text="Gana Bea").wait_for()

    page.get_by_role("link", name="Corregir").first.click()  # fix round 1: Ana had 1, not 10
    page.locator("#points-0").fill("1")
    page.get_by_role("button", name="Guardar corrección").click()
    page.get_by_text("Ronda 1 corregida.").wait_for()
    assert page.get_by_test_id("total-0").inner_text().startswith("91")
    page.screenshot(path=os.environ.get("SCREENSHOT_DIR", "/tmp") + "/rulezz.png", full_page=True)
