"""A table socket that stays open but goes silent is replaced, in a real Chromium (issue 13,
"Faults"; PF-63: reconnection loses nothing).

A socket can die without closing: the process behind it hangs, a proxy drops it, a laptop
wakes on another network. The page sends a heartbeat every 5 s and the server answers each one;
after three unanswered the page opens a new socket and carries on. Here the page's first
socket reaches the server, but nothing the server sends reaches the page (Playwright's
WebSocket routing); the page must open a second socket by itself, show the table and play.

The server and browser fixtures are test_tables_browser's.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.test_tables_browser import ENABLED, browser, click, envelope, new_page, server

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

HEARTBEAT_SECONDS = 5  # frontend/static/frontend/table.js HEARTBEAT_MS
SILENT_BEATS = 3  # table.js SILENT_BEATS: unanswered heartbeats before a new socket


def shown_version(page: Any) -> int:
    return int(page.locator("#table-app").get_attribute("data-version") or -1)


def until(condition: Any, seconds: float = 10) -> bool:
    """Poll from here (the pages' CSP evaluates no strings, so no wait_for_function)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_pf63_a_socket_the_server_no_longer_answers_is_replaced_and_the_game_goes_on(
    browser: Any, server: str
) -> None:
    page = new_page(browser)
    sockets: list[float] = []

    def route(ws: Any) -> None:
        sockets.append(time.monotonic())
        upstream = ws.connect_to_server()  # the page's frames reach the server ...
        if len(sockets) == 1:
            upstream.on_message(lambda _frame: None)  # ... but the first socket's answers never arrive

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    # given a guest's game against a bot whose first socket went silent from the start
    page.goto(server + "/")
    page.get_by_label("Tu nombre en la mesa").fill("Sol")
    card = page.locator('.game-card[data-game="one_card"]')
    card.locator('select[name="players"]').select_option("2")
    card.locator('select[name="bot_level"]').select_option("easy")
    card.get_by_role("button", name="Jugar contra bots").click()
    page.wait_for_url("**/mesa/*/")

    # when the page has waited three heartbeats for an answer, it opens a new socket by itself
    patience = (SILENT_BEATS + 3) * HEARTBEAT_SECONDS * 1000
    page.locator("#table-app[data-status=playing]").wait_for(timeout=patience)
    assert len(sockets) == 2, sockets
    assert sockets[1] - sockets[0] >= SILENT_BEATS * HEARTBEAT_SECONDS - 1  # not before the silence
    # then it shows the table as the server has it, and the game goes on by clicking
    assert until(lambda: shown_version(page) == envelope(page)["version"]), "the page is behind"
    page.locator(ENABLED).first.wait_for()
    version = shown_version(page)
    assert click(page, ENABLED)
    if page.locator("#game-area .picker").count():
        assert click(page, ENABLED)  # the choice that card opened: a 7's suit (PF-8)
    assert until(lambda: shown_version(page) > version), "the move never came back"
    assert page.locator("#banner").is_hidden()
    page.context.close()
