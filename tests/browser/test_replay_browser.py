"""After the game in a real Chromium (issue 10): a signed-up player plays a quick One Card game
against a bot, finds it in the profile's «Partidas», opens «Ver repetición» and steps through
to the result. The server is the table pages' daphne (tests/browser/test_tables_browser.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import test_tables_browser as tables_browser
from tests.browser.test_tables_browser import (  # noqa: F401 - pytest fixtures used by name
    SCREENSHOTS,
    WHOLE_GAME_SECONDS,
    browser,
    new_page,
    play_until,
    server,
)

pytestmark = pytest.mark.browser

#: this module's server lets the bots think 0.03 s (0.15 s for the table pages): the game
#: is only the way to a replay, and a One Card game runs to ~150 moves
BOT_THINK = "0.03"


@pytest.fixture(scope="module", autouse=True)
def _quick_bots() -> Iterator[None]:
    """Set before ``server`` starts daphne (autouse fixtures come first), restored after."""
    before = tables_browser.BOT_THINK
    tables_browser.BOT_THINK = BOT_THINK
    yield
    tables_browser.BOT_THINK = before


def sign_up(page: Any, url: str, username: str) -> None:
    page.goto(url + "/cuenta/registro/")
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Contraseña", exact=True).fill("mesa-verde-2026")
    page.get_by_label("Repite la contraseña").fill("mesa-verde-2026")
    page.get_by_role("button", name="Crear cuenta").click()
    page.get_by_test_id("nav-profile").wait_for()


def test_a_player_replays_a_finished_game_from_the_profile(browser, server: str) -> None:  # noqa: F811
    page = new_page(browser)
    sign_up(page, server, "Rita_replay")
    page.goto(server + "/")
    card = page.locator('.game-card[data-game="one_card"]')
    card.locator('select[name="players"]').select_option("2")
    card.locator('select[name="bot_level"]').select_option("easy")
    card.get_by_role("button", name="Jugar contra bots").click()
    page.wait_for_url("**/mesa/*/")
    play_until(page, "#result:not([hidden])", limit=WHOLE_GAME_SECONDS)

    # the profile lists the game (settled just after the last move)
    page.get_by_test_id("nav-profile").click()
    link = page.get_by_test_id("profile-games").get_by_role("link", name="Ver repetición")
    for _ in range(50):
        if link.count():
            break
        page.wait_for_timeout(100)
        page.reload()
    row = page.locator(".games-table tbody tr").first
    assert "One Card" in row.inner_text() and "Rita_replay" in row.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "profile-games.png"), full_page=True)
    link.first.click()
    page.wait_for_url("**/partida/*/repeticion/")

    app = page.locator("#replay-app")
    steps = int(app.get_attribute("data-steps"))
    assert steps > 2 and app.get_attribute("data-step") == "0"
    assert "Reparto inicial" in page.get_by_test_id("step-move").inner_text()
    assert page.locator("#hand [data-card]").count() == 7  # the player's own dealt hand
    assert page.get_by_test_id("verdict").inner_text() == "Barajado comprobado."
    page.get_by_role("button", name="Paso siguiente").click()
    assert app.get_attribute("data-step") == "1"
    assert re.search(r"\b(jugador|bot|tiempo agotado)\b", page.get_by_test_id("step-move").inner_text())
    page.screenshot(path=str(SCREENSHOTS / "replay-step.png"), full_page=True)

    # step on, jump with the slider, then autoplay to the end
    following = page.get_by_role("button", name="Paso siguiente")
    for expected in range(2, min(steps - 4, 12)):
        following.click()
        assert app.get_attribute("data-step") == str(expected)
    page.locator("#step-slider").fill(str(steps - 4))
    following.click()
    assert app.get_attribute("data-step") == str(steps - 3) and not page.get_by_test_id("result").is_visible()
    page.get_by_role("button", name="Reproducir").click()
    page.locator(f"#replay-app[data-step='{steps - 1}']").wait_for(timeout=5_000)
    assert following.is_disabled() and page.get_by_role("button", name="Reproducir").is_visible()
    result = page.get_by_test_id("result")
    assert result.is_visible() and "Fin de la partida" in result.inner_text()
    assert "Gana:" in page.locator("#result-winners").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "replay-end.png"), full_page=True)

    # back to the deal, and to the end again
    page.get_by_role("button", name="Primer paso").click()
    assert app.get_attribute("data-step") == "0" and not result.is_visible()
    page.get_by_role("button", name="Último paso").click()
    assert app.get_attribute("data-step") == str(steps - 1) and result.is_visible()
    page.context.close()
