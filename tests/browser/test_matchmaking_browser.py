"""Online play in a real Chromium against daphne on the embedded defaults (issue 11).

Ana opens the home page in two tabs and queues for a free 2-player One Card table: she sees
her place and then the seconds until simulated players arrive, counting down. Bea queues for
the same table from her own browser: the table starts and the tab that queued — Ana's first and
Bea's — is taken to /mesa/<code>/ by the lobby socket, where the game is on; Ana's other tab
stays and says the table is ready (issue 25).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.test_tables_browser import browser, new_page, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def lobby_ready(page: Any, url: str) -> None:
    """Open ``url`` and wait for the lobby socket's hello (from then on, events reach the page).
    The frame listener is attached as the socket opens: the hello may arrive before ``goto``
    returns (it waits for the load event), and waiting for a frame after that missed it."""
    frames: list[Any] = []

    def watch(ws: Any) -> None:
        if ws.url.endswith("/ws/lobby/"):
            ws.on("framereceived", lambda payload: frames.append(payload))

    page.on("websocket", watch)
    try:
        page.goto(url)
        for _ in range(300):  # 15 s
            if frames:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"no lobby frame on {url}")
    finally:
        page.remove_listener("websocket", watch)


def sign_up(page: Any, base: str, username: str) -> None:
    page.goto(base + "/")
    token = page.request.get(base + "/api/auth/csrf").json()["csrfToken"]
    response = page.request.post(
        base + "/api/auth/signup",
        data={"username": username, "password": "mesa-verde-2026-larga"},
        headers={"X-CSRFToken": token, "Referer": base + "/"},
    )
    assert response.ok, response.text()


def test_queue_countdown_and_the_queuing_tab_taken_to_the_table(browser: Any, server: str) -> None:  # noqa: F811
    ana = new_page(browser)
    sign_up(ana, server, "ana_online")
    ana_second_tab = ana.context.new_page()
    bea = new_page(browser)
    sign_up(bea, server, "bea_online")
    for page in (ana, ana_second_tab, bea):
        page.goto(server + "/")
        page.wait_for_selector("#online-play")

    # Ana queues for a free 2-player One Card table: her place, then the countdown (PF-51)
    ana.select_option("[data-testid=queue-game]", "one_card")
    ana.select_option("[data-testid=queue-players]", "2")
    ana.select_option("[data-testid=queue-stake]", "0")
    ana.click("[data-testid=queue-join]")
    status = ana.locator("[data-testid=queue-status]")
    status.filter(has_text=re.compile(r"simulados completan la mesa en \d+ s")).wait_for()
    first = int(re.search(r"en (\d+) s", status.text_content()).group(1))
    assert 20 <= first <= 30
    ana.wait_for_timeout(2100)
    assert int(re.search(r"en (\d+) s", status.text_content()).group(1)) < first  # it counts down
    assert ana.locator("[data-testid=queue-leave]").is_visible()
    banner = ana_second_tab.locator("#queue-banner")
    banner.filter(has_text="jugadores simulados en").wait_for()  # the other tab hears it too

    # Bea queues for the same table: it is full, it starts, each tab that queued goes to it;
    # Ana's other tab stays where it is and says the table is ready (issue 25, tabs.js)
    bea.select_option("[data-testid=queue-game]", "one_card")
    bea.select_option("[data-testid=queue-players]", "2")
    bea.click("[data-testid=queue-join]")
    for page in (ana, bea):
        page.wait_for_url(re.compile(r"/mesa/\d{6}/$"), timeout=15_000)
    assert ana.url == bea.url
    ready = ana_second_tab.get_by_test_id("table-ready-toast")
    ready.wait_for()
    assert ready.get_by_role("link", name="Ir").get_attribute("href") == ana.url.removeprefix(server)
    assert ana_second_tab.url == server + "/"
    code = ana.url.rstrip("/").rsplit("/", 1)[1]
    table = ana.request.get(server + f"/api/rooms/{code}").json()
    assert table["mode"] == "online" and table["status"] == "playing"
    assert sorted(s["kind"] for s in table["seats"]) == ["human", "human"]


def test_pf51_a_joins_late_answer_does_not_hide_the_countdown_the_socket_already_showed(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """Joining kicks a wave at once, so the socket's "seated" (with the countdown to simulated
    players, PF-51) can reach the page before the join's own answer, "queued". Here that answer is
    held back 2 s: the page must go on showing the countdown, not the older place in the queue."""
    ana = new_page(browser)
    sign_up(ana, server, "ana_tarde")
    lobby_ready(ana, server + "/")  # hello: in its groups, events will reach it
    answered: list[str] = []

    def held_back(route: Any) -> None:
        response = route.fetch()
        time.sleep(2)
        answered.append(response.text())
        route.fulfill(response=response)

    ana.route(
        "**/api/queue", lambda route: held_back(route) if route.request.method == "POST" else route.fallback()
    )
    ana.select_option("[data-testid=queue-game]", "one_card")
    ana.select_option("[data-testid=queue-players]", "2")
    ana.select_option("[data-testid=queue-stake]", "0")
    ana.click("[data-testid=queue-join]")
    status = ana.locator("[data-testid=queue-status]")
    countdown = re.compile(r"simulados completan la mesa en \d+ s")
    status.filter(has_text=countdown).wait_for()
    while not answered:
        ana.wait_for_timeout(100)
    assert '"queued"' in answered[0]  # the answer really was the older status
    ana.wait_for_timeout(1000)  # the held answer has reached the page by now
    assert countdown.search(status.text_content() or ""), status.text_content()
