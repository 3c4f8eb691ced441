"""Dark mode (issue 25 item 6) in a real Chromium: the system's prefers-color-scheme decides until
the header's toggle picks a theme, which this browser then keeps on every page and tab; the
toggle is in view at 390 × 844 and at 1440 × 900. (axe-core in both themes: test_pages_browser.)"""

from __future__ import annotations

import os

import pytest

from tests.browser.test_tables_browser import browser  # noqa: F401  (the Chromium fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

LIGHT_PAGE, DARK_PAGE = "rgb(244, 241, 234)", "rgb(18, 24, 21)"  # site.css's --page in each theme


def shown(page) -> tuple[str, str, str]:
    """(data-theme, the toggle's aria-pressed, the page's background colour)."""
    return (
        page.locator("html").get_attribute("data-theme"),
        page.get_by_test_id("theme-toggle").get_attribute("aria-pressed"),
        page.evaluate("getComputedStyle(document.documentElement).backgroundColor"),
    )


@pytest.mark.parametrize("viewport", [(390, 844), (1440, 900)], ids=["phone", "desktop"])
def test_the_system_theme_until_the_toggle_picks_one_which_every_page_and_tab_keeps(
    live_server,
    browser,  # noqa: F811
    viewport,
) -> None:
    context = browser.new_context(locale="es-ES", viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + "/")
    assert shown(page) == ("dark", "true", DARK_PAGE)  # no choice yet: the system's
    toggle = page.get_by_role("button", name="Modo oscuro")
    box = toggle.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport[0]
    assert box["y"] + box["height"] <= viewport[1]

    toggle.click()
    assert shown(page) == ("light", "false", LIGHT_PAGE)
    other_tab = context.new_page()
    other_tab.emulate_media(color_scheme="dark")
    other_tab.goto(live_server.url + "/liga/")
    assert shown(other_tab) == ("light", "false", LIGHT_PAGE)  # kept, though the system is dark

    page.emulate_media(color_scheme="light")
    toggle.click()
    assert shown(page) == ("dark", "true", DARK_PAGE)
    other_tab.get_by_test_id("theme-toggle").and_(other_tab.locator("[aria-pressed=true]")).wait_for()
    assert shown(other_tab) == ("dark", "true", DARK_PAGE)  # an open tab follows at once
    page.reload()
    assert shown(page) == ("dark", "true", DARK_PAGE)
