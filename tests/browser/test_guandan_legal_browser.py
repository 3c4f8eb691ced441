"""The page unpacks Guandan's packed plays to exactly the engine's legal list, in Chromium (issue 26,
item 13; docs/protocol.md, "Guandan's plays"; GD-13 … GD-23, GD-53, GD-67).

States come from whole matches of normal bots and from hands made for the rare readings (two
wildcards, bombs of up to ten cards, straight flushes, the joker bomb, a tribute's return): for
each, what the envelope carries (``legal``, ``plays``, the view's hand and level) goes to the
page's own ``guandan_legal.js``, and the page's list of actions, canonically written and hashed,
must equal the engine's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from cardgames.engines import get_engine
from cardgames.tables import legal_wire
from tests.browser.test_tables_browser import browser, new_page, server
from tests.tables.guandan_states import bot_states, rare_states

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser
ENG = get_engine("guandan")

UNPACK = """async (states) => {
  const { unpackLegal } = await import("/static/frontend/games/guandan_legal.js");
  const canonical = (value) => Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`
      : JSON.stringify(value);
  const out = [];
  for (const envelope of states) {
    const keys = unpackLegal(envelope).map(canonical).sort();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(keys.join("\\n")));
    out.push([keys.length, [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")]);
  }
  return out;
}"""


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def digest(actions: list[dict[str, Any]]) -> list[Any]:
    keys = sorted(canonical(a) for a in actions)
    return [len(keys), hashlib.sha256("\n".join(keys).encode()).hexdigest()]


def wire(state: Any, seat: int) -> tuple[dict[str, Any], list[Any]]:
    """What the envelope carries for ``seat`` (as JSON) and the digest of the engine's list."""
    legal = ENG.legal_actions(state, seat)
    listed, plays = legal_wire.pack("guandan", legal)
    view = ENG.view(state, seat)
    envelope = {"legal": listed, "plays": plays, "view": {"hand": view["hand"], "level": view["level"]}}
    return json.loads(json.dumps(envelope)), digest(legal)


def test_gd_the_page_unpacks_packed_plays_to_the_engine_list(browser: Any, server: str) -> None:
    named = [(name, *wire(state, seat)) for name, state, seat in rare_states()]
    named += [(f"match:{i}", *wire(state, seat)) for i, (state, seat) in enumerate(bot_states(21, every=3))]
    page = new_page(browser)
    page.goto(f"{server}/")
    got = page.evaluate(UNPACK, [envelope for _, envelope, _ in named])
    wrong = [name for (name, _, expected), answer in zip(named, got, strict=True) if answer != expected]
    assert wrong == []
    plays = sum(expected[0] for _, _, expected in named)
    assert len(named) > 300 and plays > 20_000, (len(named), plays)
