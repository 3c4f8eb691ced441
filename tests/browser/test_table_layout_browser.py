"""Issue 25 §1–§3 on the table page, in Chromium over real games on the real server (daphne with
bots, test_tables_browser's fixtures), at 390 × 844 (a touch phone) and 1440 × 900.

§1: from the deal on, the viewer's hand (Skyjo: the grid) and every enabled control of their
decision (``data-region="actions"``) lie in the first screen, the page not scrolled; each seat is
drawn once; the site header is a thin bar on a phone. §2: the turn line names one player or one
window. §3: the last move says what was played, the move log survives a reload, sounds are off
until switched on and the switch is remembered.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest

from tests.browser.test_skyjo_puteo_guandan_browser import RESULT
from tests.browser.test_tables_browser import ENABLED, browser, click, envelope, server, start_from_home

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "desktop": (1440, 900)}
GAMES = {
    "one_card": {"players": "3"},
    "pika": {"players": "3"},
    "puteo": {"players": "3", "option-lives": "3"},
    "skyjo": {"players": "3"},
    "guandan": {},
}
#: what to click first when present (else the first enabled legal control): a confirmation
#: after a choice, a Skyjo cell with a card in hand, a Guandan selection's Play
PRIORITIES = {
    "puteo": ("[data-testid=pt-confirm-bid].legal", "[data-testid=pt-play].legal"),
    "skyjo": ("#hand .legal",),
    "guandan": ("[data-testid=gd-play].legal",),
}
#: the moments (clicks made so far) at which the screen is measured, the deal being the first
MOMENTS = (0, 2, 5, 9)

#: in the page, the page scrolled to its top: where the hand's first card and every enabled
#: control of the viewer's decision are, and whether each lies inside the viewport
GEOMETRY = """() => {
  window.scrollTo(0, 0);
  const inside = (node) => {
    const r = node.getBoundingClientRect();
    const ok = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
      && r.bottom <= innerHeight && r.right <= innerWidth;
    return { what: node.outerHTML.slice(0, 90), top: r.top, bottom: r.bottom, ok };
  };
  const card = document.querySelector('[data-region="hand"] .pcard');
  const controls = [...document.querySelectorAll(
    '[data-region="actions"] :is(button, input, [role="button"])')]
    .filter((n) => !n.disabled && n.getClientRects().length);
  return { scrolled: window.scrollY, card: card && inside(card), controls: controls.map(inside),
    header: document.querySelector(".site-header").getBoundingClientRect().height };
}"""


def sized_page(browser: Any, size: str) -> Any:
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(
        locale="es-ES", viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def seat_names(env: dict[str, Any]) -> list[str]:
    """The names as the page shows them: a name two seats share gets its seat's number."""
    names = [seat["name"] for seat in env["seats"]]
    return [
        f"{n} {s['seat'] + 1}" if names.count(n) > 1 else n for n, s in zip(names, env["seats"], strict=True)
    ]


def check_screen(page: Any, game: str, size: str, moment: int) -> bool:
    """The hand's first card and every enabled control are in the first screen; each seat is drawn
    once; the turn line names one player at most. True if it was the viewer's decision."""
    page.locator('[data-region="hand"] .pcard').first.wait_for()
    where = f"{game} {size} after {moment} clicks"
    shape = page.evaluate(GEOMETRY)
    assert shape["scrolled"] == 0
    assert shape["card"] and shape["card"]["ok"], (where, shape["card"])
    outside = [c for c in shape["controls"] if not c["ok"]]
    assert not outside, (where, outside)
    if size == "phone":
        assert shape["header"] <= 48, (where, shape["header"])  # a thin bar on the table page
    env = envelope(page)
    assert page.locator("#seats").is_hidden()  # the game draws the seats: the strip is the fallback's
    for seat in env["seats"]:
        if seat["seat"] == env["you"]["seat"]:
            continue
        drawn = page.locator(f'#game-area [data-seat="{seat["seat"]}"]').count()
        assert drawn == 1, (where, seat, drawn)
    line = page.locator('[data-region="turn"]').inner_text()
    named = [name for name in seat_names(env) if re.search(rf"\b{re.escape(name)}\b", line)]
    assert len(named) <= 1, (where, line)
    return page.locator(ENABLED).count() > 0


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_hand_and_controls_in_the_first_screen_from_the_deal_on(
    browser, server: str, game: str, size: str
) -> None:
    """Issue 25 §1: the hand and the decision's controls never need a scroll; one seat display."""
    page = sized_page(browser, size)
    start_from_home(page, server, game, f"Ana_{size[:2]}{game[:3]}", **GAMES[game])
    for region in ("turn", "centre", "hand", "log", "result"):
        assert page.locator(f'[data-region="{region}"]').count() >= 1, region
    measured = 0
    clicks = 0
    deadline = time.monotonic() + 120
    for moment in MOMENTS:
        while clicks < moment and time.monotonic() < deadline:
            page.locator(f"#result:not([hidden]), {ENABLED}").first.wait_for(timeout=30_000)
            if page.locator("#result:not([hidden])").count():
                break
            first = next(
                (s for s in PRIORITIES.get(game, ()) if page.locator(f"{s}:not([disabled])").count()), ENABLED
            )
            clicks += click(page, first)
        if page.locator("#result:not([hidden])").count():
            break
        # measured at the viewer's decision: their controls are there
        page.locator(f"{ENABLED}, #result:not([hidden])").first.wait_for(timeout=30_000)
        measured += check_screen(page, game, size, clicks)
    assert measured >= 2
    page.context.close()


def test_the_last_move_says_the_card_and_the_log_survives_a_reload(browser, server: str) -> None:
    """Issue 25 §3: the last-move line names the card played (not only "juega"); the move log
    lists the deal's moves newest first and is the same after a reload (the server's log frame)."""
    page = sized_page(browser, "phone")
    # three players: the bots' moves fill the log while the viewer's hand stays long enough that
    # nobody can have gone out by then (two players may empty a hand within six moves)
    start_from_home(page, server, "one_card", "Ana_log", players="3")
    for _ in range(4):
        page.locator(ENABLED).first.wait_for(timeout=30_000)
        click(page, ENABLED)
    page.locator(ENABLED).first.wait_for(timeout=30_000)
    env = envelope(page)
    last = env["last"]
    line = page.get_by_test_id("last-move").inner_text()
    plays = [f for f in last["facts"] if f["kind"] == "play"]
    if plays:
        card = plays[0]["cards"][0]
        rank = "10" if card[0] == "T" else card[:-1]
        assert re.search(rf"{rank}[♠♥♦♣]", line), line
    assert line.startswith("Última jugada: ") and len(line) > len("Última jugada: ") + 5
    log = page.locator('[data-region="log"] li[data-seq]')
    assert log.count() >= 6
    seqs = [int(s) for s in log.evaluate_all("nodes => nodes.map((n) => n.dataset.seq)")]
    assert seqs == sorted(seqs, reverse=True) and seqs[0] == last["seq"]
    before = log.all_text_contents()
    page.reload()
    log = page.locator('[data-region="log"] li[data-seq]')
    log.first.wait_for(state="attached")
    assert log.first.is_hidden()  # folded on a phone
    page.locator('[data-region="log"] summary').click()
    log.first.wait_for()
    after = log.all_text_contents()
    assert after[-len(before) :] == before  # the same moves (and any the bots made since, on top)
    page.context.close()


#: every tone the page starts, recorded before its own scripts run
RECORD_SOUND = """
window.__tones = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__tones.push(this.frequency.value);
  return start.apply(this, args);
};
"""


def test_sounds_are_off_by_default_and_the_switch_is_remembered(browser, server: str) -> None:
    """Issue 25 §3: no sound until the player switches it on; then a move makes one (WebAudio),
    and the switch stays on after a reload (localStorage)."""
    context = browser.new_context(locale="es-ES", viewport={"width": 390, "height": 844})
    context.add_init_script(RECORD_SOUND)
    page = context.new_page()
    page.set_default_timeout(15_000)
    start_from_home(page, server, "one_card", "Ana_sonido", players="3")
    toggle = page.get_by_test_id("sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    for _ in range(2):
        page.locator(ENABLED).first.wait_for(timeout=30_000)
        click(page, ENABLED)
    page.locator(ENABLED).first.wait_for(timeout=30_000)
    assert page.evaluate("window.__tones") == []  # off by default: moves and turns made no sound
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("window.__tones")  # the switch itself plays one, so the player hears it
    heard = len(page.evaluate("window.__tones"))
    # a bot's card, or the turn coming back to the viewer, now sounds; the viewer's own card and a
    # bot's draw do not, so the viewer plays on until something sounds (at two players a J gave the
    # turn straight back in silence: the test failed one run in six there)
    for _ in range(12):
        page.locator(f"{ENABLED}, {RESULT}").first.wait_for(timeout=30_000)
        if len(page.evaluate("window.__tones")) > heard or page.locator(RESULT).count():
            break
        click(page, ENABLED)
        with contextlib.suppress(Exception):  # no tone for this move: the next one
            page.wait_for_function("(heard) => window.__tones.length > heard", arg=heard, timeout=5_000)
    assert len(page.evaluate("window.__tones")) > heard  # the bot's plays and the turn sounded
    page.reload()
    page.locator("#table-app[data-status=playing], #table-app[data-status=finished]").wait_for()
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "true"
    context.close()


#: every card-arrive animation that starts on the table's newest card, with where it came from
RECORD_TRAVEL = """
window.__travels = [];
document.addEventListener("animationstart", (event) => {
  if (event.animationName !== "card-arrive" || !event.target.matches("[data-travel=played]")) return;
  const style = getComputedStyle(event.target);
  window.__travels.push([style.getPropertyValue("--from-x"), style.getPropertyValue("--from-y")]);
}, true);
"""


def test_a_played_card_travels_from_its_seat_and_the_current_seat_pulses(browser, server: str) -> None:
    """Issue 25 §3: a bot's card starts its flight at the bot's seat (above the pile: a negative
    offset, not the fixed default), and the seat whose turn it is pulses (the reduced-motion
    test checks that none of it moves when the player asks for less motion)."""
    context = browser.new_context(
        locale="es-ES", viewport={"width": 1440, "height": 900}, reduced_motion="no-preference"
    )
    context.add_init_script(RECORD_TRAVEL)
    page = context.new_page()
    page.set_default_timeout(15_000)
    start_from_home(page, server, "one_card", "Ana_vuela", players="3")
    pulsed = False
    for _ in range(8):
        page.locator(f"{ENABLED}, #game-area .turn-now").first.wait_for(timeout=30_000)
        pulse = page.locator("#game-area .opponent.turn-now")
        if pulse.count():
            name = pulse.first.evaluate("n => getComputedStyle(n).animationName")
            pulsed = pulsed or name == "seat-pulse"
        if page.locator(ENABLED).count():
            click(page, ENABLED)
        travels = page.evaluate("window.__travels")
        if pulsed and any(y.strip().startswith("-") and y.strip() != "-4rem" for _, y in travels):
            break
    travels = page.evaluate("window.__travels")
    assert any(y.strip().startswith("-") and y.strip() not in ("-4rem", "-0px") for _, y in travels), travels
    assert pulsed
    context.close()
