"""Skyjo, El Puteo and Guandan played in a real Chromium by clicking, as a person would (issue 12).

Each test starts a game against easy bots from the home page and plays it through the game's
own controls (static/frontend/games/skyjo.js, puteo.js, guandan.js): Skyjo's grid cells and
piles, El Puteo's tap-to-lift cards and bid picker on a phone, Guandan's card selection, its
interpretation chooser and the return picker. No socket frame is injected: the page's own
socket carries every move. The envelope API is only read, to check that what the page shows
is what the server says.

The server and browser fixtures are test_tables_browser's (daphne as `bin/run` serves it, the
bots' thinking shortened by TABLE_BOT_THINK_SECONDS).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from typing import Any

import pytest

from tests.browser.test_onecard_pika_browser import axe_violations
from tests.browser.test_tables_browser import SCREENSHOTS, browser, envelope, server, start_from_home

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

LEGAL = "#game-area .legal:not([disabled])"
RESULT = "#result:not([hidden])"


def open_page(browser: Any, *, phone: bool = False) -> Any:
    if phone:
        context = browser.new_context(
            locale="es-ES",
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
        )
    else:
        context = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # table.js hands the table to its generic buttons when a module throws, and says so here
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.errors = errors
    return page


def wait_turn(page: Any, *others: str) -> None:
    """Until the game is over, or the page offers a legal control (or one of ``others``)."""
    page.locator(", ".join([RESULT, LEGAL, *others])).first.wait_for(timeout=60_000)


def over(page: Any) -> bool:
    return page.locator(RESULT).count() > 0


def click(locator: Any, *, tap: bool = False, keys: str | None = None) -> bool:
    """Click (tap, or press keys on) a control; False when a new snapshot redrew it first."""
    try:
        if keys:
            locator.press(keys, timeout=2_000)
        elif tap:
            locator.tap(timeout=2_000)
        else:
            locator.click(timeout=2_000)
        return True
    except Exception:
        return False


def page_version(page: Any) -> int:
    return int(page.locator("#table-app").get_attribute("data-version") or -1)


def settled_envelope(page: Any) -> dict[str, Any]:
    """The envelope of the version the page shows (a bot may move between the two reads)."""
    for _ in range(100):
        env = envelope(page)
        shown = page_version(page)
        if env["version"] == shown:
            return env
        if shown < env["version"]:  # the page has a snapshot to draw yet: wait until it moves on
            with contextlib.suppress(Exception):  # else its heartbeat brings it: ask again
                page.locator(f'#table-app:not([data-version="{shown}"])').wait_for(timeout=3_000)
    raise AssertionError("the page never caught up with the server")


def finish(page: Any, game: str) -> dict[str, Any]:
    result = page.get_by_test_id("result")
    assert "Fin de la partida" in result.inner_text()
    env = envelope(page)
    assert env["status"] == "finished" and env["result"]
    page.screenshot(path=str(SCREENSHOTS / f"result-{game}-module.png"), full_page=True)
    assert page.errors == []
    return env


# -- Skyjo ------------------------------------------------------------------------------------------
SCORE_SCREEN = """n => [
  n.querySelector("h3").textContent.match(/\\d+/)[0],
  n.querySelector("[data-testid=sk-closer-note]")?.textContent ?? "",
  n.querySelector("[data-testid=sk-scores]").textContent,
]"""


def better_place(env: dict[str, Any]) -> int | None:
    """Where a sensible player puts the card in hand: over an open card at least 3 higher."""
    view = env["view"]
    held = int(view["held"]["card"])
    grid = view["grids"][env["you"]["seat"]]
    open_cards = [(int(code), pos) for pos, code in enumerate(grid) if code not in ("hidden", "removed")]
    worst = max(open_cards, default=None)
    return worst[1] if worst and worst[0] >= held + 3 else None


def test_skyjo_whole_game_by_clicking_grid_and_piles(browser, server: str) -> None:
    """SK-5 reveal two, SK-9/SK-10 draw or take then swap or discard-and-reveal, SK-14 removed
    columns, SK-22 the closer's doubling on the round score, SK-32 the score screen; to the end."""
    page = open_page(browser)
    start_from_home(page, server, "skyjo", "Ana_sky", players="2")
    page.locator("#hand[role=grid]").wait_for()
    assert axe_violations(page) == []  # names on every card and place, contrast
    turns = 0
    seen = Counter()
    deadline = time.monotonic() + 360
    while time.monotonic() < deadline:
        wait_turn(page)
        if over(page):
            break
        ready = page.locator("[data-testid=sk-ready]:not([disabled])")
        if ready.count():
            # the score screen shows the round's scores, the closer's line and its doubling; read
            # in one go (its 8 s may run out on a loaded machine while the test looks)
            try:
                number, note, scores = page.locator(".sk-score-screen").evaluate(SCORE_SCREEN, timeout=2_000)
            except Exception:
                continue
            last = envelope(page)["view"]["rounds"][int(number) - 1]
            assert ("cuentan doble" in note) == last["doubled"]
            if last["doubled"]:
                seen["doubled"] += 1
                assert f"({last['raw'][last['closer']]} × 2)" in scores
            seen["score screen"] += 1
            page.screenshot(path=str(SCREENSHOTS / "skyjo-score-screen.png"), full_page=True)
            click(ready)
            continue
        discard = page.get_by_test_id("sk-mode-discard")
        if discard.count():  # a drawn card in hand (SK-10)
            env = settled_envelope(page)
            # round 1 played with care (so that a score screen comes), later rounds closed fast
            careful = seen["discard and reveal"] and env["view"]["round"] == 1
            target = better_place(env) if careful else None
            if target is not None:  # B1: swap a low card in for a higher open one
                seen["swap"] += click(page.locator(f"#hand .legal[data-pos='{target}']"))
            elif discard.get_attribute("aria-pressed") != "true":
                click(discard)
            else:  # B2: discard it and reveal a face-down card
                seen["discard and reveal"] += click(page.locator("#hand .legal").first)
        elif page.get_by_test_id("sk-draw").count():
            turns += 1
            # mostly draw; every fourth turn take the discard (SK-9)
            if turns % 4 == 2:
                seen["take"] += click(page.get_by_test_id("sk-take"))
            else:
                seen["draw"] += click(page.get_by_test_id("sk-draw"))
        elif page.locator("#hand .legal").count():
            hint = page.get_by_test_id("gm-hint").inner_text()
            cell = page.locator("#hand .legal").first
            if "para descubrir" in hint:  # SK-5, with the keyboard: Tab to a card, Enter or Space
                cell.focus()
                if click(cell, keys="Enter" if seen["reveal"] % 2 else " "):
                    seen["reveal"] += 1
            else:
                seen["swap"] += click(cell)
    else:
        raise AssertionError(f"Skyjo not over after 360 s: {dict(seen)}")

    env = finish(page, "skyjo")
    moves = ("reveal", "draw", "take", "discard and reveal", "swap")
    assert all(seen[move] for move in moves), seen
    assert seen["score screen"] >= 1 or len(env["view"]["rounds"]) == 1, seen
    # the grids on the page are the view's: removed columns drawn as empty places (SK-16)
    removed = sum(grid.count("removed") for grid in env["view"]["grids"])
    assert page.locator("#game-area [data-card=removed]").count() == removed
    assert max(env["view"]["totals"]) >= 100  # SK-25
    page.context.close()


# -- El Puteo -----------------------------------------------------------------------------------------
def test_puteo_whole_game_on_a_phone_tap_to_lift_and_tap_again(browser, server: str) -> None:
    """PF-32/PT-55 tap once to lift, tap again (or Play); PF-33/PT-56 pick a number and confirm,
    the dealer's forbidden bid disabled; PF-29 the centre's order; PT-47 the blind round shows the
    others' card and not one's own; PF-30 the round result, then the next round by itself."""
    page = open_page(browser, phone=True)
    start_from_home(page, server, "puteo", "Ana_put", players="2", **{"option-lives": "3"})
    seen = Counter()
    results: list[str] = []
    plays = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        wait_turn(page)
        if over(page):
            break
        centre = page.get_by_test_id("pt-centre").inner_text()
        order = [centre.index(word) for word in ("Habla:", "Han dicho:", "Sale:", "Le toca:")]
        assert order == sorted(order)  # PF-29
        result = page.get_by_test_id("pt-round-result")
        if result.count() and result.is_visible():
            heading = result.locator("h3").inner_text()
            assert "Predijo" in result.inner_text()
            if heading not in results:
                results.append(heading)
                if len(results) == 1:
                    page.screenshot(path=str(SCREENSHOTS / "puteo-round-result-390.png"), full_page=True)
            ready = page.locator("[data-testid=pt-ready]:not([disabled])")
            if len(results) % 2 and ready.count():
                click(ready, tap=True)
            else:  # the next round starts by itself (PF-30)
                result.wait_for(state="detached", timeout=30_000)
            continue
        if page.locator("#hand .face-down").count():  # the blind round (PT-47)
            env = settled_envelope(page)
            view = env["view"]
            # PT-47 in full: test_puteo_blind_round_shows_the_others_card_not_mine (a bot's bid may
            # end the blind round's bids while this loop looks)
            if view["own_card_hidden"]:
                assert view["hand"] == []
                seen["blind"] += 1
        numbers = page.locator(".pt-number.legal")
        if numbers.count():
            forbidden = page.locator(".pt-number.forbidden")
            if forbidden.count():  # PT-56: shown, and disabled
                assert forbidden.first.is_disabled()
                seen["forbidden shown"] += 1
            if click(numbers.first, tap=True):
                confirm = page.get_by_test_id("pt-confirm-bid")
                confirm.wait_for()
                seen["bid"] += click(confirm, tap=True)
            continue
        cards = page.locator("#hand .legal")
        if cards.count():
            card = cards.first
            code = card.get_attribute("data-card")
            if not click(card, tap=True):
                continue
            lifted = page.locator(f'#hand [data-card="{code}"].lifted')
            try:
                lifted.wait_for(timeout=5_000)
            except Exception:
                continue
            plays += 1
            if plays % 2:  # the second tap plays it (PF-32) …
                seen["tap again"] += click(lifted, tap=True)
            else:  # … or the Play button does
                seen["play button"] += click(page.get_by_test_id("pt-play"), tap=True)
            continue
        ready = page.get_by_test_id("pt-ready")
        if ready.count():
            click(ready, tap=True)
    else:
        raise AssertionError(f"El Puteo not over after 240 s: {dict(seen)}")

    finish(page, "puteo")
    assert seen["bid"] and seen["tap again"] and seen["play button"] and len(results) >= 2
    assert seen["forbidden shown"]  # two players: the dealer always has a forbidden bid (PT-22)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()


def test_puteo_big_mode_twelve_seats_fit_a_phone(browser, server: str) -> None:
    """PT-51: big mode seats twelve; the table centre, the twelve players with their lives and
    the hand fit 390 px wide with no sideways scrolling."""
    page = open_page(browser, phone=True)
    start_from_home(page, server, "puteo", "Ana_big", players="12", **{"option-mode": "big"})
    page.locator(".pt-players .pt-player").nth(11).wait_for()
    assert page.locator(".pt-players .pt-player").count() == 12
    assert page.locator(".pt-lives").count() == 12
    page.get_by_test_id("pt-centre").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # measured in one go: a bot's move may redraw the list between two calls
    left, right = page.locator(".pt-players").evaluate(
        "n => [n.getBoundingClientRect().left, n.getBoundingClientRect().right]"
    )
    assert left >= 0 and right <= 390
    page.screenshot(path=str(SCREENSHOTS / "puteo-big-390.png"), full_page=True)
    assert axe_violations(page) == []
    assert page.errors == []
    page.context.close()


# -- Guandan ------------------------------------------------------------------------------------------
DEAL_END = "n => [n.textContent, n.querySelectorAll('[data-card]').length]"


def ambiguous_play(env: dict[str, Any]) -> list[str] | None:
    """Cards that some legal play reads in two ways (wildcards, straight or straight flush)."""
    readings = Counter(tuple(sorted(a["cards"])) for a in env["legal"] if a["type"] == "play")
    for cards, count in readings.items():
        if count > 1:
            return list(cards)
    return None


def select_cards(page: Any, cards: list[str]) -> None:
    """Tap each card of the hand once (equal codes: two different cards of the two decks)."""
    used: set[int] = set()
    for code in cards:
        nodes = page.locator(f'#hand [data-card="{code}"]')
        for i in range(nodes.count()):
            index = int(nodes.nth(i).get_attribute("data-index"))
            if index not in used:
                used.add(index)
                page.locator(f'#hand [data-index="{index}"]').click()
                page.locator(f'#hand [data-index="{index}"][aria-pressed="true"]').wait_for()
                break


def test_guandan_first_deal_by_clicking_then_the_tribute(browser, server: str) -> None:
    """GD-23/PF-46 an ambiguous selection asks for its reading before it is played; PF-49 both
    teams' levels and the deal's level rank; partner opposite; GD-61 the deal's end shows every
    hand; the next deal shows its tribute (GD-51, GD-58) and, for a receiver, the return picker
    with Confirm (GD-54, PF-45)."""
    page = open_page(browser)
    start_from_home(page, server, "guandan", "Ana_gd")
    levels = page.get_by_test_id("gd-levels")
    assert "Tu equipo: nivel 2" in levels.inner_text() and "se juega el 2" in levels.inner_text()
    assert "compañero" in page.locator(".gd-seat.top").inner_text()  # partner opposite
    seen = Counter()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        wait_turn(page)
        if over(page):
            break
        env = settled_envelope(page)
        view = env["view"]
        if view["deal"] >= 2 and view["phase"] in ("return", "play"):
            tribute = page.get_by_test_id("gd-tribute")
            tribute.wait_for()
            seen["tribute"] += 1
            if page.get_by_test_id("gd-return").count():
                picker = page.get_by_test_id("gd-return")
                page.screenshot(path=str(SCREENSHOTS / "guandan-return.png"), full_page=True)
                if not page.get_by_test_id("gd-confirm").is_enabled():
                    click(picker.locator(".legal").first)
                    page.locator("[data-testid=gd-confirm].legal").wait_for()
                seen["returned"] += click(page.get_by_test_id("gd-confirm"))
                continue
            if view["phase"] == "play":
                break
            continue
        if view["phase"] == "between":
            # read in one go: the 8 s between deals may run out on a loaded machine
            try:
                text, cards = page.get_by_test_id("gd-deal-end").evaluate(DEAL_END, timeout=2_000)
            except Exception:
                continue
            assert "Fin de la mano 1" in text
            assert cards == sum(len(hand) for hand in view["revealed"].values())  # GD-61
            page.screenshot(path=str(SCREENSHOTS / "guandan-deal-end.png"), full_page=True)
            seen["deal end"] += click(page.get_by_test_id("gd-ready"))
            continue
        if not env["legal"]:
            continue
        cards = ambiguous_play(env) if not seen["chooser"] else None
        if cards:
            select_cards(page, cards)
            chooser = page.get_by_test_id("gd-chooser")
            chooser.wait_for()
            options = chooser.locator("input[type=radio]")
            assert options.count() >= 2
            options.nth(1).check()
            page.locator("#gd-reading-1:checked").wait_for()
            page.screenshot(path=str(SCREENSHOTS / "guandan-chooser.png"), full_page=True)
            seen["chooser"] += click(page.get_by_test_id("gd-play"))
            continue
        if view["leading"]:
            first = page.locator("#hand .legal").first  # the weakest card, as a single
            if not seen["keyboard"]:  # Space selects, Enter unselects, focus stays on the card
                index = first.get_attribute("data-index")
                first.press(" ")
                page.locator(f'#hand [data-index="{index}"][aria-pressed="true"]').wait_for()
                page.locator(f'#hand [data-index="{index}"]').press("Enter")
                page.locator(f'#hand [data-index="{index}"][aria-pressed="false"]').wait_for()
                assert page.evaluate("document.activeElement.dataset.index") == index
                seen["keyboard"] += 1
            if click(first):
                page.locator("#hand [aria-pressed=true]").wait_for()
                seen["lead"] += click(page.get_by_test_id("gd-play"))
            continue
        seen["pass"] += click(page.get_by_test_id("gd-pass"))
    else:
        raise AssertionError(f"Guandan: no tribute deal after 300 s: {dict(seen)}")

    assert seen["deal end"] and seen["tribute"]
    page.screenshot(path=str(SCREENSHOTS / "guandan-deal-2.png"), full_page=True)
    assert page.errors == []
    page.context.close()


# -- one renderer alone, on a position chosen from the engine ---------------------------------------
# A whole game decides by chance whether an ambiguous play, a tribute to return or the blind round
# comes up. These put the module on a page of the site by itself, hand it the envelope the server
# would send for a position the real engine reached from a seed, and click it like a person; what
# it would send is recorded instead of going over a socket.
def seat_envelope(game: str, state: Any, seat: int = 0) -> dict[str, Any]:
    from cardgames.engines import get_engine

    engine = get_engine(game)
    players = {
        "guandan": 4,
        "skyjo": getattr(state, "n", 0),
        "puteo": len(getattr(getattr(state, "tab", None), "lives", ())),
    }
    seats = [
        {"seat": s, "name": f"Bot {s + 1}", "kind": "bot", "connected": True} for s in range(players[game])
    ]
    seats[seat] = {**seats[seat], "name": "Ana", "kind": "guest"}
    env = {
        "version": 1,
        "status": "playing",
        "game": game,
        "seats": seats,
        "you": {"seat": seat, "role": "player"},
        "to_act": engine.to_act(state),
        "legal": engine.legal_actions(state, seat),
        "view": engine.view(state, seat),
        "last": None,
        "result": None,
    }
    return json.loads(json.dumps(env))


MOUNT = """async ([game, env, strings]) => {
  const [{ createGame }, cards, { createRenderer, el }] = await Promise.all([
    import(`/static/frontend/games/${game === "one_card" ? "onecard" : game}.js`),  // table.js's MODULES
    import("/static/frontend/cards.js"),
    import("/static/frontend/render.js"),
  ]);
  const { t, seatName } = createRenderer({ game, strings, getEnv: () => env });
  cards.setCardWords(t);
  for (const name of ["table.css", "games.css"]) {  // the table page's look, as table.html links it
    const href = `/static/frontend/${name}`;
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
    const loaded = new Promise((resolve) => link.addEventListener("load", resolve));
    document.head.append(link);
    await loaded;
  }
  const root = Object.assign(document.createElement("div"), { id: "game-area", className: "game-area" });
  const board = Object.assign(document.createElement("section"), { className: "board" });
  const page = Object.assign(document.createElement("div"), { className: "table-page" });
  board.append(root);
  page.append(board);
  document.querySelector("main").replaceChildren(page);
  window.sent = [];
  const ctx = {
    root, el, t, seatName, game, strings,
    cardLabel: (code) => cards.cardName(code, game),
    cardFace: cards.cardFace,
    cardBack: cards.cardBack,
    sendAction: (action) => (window.sent.push(action), true),
    legalActions: () => env.legal,
    envelope: () => env,
    now: () => Date.now(),
    reducedMotion: () => true,
  };
  createGame(ctx).render(env);
}"""


def mount(page: Any, server: str, game: str, env: dict[str, Any]) -> None:
    from django.utils import translation

    from frontend.table_strings import table_strings

    with translation.override("es"):
        strings = table_strings()
    page.goto(server + "/")
    page.evaluate(MOUNT, [game, env, strings])
    page.locator("#game-area > *").first.wait_for()


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.sent")


def test_guandan_ambiguous_selection_asks_for_its_reading(browser, server: str) -> None:
    """GD-23, PF-46: seed 6 gives seat 1 the lead with 2♥ (a level-2 wildcard), 3♥ 3♠ 5♦ 5♠:
    a full house of 3s or of 5s. Selecting them opens the chooser; the reading picked is sent."""
    from cardgames.engines import get_engine

    state = get_engine("guandan").new_game(4, seed=6, options={"turn_seconds": None})
    env = seat_envelope("guandan", state)
    page = open_page(browser)
    mount(page, server, "guandan", env)
    wild = page.locator("#hand .gd-wild")  # the heart level cards are marked, and only they
    assert wild.count() == env["view"]["hand"].count("2H") >= 1
    assert all(code == "2H" for code in wild.evaluate_all("nodes => nodes.map(n => n.dataset.card)"))
    select_cards(page, ["2H", "3H", "3S", "5D", "5S"])
    chooser = page.get_by_test_id("gd-chooser")
    readings = ["Trío de 3 con pareja de 5", "Trío de 5 con pareja de 3"]
    assert chooser.locator("label").all_inner_texts() == readings
    assert axe_violations(page) == []
    chooser.get_by_label("Trío de 5 con pareja de 3").check()
    page.get_by_test_id("gd-play").click()
    fives = [
        a
        for a in env["legal"]
        if a["type"] == "play"
        and sorted(a["cards"]) == ["2H", "3H", "3S", "5D", "5S"]
        and a["interp"]["rank"] == "5"
    ]
    assert sent(page) == fives  # exactly the legal action of that reading
    assert page.errors == []
    page.context.close()


def test_guandan_return_picker_then_confirm(browser, server: str) -> None:
    """GD-53, GD-54, PF-45: in deal 2 of seed 16 seat 1 receives a tribute; it sees the tribute,
    picks an eligible card (RETURN) and only then may confirm (CONFIRM)."""
    from cardgames.engines import get_engine

    engine = get_engine("guandan")
    state = engine.new_game(4, seed=16, options={"turn_seconds": None})
    while state["phase"] == "play":  # deal 1, played by the first legal action (the weakest)
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, legal[-1] if legal[0]["type"] == "pass" else legal[0])
    while state["phase"] == "between":
        state, _ = engine.apply(state, engine.to_act(state)[0], {"type": "ready"})
    assert state["phase"] == "return"
    env = seat_envelope("guandan", state)
    page = open_page(browser)
    mount(page, server, "guandan", env)
    tribute = page.get_by_test_id("gd-tribute")
    assert "Bot 2 paga tributo a Ana" in tribute.inner_text()
    assert not page.get_by_test_id("gd-confirm").is_enabled()  # nothing picked yet
    assert axe_violations(page) == []
    eligible = [a for a in env["legal"] if a["type"] == "return"]
    page.get_by_test_id("gd-return").get_by_role("button").first.click()
    assert sent(page)[0] in eligible  # GD-53: only an eligible card
    # the server keeps the pick: its next envelope offers CONFIRM
    state, _ = engine.apply(state, 0, sent(page)[0])
    env = seat_envelope("guandan", state)
    mount(page, server, "guandan", env)
    assert page.get_by_test_id("gd-confirm").is_enabled()
    # the pick is said over the hand, in the dock with the picker and Confirm (issue 25 §1)
    assert "Devolverás" in page.locator('[data-region="actions"]').inner_text()
    page.get_by_test_id("gd-confirm").click()
    assert sent(page) == [{"type": "confirm"}]
    assert page.errors == []
    page.context.close()


def test_puteo_blind_round_shows_the_others_card_not_mine(browser, server: str) -> None:
    """PT-47 (PF-31): in round 5 each player sees every other live player's card and not their own."""
    from cardgames.engines import get_engine

    engine = get_engine("puteo")
    state = engine.new_game(3, seed=1, options={"lives": 5, "turn_seconds": None})
    while not (
        state.tab.round == 5
        and engine.view(state, 0)["phase"] in ("reveal", "bid")
        and not engine.view(state, 0)["pause"]
    ):
        to_act = engine.to_act(state)
        if not to_act:
            timer = engine.timers(state)[0]
            state, _ = engine.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})
            continue
        state, _ = engine.apply(state, to_act[0], engine.legal_actions(state, to_act[0])[0])
    env = seat_envelope("puteo", state)
    page = open_page(browser, phone=True)
    mount(page, server, "puteo", env)
    assert (
        page.locator("#hand .face-down").count() == 1
        and page.locator("#hand [data-card]:not(.face-down)").count() == 0
    )
    others = [card for card in env["view"]["blind_cards"] if card]
    assert others and all(page.locator(f'.pt-players [data-card="{card}"]').count() == 1 for card in others)
    assert "Ronda a ciegas" in page.locator("#game-area").inner_text()
    assert axe_violations(page) == []
    assert page.errors == []
    page.context.close()


def test_skyjo_sk5_the_reveal_hint_counts_the_cards_left_singular_at_one(browser, server: str) -> None:
    """SK-5: each player turns two cards face up; the hint asks for two, then for the last one in
    the singular."""
    from cardgames.engines import get_engine

    engine = get_engine("skyjo")
    state = engine.new_game(2, seed=1, options={"turn_seconds": None})
    page = open_page(browser)
    mount(page, server, "skyjo", seat_envelope("skyjo", state))
    assert page.get_by_test_id("gm-hint").inner_text() == "Toca 2 cartas de tu cuadrícula para descubrirlas."
    page.context.close()

    state, _ = engine.apply(state, 0, {"type": "reveal", "pos": 0})
    page = open_page(browser)
    mount(page, server, "skyjo", seat_envelope("skyjo", state))
    assert page.get_by_test_id("gm-hint").inner_text() == "Toca 1 carta de tu cuadrícula para descubrirla."
    assert page.errors == []
    page.context.close()


def test_skyjo_removed_column_and_the_piles(browser, server: str) -> None:
    """SK-14, SK-16: three face-up 5s in a column leave the grid; their places stay, empty. The
    next player sees it in the small grid and draws by tapping the pile (SK-10)."""
    from cardgames.engines import get_engine

    engine = get_engine("skyjo")
    deck = ["5", "1", "1", "1", "5", "2", "2", "2", "5", "3", "3", "3", *["0"] * 12, "7", *["9"] * 10]
    state = engine.new_game(2, seed=1, options={"deck": deck, "turn_seconds": None})
    for seat, pos in [(0, 0), (0, 4), (1, 0), (1, 1)]:
        state, _ = engine.apply(state, seat, {"type": "reveal", "pos": pos})
    state, _ = engine.apply(state, 0, {"type": "draw"})
    state, _ = engine.apply(state, 0, {"type": "discard_and_reveal", "pos": 8})
    page = open_page(browser, phone=True)
    mount(page, server, "skyjo", seat_envelope("skyjo", state, seat=1))
    gone = page.locator('.sk-other[data-seat="0"] [data-card=removed]')
    assert gone.count() == 3
    assert gone.first.get_attribute("aria-label") == "fila 1, columna 1: columna retirada"
    assert page.locator("#hand [data-card]").count() == 12  # the viewer's own grid, large
    page.get_by_test_id("sk-draw").tap()
    assert sent(page) == [{"type": "draw"}]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("game", ["skyjo", "puteo", "guandan"])
def test_a_spectator_sees_the_table_and_no_hand(browser, server: str, game: str) -> None:
    """PF-26, PT-48, GD-57: someone watching gets the spectator's view: the table, no hand and
    nothing to press."""
    from cardgames.engines import get_engine

    engine = get_engine(game)
    state = engine.new_game(4, seed=5, options={"turn_seconds": None})
    env = seat_envelope(game, state)
    env.update(
        you={"seat": None, "role": "spectator"},
        legal=[],
        view=json.loads(json.dumps(engine.view(state, None))),
    )
    page = open_page(browser, phone=True)
    mount(page, server, game, env)
    assert page.locator("#game-area").inner_text().strip()
    assert page.locator("#hand").count() == 0
    assert page.locator("#game-area .legal").count() == 0
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []
    page.context.close()
