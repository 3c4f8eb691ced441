"""Offline practice in a real Chromium (PF-13, PF-62): visit once online, cut the network, and play a
whole game of each of the five games by clicking, on the same table page and game modules as the
live tables, fed by the practice worker's Pyodide; a reload mid-game offline resumes the same table.

The practice table's envelope is only read (``window.tapetePractice``) to choose as a person in a
hurry would (Guandan's plays) and to check that a reload brings back the same table. The bots'
pause before a move is shortened by the set-up's ``think`` (the live tests shorten theirs too).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from typing import Any

import pytest

from tests.browser.test_guandan_match_browser import choose_play
from tests.browser.test_onecard_pika_browser import axe_violations
from tests.browser.test_skyjo_puteo_guandan_browser import LEGAL, RESULT, click, open_page, select_cards
from tests.browser.test_tables_browser import SCREENSHOTS, browser, server

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

#: each game's set-up: two players (four in Guandan, a match set up at A as the live test does)
SETUPS = {
    "one_card": "players=2",
    "pika": "players=2",
    "puteo": "players=2&option-lives=3",
    "skyjo": "players=2",
    "guandan": "players=4&start_levels=A,A",
}
#: how long a whole game may take here. Guandan's match set up at A ends only in a deal whose winner's
#: partner is not last (GD-42, GD-43): about two deals in three, so one match in 27 needs four deals
#: or more, at over a minute each on a loaded CI box
GAME_SECONDS = {"guandan": 900}
GAME_SECONDS_DEFAULT = 300


def envelope(page: Any) -> dict[str, Any]:
    return page.evaluate("window.tapetePractice.envelope()")


def go_offline_ready(page: Any, server: str) -> None:
    """A first visit to /practicar/ online keeps the games for offline play; then the network goes."""
    page.goto(server + "/practicar/")
    page.locator("#offline-download[data-state=ready]").wait_for(timeout=120_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)


def open_table(page: Any, server: str, game: str) -> None:
    page.goto(f"{server}/practicar/{game}/?nueva=1&bot_level=easy&think=0.05&{SETUPS[game]}")
    page.get_by_test_id("practice-loading").wait_for(state="hidden", timeout=60_000)
    page.locator("#table-app[data-status=playing]").wait_for()


def quiet_turn(page: Any) -> dict[str, Any] | None:
    """The envelope when it is the person's turn with nothing timed and no move of theirs on its
    way to the worker (the page disables its legal controls until the answer comes, so that is
    looked at first): a reload now must bring back this very table. None otherwise."""
    if page.locator("#game-area .legal[disabled]").count():
        return None
    env = envelope(page)
    quiet = env["to_act"] == [env["you"]["seat"]] and not env["timers"] and env["status"] == "playing"
    return env if quiet else None


def step(page: Any, game: str, seen: Counter[str]) -> None:
    """One thing a person does at the table: the game's own controls, as the live tests use them."""
    if game == "puteo":
        numbers = page.locator(".pt-number.legal")
        if numbers.count():
            if click(numbers.first):
                seen["bid"] += click(page.get_by_test_id("pt-confirm-bid"))
            return
        cards = page.locator("#hand .legal")
        if cards.count():
            code = cards.first.get_attribute("data-card")
            if click(cards.first):  # lift, then tap again to play (PF-32)
                with contextlib.suppress(Exception):
                    lifted = page.locator(f'#hand [data-card="{code}"].lifted')
                    lifted.wait_for(timeout=3_000)
                    seen["play"] += click(lifted)
            return
    if game == "skyjo":
        ready = page.locator("[data-testid=sk-ready]:not([disabled])")
        discard = page.get_by_test_id("sk-mode-discard")
        if ready.count():
            seen["ready"] += click(ready)
        elif discard.count() and discard.get_attribute("aria-pressed") != "true":
            click(discard)
        elif page.get_by_test_id("sk-draw").count():
            seen["draw"] += click(page.get_by_test_id("sk-draw"))
        elif page.locator("#hand .legal").count():
            seen["cell"] += click(page.locator("#hand .legal").first)
        return
    if game == "guandan":
        env = envelope(page)
        view, legal = env["view"], env["legal"]
        if view["phase"] == "between":
            seen["next deal"] += click(page.get_by_test_id("gd-ready"))
            return
        if view["phase"] == "return":
            confirm = page.get_by_test_id("gd-confirm")
            if not confirm.is_enabled():
                click(page.get_by_test_id("gd-return").locator(".legal").first)
            seen["return"] += click(confirm)
            return
        if not any(a["type"] in ("play", "pass") for a in legal):  # a tribute to pay (GD-48): its card
            seen["tribute"] += click(page.locator(LEGAL).first)
            return
        play = choose_play(view, legal)
        if play is None:
            seen["pass"] += click(page.get_by_test_id("gd-pass"))
            return
        try:
            select_cards(page, play["cards"])
        except Exception:  # a snapshot redrew the hand under the pointer: start the selection again
            click(page.get_by_test_id("gd-clear"))
            return
        chooser = page.get_by_test_id("gd-chooser")
        if chooser.count():
            chooser.locator("input[type=radio]").first.check()
        seen["play"] += click(page.locator("[data-testid=gd-play]:not([disabled])"))
        return
    seen["legal"] += click(page.locator(LEGAL).first)  # One Card, Pika: the first legal control


@pytest.mark.parametrize("game", list(SETUPS))
def test_pf62_a_whole_game_offline_by_clicking_and_a_reload_mid_game(browser, server: str, game: str) -> None:
    page = open_page(browser, phone=True)
    go_offline_ready(page, server)
    open_table(page, server, game)
    assert page.evaluate("navigator.onLine") is False
    assert page.get_by_test_id("practice-note").is_visible()  # PF-13: nothing earned, said so
    seen: Counter[str] = Counter()
    reloaded = False
    limit = GAME_SECONDS.get(game, GAME_SECONDS_DEFAULT)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        page.locator(f"{RESULT}, {LEGAL}, [data-testid=gd-pass]").first.wait_for(timeout=60_000)
        if page.locator(RESULT).count():
            break
        env = quiet_turn(page) if not reloaded and sum(seen.values()) >= 4 else None
        if env is not None:
            page.screenshot(path=str(SCREENSHOTS / f"practice-{game}-390.png"), full_page=True)
            page.reload()  # offline: the page from the cache, the table from IndexedDB
            page.get_by_test_id("practice-loading").wait_for(state="hidden", timeout=60_000)
            page.locator(f'#table-app[data-version="{env["version"]}"]').wait_for()
            again = envelope(page)
            assert (again["version"], again["view"], again["legal"]) == (
                env["version"],
                env["view"],
                env["legal"],
            )
            reloaded = True
            continue
        step(page, game, seen)
    else:
        raise AssertionError(f"{game}: practice game not over after {limit} s: {dict(seen)}")

    env = envelope(page)
    assert env["status"] == "finished" and env["result"] and env["mode"] == "practice"
    assert reloaded, f"{game}: no quiet turn to reload on: {dict(seen)}"
    result = page.get_by_test_id("result")
    assert "Fin de la partida" in result.inner_text()
    assert "no se envía nada al servidor" in page.locator("#result-note").inner_text()
    assert page.locator("#result-places li").count() == env["num_players"]
    page.screenshot(path=str(SCREENSHOTS / f"practice-result-{game}-390.png"), full_page=True)
    # "Otra partida" deals again in the browser, still offline
    before = env["seed"]
    page.locator("[data-action=rematch]").click()
    page.locator("#table-app[data-status=playing]").wait_for(timeout=30_000)
    assert envelope(page)["seed"] is None and page.locator("#result").is_hidden()
    assert before and page.errors == []
    page.context.close()


def test_the_practice_pages_pass_axe_and_the_download_shows_its_progress(browser, server: str) -> None:
    page = open_page(browser)
    page.goto(server + "/practicar/")
    status = page.get_by_test_id("offline-download-status")
    page.locator("#offline-download[data-state=ready]").wait_for(timeout=120_000)
    assert "sin conexión" in status.inner_text()
    assert page.locator("#offline-download-bar").evaluate("bar => bar.value") == 100
    assert axe_violations(page) == []
    page.goto(server + "/practicar/skyjo/?nueva=1&players=3&bot_level=hard&think=0.05")
    page.get_by_test_id("practice-loading").wait_for(state="hidden", timeout=60_000)
    page.locator("#hand[role=grid]").wait_for()
    assert axe_violations(page) == []
    page.screenshot(path=str(SCREENSHOTS / "practice-skyjo-1280.png"), full_page=True)
    # the list offers the saved game back
    page.goto(server + "/practicar/")
    page.get_by_test_id("practice-resume-skyjo").wait_for()
    errors = page.context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    assert page.errors == []
    page.context.close()
