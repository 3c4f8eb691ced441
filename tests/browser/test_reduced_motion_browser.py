"""prefers-reduced-motion respected, in a real Chromium (issue 12, accessibility).

The same journey twice, in a browser context that asks for reduced motion and in one that does
not: the home page, then a One Card game against a bot played by clicking (cards hovered, played,
the bot's cards arriving on the pile). A script installed before the pages' own records every
CSS animation and transition that starts (``animationstart``, ``transitionrun``) and every
Web Animations call, with its duration. Without the preference the played cards travel
(``card-arrive``, 0.45 s) and the hand's cards move under the pointer (0.12 s), so the check can
fail; with it nothing moves for longer than the site.css guard's 0.01 ms, the arrival is not even
started, and the table's moving classes (``arrive``, ``pulse``: a played card, a call button or a
count) are switched off by the CSS alone.

The server and browser fixtures are test_tables_browser's.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.test_tables_browser import ENABLED, browser, click, server, start_from_home

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

#: what counts as "not moving": site.css's reduced-motion guard leaves 0.01 ms (1e-5 s)
STILL = 1e-4

RECORD_MOTION = """
window.__motion = [];
const seconds = (value) => Math.max(0, ...String(value).split(",").map((part) =>
  part.trim().endsWith("ms") ? parseFloat(part) / 1000 : parseFloat(part) || 0));
const note = (kind, name, target, duration) => window.__motion.push({
  kind, name: String(name), duration,
  where: target && target.className !== undefined ? String(target.className.baseVal ?? target.className) : "",
});
const style = (event) => getComputedStyle(event.target);
document.addEventListener("animationstart", (event) =>
  note("animation", event.animationName, event.target, seconds(style(event).animationDuration)), true);
document.addEventListener("transitionrun", (event) =>
  note("transition", event.propertyName, event.target, seconds(style(event).transitionDuration)), true);
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const duration = typeof options === "number" ? options / 1000 : (options?.duration ?? 0) / 1000;
  note("script", "animate", this, duration);
  return animate.call(this, frames, options);
};
"""

#: the computed motion of the table's moving classes on one card, switched on by the test
#: one task of the page's own, so that a re-render of the hand cannot detach the node between
#: finding it and reading its style (a detached node's computed style is empty)
PROBE = """selector => {
  const node = document.querySelector(selector);
  const out = {};
  for (const cls of ["arrive", "pulse"]) {
    node.classList.add(cls);
    const style = getComputedStyle(node);
    out[cls] = [style.animationName, style.animationDuration];
    node.classList.remove(cls);
  }
  return out;
}"""
#: every control and card of the table: its transition (property, duration)
TRANSITIONS = """nodes => nodes.map((node) => {
  const style = getComputedStyle(node);
  return [style.transitionProperty, style.transitionDuration];
})"""


def motion_page(browser: Any, *, reduce: bool) -> Any:
    context = browser.new_context(
        locale="es-ES",
        viewport={"width": 1280, "height": 900},
        reduced_motion="reduce" if reduce else "no-preference",
    )
    context.add_init_script(RECORD_MOTION)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def motions(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__motion")


def moving(page: Any) -> list[dict[str, Any]]:
    return [m for m in motions(page) if m["duration"] > STILL]


def seconds(value: str) -> float:
    return max(
        float(p.strip()[:-2]) / 1000 if p.strip().endswith("ms") else float(p.strip()[:-1])
        for p in value.split(",")
    )


def visit_home(page: Any, server: str) -> list[dict[str, Any]]:
    """The home page, its game cards and buttons pointed at and focused: what moved there."""
    page.goto(server + "/")
    for button in page.locator(".game-card button").all()[:6]:
        button.hover()
        button.focus()
    return moving(page)


def play_a_little(page: Any, *, until_arrival: bool) -> int:
    """Hover a card of the hand, then play by clicking until a card has arrived on the pile (or,
    with reduced motion, for as many moves): the moves made."""
    moves = 0
    deadline = time.monotonic() + 45
    while time.monotonic() < deadline:
        page.locator(f"#result:not([hidden]), {ENABLED}").first.wait_for(timeout=30_000)
        if page.locator("#result:not([hidden])").count():
            break
        card = page.locator("#hand button.pcard.legal").first
        if card.count():
            card.hover()
        arrived = any(m["name"] == "card-arrive" for m in motions(page))
        if moves >= 4 and (arrived or not until_arrival):
            return moves
        moves += click(page, ENABLED)
    return moves


def test_reduced_motion_nothing_moves_on_the_home_page_or_a_table(browser, server: str) -> None:
    """Issue 12's accessibility line: with prefers-reduced-motion no card travels, nothing
    transitions and no banner pulses; without it they do (the comparison that can fail)."""
    # without the preference: the cards travel and the hand moves under the pointer
    lively = motion_page(browser, reduce=False)
    visit_home(lively, server)
    start_from_home(lively, server, "one_card", "Ana_mueve", players="2")
    assert play_a_little(lively, until_arrival=True) >= 4
    seen = moving(lively)
    arrivals = [m for m in seen if m["name"] == "card-arrive"]
    assert arrivals and all(m["duration"] == pytest.approx(0.45) for m in arrivals), seen
    assert any(m["kind"] == "transition" and m["duration"] >= 0.1 for m in seen), seen
    probe = lively.evaluate(PROBE, "#hand .pcard")
    assert probe["arrive"][0] == "card-arrive" and probe["pulse"][0] == "pulse", probe
    lively.context.close()

    # with it: nothing moves, on the home page or at the table
    calm = motion_page(browser, reduce=True)
    assert visit_home(calm, server) == []
    start_from_home(calm, server, "one_card", "Ana_quieta", players="2")
    assert calm.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert play_a_little(calm, until_arrival=False) >= 4
    assert moving(calm) == []
    assert not [m for m in motions(calm) if m["name"] == "card-arrive"]  # not even started
    assert calm.locator("#game-area .arrive, #game-area .pulse").count() == 0
    # the CSS alone stills the moving classes (a played card, Pika's call button, a count)
    for selector in ("#hand .pcard", "#game-area .pile .pcard"):
        probe = calm.evaluate(PROBE, selector)
        assert probe["arrive"][0] == "none" and probe["pulse"][0] == "none", probe
    transitions = calm.locator("#game-area button, #game-area .pcard").evaluate_all(TRANSITIONS)
    assert transitions and all(kind == "none" or seconds(d) <= STILL for kind, d in transitions), transitions
    calm.context.close()
