"""One Card and Pika tables in a real Chromium, played like a person plays them (issue 12).

A guest starts a game against easy bots from the home page and plays it to the result screen
by clicking the cards and buttons a person sees (no socket frames are sent by the test): the
One Card and catch buttons (PF-6), Draw disabled while a playable card is held (PF-7), the 7's
suit picker (PF-8); Pika's colour picker, Pika! button (PF-11) and a hand reordered by
dragging a card with a finger at a phone's size (PF-10). One Card is also played to its end
with the keyboard alone (issue 12: the table pages can be played with the keyboard alone).

The daphne server, the browser and the page helpers are test_tables_browser.py's.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.browser.test_pages_browser import AXE, RUN_AXE
from tests.browser.test_tables_browser import (
    ENABLED,
    SCREENSHOTS,
    WHOLE_GAME_SECONDS,
    envelope,
    new_page,
    play_until,
    start_from_home,
)
from tests.browser.test_tables_browser import browser as browser  # the shared fixtures
from tests.browser.test_tables_browser import server as server

pytestmark = pytest.mark.browser
RESULT = "#result:not([hidden])"
HAND = "#hand [data-card]"


def hand_codes(page: Any) -> list[str]:
    return page.locator(HAND).evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A/AA violations on the page as it is now (labels, names, contrast)."""
    page.add_script_tag(url=AXE)  # vendored, same origin: the CSP allows it
    return page.evaluate(RUN_AXE)


def assert_result_screen(page: Any) -> None:
    result = page.get_by_test_id("result")
    assert "Fin de la partida" in result.inner_text()
    assert len(page.locator("#result-seed").text_content()) == 32  # folded away (issue 25 item 4)


# -- One Card ---------------------------------------------------------------------------------------
ONE_CARD_PRIORITIES = (
    "[data-testid=suit-picker] button.legal:not([disabled])",  # PF-8: finish the 7's play
    "button.call.legal:not([disabled])",  # PF-6: call One Card when it is offered
    "button.catch.legal:not([disabled])",  # PF-6: touch a rival who forgot
    "#hand button.legal[data-card^='7']:not([disabled])",  # a 7 when there is one: the picker
    "#hand button.legal:not([disabled])",
)


def test_one_card_pf6_pf7_pf8_a_whole_game_by_clicking_cards(browser, server: str) -> None:
    page = new_page(browser)
    start_from_home(page, server, "one_card", "Ana_oc", players="2")
    page.locator(ENABLED).first.wait_for()
    assert page.get_by_test_id("top-card").get_attribute("aria-label").startswith("Carta arriba: ")
    page.screenshot(path=str(SCREENSHOTS / "onecard-table.png"), full_page=True)
    assert axe_violations(page) == []  # ARIA names on every card and button, contrast
    seen: set[str] = set()

    def look(page: Any) -> None:
        playable = page.locator("#hand button.legal:not([disabled])").count()
        draw = page.get_by_test_id("draw")
        if playable and draw.count() and draw.is_disabled():
            seen.add("PF-7")  # Draw is disabled while a playable card is held
        if page.get_by_test_id("suit-picker").count():
            picker = page.get_by_test_id("suit-picker")
            assert picker.get_by_role("button", name="Cancelar").count() == 1
            assert picker.locator("button.legal").count() == 4  # ♥ ♦ ♣ ♠ (OC-22)
            seen.add("PF-8")
        if page.locator("button.call.legal").count():
            seen.add("PF-6")
        if page.get_by_test_id("attack").count():
            seen.add("attack")

    clicks = play_until(page, RESULT, limit=WHOLE_GAME_SECONDS, priorities=ONE_CARD_PRIORITIES, on_turn=look)

    assert clicks > 0 and "PF-7" in seen, seen
    assert_result_screen(page)
    assert page.locator("#hand-title").is_visible()  # the hand stays, without controls
    assert not page.get_by_test_id("controls").count()
    page.screenshot(path=str(SCREENSHOTS / "onecard-result.png"), full_page=True)
    page.context.close()


def test_one_card_is_played_to_the_end_with_the_keyboard_alone(browser, server: str) -> None:
    """Tab reaches the cards and buttons, Enter and Space play them, the focus is visible."""
    page = new_page(browser)
    start_from_home(page, server, "one_card", "Teclas", players="2")
    page.locator(ENABLED).first.wait_for()
    focused_legal = "#game-area .legal:not([disabled]):focus"
    keys = ["Enter", "Space"]
    presses = 0
    checked_outline = False
    deadline = time.monotonic() + 180
    while not page.locator(RESULT).count():
        assert time.monotonic() < deadline, f"no result with the keyboard: {envelope(page)['view']}"
        page.wait_for_selector(f"{RESULT}, {ENABLED}", timeout=30_000)
        if page.locator(RESULT).count():
            break
        for _ in range(80):  # Tab round the page until a legal control has the focus
            if page.locator(focused_legal).count() or page.locator(RESULT).count():
                break
            page.keyboard.press("Tab")
        if not page.locator(focused_legal).count():
            continue  # the table moved on while tabbing: look again
        if not checked_outline:
            style = page.locator(focused_legal).evaluate("n => getComputedStyle(n).outlineStyle")
            assert style != "none"  # a visible focus ring
            checked_outline = True
        page.keyboard.press(keys[presses % 2])
        presses += 1
    assert presses > 0
    assert_result_screen(page)
    page.context.close()


# -- Pika -------------------------------------------------------------------------------------------------
PIKA_PRIORITIES = (
    "[data-testid=colour-picker] button.legal:not([disabled])",
    "button.call.legal:not([disabled])",  # PF-11: Pika! while its countdown runs
    "#hand button.legal:not([disabled])",
)


def test_pika_pf11_a_whole_game_by_clicking_cards(browser, server: str) -> None:
    page = new_page(browser)
    start_from_home(page, server, "pika", "Ana_pk", players="2")
    page.locator(ENABLED).first.wait_for()
    page.screenshot(path=str(SCREENSHOTS / "pika-table.png"), full_page=True)
    seen: set[str] = set()

    def look(page: Any) -> None:
        if page.get_by_test_id("colour-picker").count():
            assert page.get_by_test_id("colour-picker").locator("button.legal").count() == 4
            seen.add("colours")
        call = page.locator("button.call.legal")
        if call.count():
            try:
                text = call.first.inner_text(timeout=1_000)
            except Exception:
                return
            assert "¡Pika!" in text and text.rstrip().endswith("s")  # PF-11: the countdown shows
            seen.add("PF-11")
        if page.get_by_test_id("stack").count():
            seen.add("stack")

    clicks = play_until(page, RESULT, limit=WHOLE_GAME_SECONDS, priorities=PIKA_PRIORITIES, on_turn=look)

    assert clicks > 0
    assert_result_screen(page)
    page.screenshot(path=str(SCREENSHOTS / "pika-result.png"), full_page=True)
    page.context.close()


def touch_drag(page: Any, start: dict[str, float], end: dict[str, float], steps: int = 12) -> None:
    """A finger on the screen: touchStart, touchMove steps, touchEnd (Chromium's own touch input)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": start["x"], "y": start["y"]}]},
    )
    for i in range(1, steps + 1):
        x = start["x"] + (end["x"] - start["x"]) * i / steps
        y = start["y"] + (end["y"] - start["y"]) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(box: dict[str, float]) -> dict[str, float]:
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def test_pika_pf10_a_finger_drags_a_card_to_reorder_the_hand_on_a_phone(browser, server: str) -> None:
    context = browser.new_context(
        locale="es-ES", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    start_from_home(page, server, "pika", "Dedo", players="2")
    page.locator(ENABLED).first.wait_for()  # our turn: the bots wait, the version holds still
    before = hand_codes(page)
    assert len(before) >= 7
    page.locator("#hand").scroll_into_view_if_needed()  # a finger touches what is on the screen
    cards = page.locator(HAND)
    first, last = cards.nth(0).bounding_box(), cards.nth(len(before) - 1).bounding_box()
    target = {"x": last["x"] + last["width"] * 0.9, "y": last["y"] + last["height"] / 2}
    page.screenshot(path=str(SCREENSHOTS / "pika-phone-before.png"), full_page=True)
    assert axe_violations(page) == []

    touch_drag(page, centre(first), target)

    moved = before[1:] + before[:1]
    # the page shows the new order at once, and the server keeps it (PK-46): polled, since the
    # pages' CSP allows no evaluated strings for wait_for_function
    deadline = time.monotonic() + 20
    while hand_codes(page) != moved or envelope(page)["view"]["hand"] != moved:
        assert time.monotonic() < deadline, (hand_codes(page), envelope(page)["view"]["hand"], moved)
        page.wait_for_timeout(200)
    assert not page.get_by_test_id("result").is_visible()  # a drag is not a play
    page.screenshot(path=str(SCREENSHOTS / "pika-phone-after.png"), full_page=True)
    context.close()


def test_pika_pf10_a_mouse_drags_a_card_and_a_click_still_plays(browser, server: str) -> None:
    """On a desktop the same drag with the mouse; a plain click on a playable card plays it."""
    page = new_page(browser)
    start_from_home(page, server, "pika", "Raton", players="2")
    page.locator(ENABLED).first.wait_for()
    before = hand_codes(page)
    cards = page.locator(HAND)
    start, last = centre(cards.nth(len(before) - 1).bounding_box()), cards.nth(0).bounding_box()
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(last["x"] + 2, last["y"] + last["height"] / 2, steps=12)  # before the first card
    page.mouse.up()
    moved = [before[-1], *before[:-1]]
    deadline = time.monotonic() + 20
    while hand_codes(page) != moved or envelope(page)["view"]["hand"] != moved:
        assert time.monotonic() < deadline, (hand_codes(page), envelope(page)["view"]["hand"], moved)
        page.wait_for_timeout(200)
    playable = page.locator("#hand button.legal:not([disabled]):not([data-card^='W'])")  # no picker
    if playable.count():
        version = envelope(page)["version"]
        playable.first.click()
        deadline = time.monotonic() + 20
        while envelope(page)["version"] == version or len(envelope(page)["view"]["hand"]) == len(before):
            assert time.monotonic() < deadline, "the click did not play"
            page.wait_for_timeout(200)
    page.context.close()


def test_pika_pf10_the_keyboard_moves_a_card_with_alt_and_the_arrows(browser, server: str) -> None:
    """The same reorder without a pointer: a focused card moves one place per Alt + arrow."""
    page = new_page(browser)
    start_from_home(page, server, "pika", "Flechas", players="2")
    page.locator(ENABLED).first.wait_for()
    before = hand_codes(page)
    page.locator(HAND).first.focus()
    page.keyboard.press("Alt+ArrowRight")
    page.keyboard.press("Alt+ArrowRight")
    moved = [before[1], before[2], before[0], *before[3:]]
    deadline = time.monotonic() + 20
    while hand_codes(page) != moved or envelope(page)["view"]["hand"] != moved:
        assert time.monotonic() < deadline, (hand_codes(page), envelope(page)["view"]["hand"], moved)
        page.wait_for_timeout(200)
    assert page.locator(f"{HAND}:focus").get_attribute("data-card") == before[0]  # the focus follows
    page.context.close()


# -- One Card's controls against chosen engine states ------------------------------------------------
# The module is mounted alone on a page of the site, with the envelope the server would send
# for a real engine state (the legal actions and the view); what it sends is recorded.
MOUNT = """async ([env, strings]) => {
  const [{ createGame }, cards, { createRenderer, el }] = await Promise.all([
    import("/static/frontend/games/onecard.js"),
    import("/static/frontend/cards.js"),
    import("/static/frontend/render.js"),
  ]);
  const { t, seatName } = createRenderer({ game: "one_card", strings, getEnv: () => env });
  cards.setCardWords(t);
  const link = document.createElement("link");
  Object.assign(link, { rel: "stylesheet", href: "/static/frontend/table.css" });
  await new Promise((resolve) => { link.addEventListener("load", resolve); document.head.append(link); });
  const root = Object.assign(document.createElement("div"), { id: "game-area", className: "game-area" });
  const table = Object.assign(document.createElement("div"), { className: "table-page" });
  table.append(root);
  document.querySelector("main").replaceChildren(table);
  window.sent = [];
  createGame({
    root, el, t, seatName, game: "one_card", strings,
    cardLabel: (code) => cards.cardName(code, "one_card"), cardFace: cards.cardFace, cardBack: cards.cardBack,
    sendAction: (action) => (window.sent.push(action), true),
    legalActions: () => env.legal, envelope: () => env, now: () => Date.now(), reducedMotion: () => true,
  }).render(env);
}"""


def one_card_state(seed: int, wanted: Any) -> Any:
    """Play seeded random legal moves (never calling nor catching) until ``wanted(engine, state)``."""
    import random

    from cardgames.engines import get_engine

    engine, rng = get_engine("one_card"), random.Random(seed)
    state = engine.new_game(2, seed=seed, options={"turn_seconds": None})
    for _ in range(300):
        if wanted(engine, state):
            return state
        seat = engine.to_act(state)[0]
        moves = [a for a in engine.legal_actions(state, seat) if a["type"] not in ("call_one_card", "catch")]
        state, _ = engine.apply(state, seat, dict(rng.choice(moves or engine.legal_actions(state, seat))))
    raise AssertionError(f"seed {seed}: no such state")


def mounted(browser: Any, server: str, state: Any, seat: int) -> Any:
    from django.utils import translation

    from cardgames.engines import get_engine
    from frontend.table_strings import table_strings

    engine = get_engine("one_card")
    now = int(time.time() * 1000)
    env = {
        "version": 1,
        "status": "playing",
        "game": "one_card",
        "server_time": now,
        "seats": [{"seat": 0, "name": "Ana", "kind": "guest"}, {"seat": 1, "name": "Bot", "kind": "bot"}],
        "you": {"seat": seat, "role": "player"},
        "to_act": engine.to_act(state),
        "legal": engine.legal_actions(state, seat),
        "timers": [{**t, "deadline": now + t["seconds"] * 1000} for t in engine.timers(state)],
        "view": engine.view(state, seat),
        "last": None,
        "result": None,
    }
    with translation.override("es"):
        strings = table_strings()
    page = new_page(browser)
    page.goto(server + "/")
    page.evaluate(MOUNT, [json.loads(json.dumps(env)), strings])
    page.locator("#game-area > *").first.wait_for()
    return page


def catchable(engine: Any, state: Any) -> bool:
    return any(a["type"] == "catch" for a in engine.legal_actions(state, 0))


def test_one_card_pf6_catch_and_one_card_buttons_show_their_window(browser, server: str) -> None:
    """OC-38 – OC-43: Bot played down to one card without calling; Ana may touch it for 5 s, and
    Bot may still call One Card in that window. Both buttons count the window's seconds."""
    state = one_card_state(0, catchable)
    page = mounted(browser, server, state, seat=0)
    catch = page.get_by_role("button", name="Tocar a Bot")
    assert re.fullmatch(r"Tocar a Bot · [1-5] s", catch.inner_text())
    assert "no ha cantado" in page.locator(".opponent[data-seat='1']").inner_text()
    catch.click()
    assert page.evaluate("window.sent") == [{"type": "catch", "target": 1}]
    page.context.close()

    page = mounted(browser, server, state, seat=1)
    call = page.get_by_role("button", name="¡One Card!")
    assert re.fullmatch(r"¡One Card! · [1-5] s", call.inner_text())
    call.click()
    assert page.evaluate("window.sent") == [{"type": "call_one_card"}]
    page.context.close()


def test_a_count_of_one_card_is_said_in_the_singular(browser, server: str) -> None:
    """Bot is down to one card: Ana's page says "1 carta" beside Bot, and Bot's own hand title
    says "Tu mano (1 carta)"; any other count stays plural."""
    from cardgames.engines import get_engine

    state = one_card_state(0, catchable)
    page = mounted(browser, server, state, seat=0)
    assert page.locator(".opponent[data-seat='1'] .count").inner_text() == "1 carta"
    mine = len(get_engine("one_card").view(state, 0)["hand"])
    assert page.locator("#hand-title").inner_text() == f"Tu mano ({mine} carta{'' if mine == 1 else 's'})"
    page.context.close()

    page = mounted(browser, server, state, seat=1)
    assert page.locator("#hand-title").inner_text() == "Tu mano (1 carta)"
    page.context.close()


def test_one_card_pf7_pf8_draw_is_disabled_and_a_seven_asks_for_its_suit(browser, server: str) -> None:
    """OC-17: with a playable card Draw is disabled and says why; OC-22: the 7 opens a picker
    of the four suits (Escape closes it) and sends the play with the suit chosen."""

    def seven_in_hand(engine: Any, state: Any) -> bool:
        legal = engine.legal_actions(state, 0)
        return any(a.get("suit") for a in legal) and not any(a["type"] == "draw" for a in legal)

    state = one_card_state(0, seven_in_hand)
    page = mounted(browser, server, state, seat=0)
    assert page.get_by_test_id("draw").is_disabled()
    assert "No puedes robar" in page.get_by_test_id("controls").inner_text()
    seven = page.locator("#hand button[data-card^='7']").first
    code = seven.get_attribute("data-card")
    seven.click()
    picker = page.get_by_test_id("suit-picker")
    names = ["corazones", "diamantes", "tréboles", "picas"]
    assert picker.locator("button.legal").all_inner_texts() == names
    assert page.locator(":focus").inner_text() == "corazones"  # the focus goes to the choice
    page.keyboard.press("Escape")
    assert not picker.count() and page.locator(":focus").get_attribute("data-card") == code
    page.keyboard.press("Enter")
    picker.get_by_role("button", name="picas").click()
    assert page.evaluate("window.sent") == [{"type": "play", "card": code, "suit": "S"}]
    page.context.close()
