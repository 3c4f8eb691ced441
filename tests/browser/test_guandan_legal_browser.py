"""Guandan's plays in the page, in Chromium: the packed plays unpack to exactly the engine's legal
list (issue 26, item 13; docs/protocol.md, "Guandan's plays"; GD-13 … GD-23, GD-53, GD-67), a
selection's readings are the engine's classifier's, and the learning aids name a selection or say
why it is no play (issue 25, section 7).

States come from whole matches of normal bots and from hands made for the rare readings (two
wildcards, bombs of up to ten cards, straight flushes, the joker bomb, a tribute's return): for
each, what the envelope carries (``legal``, ``plays``, the view's hand and level) goes to the
page's own ``guandan_legal.js``, and the page's list of actions, canonically written and hashed,
must equal the engine's. No site runs: the page gets the static files from the checkout.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardgames.engines import get_engine
from cardgames.engines.guandan.cards import counts_of, parse_level
from cardgames.engines.guandan.combos import KIND_NAMES as KINDS
from cardgames.engines.guandan.combos import classify, interp_to_wire
from cardgames.tables import legal_wire
from tests.browser.test_movelog_browser import _words, page
from tests.browser.test_tables_browser import browser
from tests.tables.guandan_states import bot_states, rare_states

__all__ = ["browser", "page"]  # the fixtures, used by name
pytestmark = pytest.mark.browser
ENG = get_engine("guandan")

UNPACK = """async (states) => {
  const { unpackLegal } = await import("/static/frontend/games/guandan_legal.js");
  const canonical = (value) => Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`
      : JSON.stringify(value);
  const fnv = (text) => {  // FNV-1a, 32 bits (the text is ASCII)
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h;
  };
  return states.map((envelope) => {
    const keys = unpackLegal(envelope).map(canonical).sort();
    return [keys.length, fnv(keys.join("\\n"))];
  });
}"""


def canonical(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def fnv(text: str) -> int:
    """FNV-1a, 32 bits: the page's hash of the same text."""
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def digest(actions: list[dict[str, Any]]) -> list[Any]:
    keys = sorted(canonical(a) for a in actions)
    return [len(keys), fnv("\n".join(keys))]


def wire(state: Any, seat: int) -> tuple[dict[str, Any], list[Any]]:
    """What the envelope carries for ``seat`` (as JSON) and the digest of the engine's list."""
    legal = ENG.legal_actions(state, seat)
    listed, plays = legal_wire.pack("guandan", legal)
    view = ENG.view(state, seat)
    envelope = {"legal": listed, "plays": plays, "view": {"hand": view["hand"], "level": view["level"]}}
    return json.loads(json.dumps(envelope)), digest(legal)


def test_gd_the_page_unpacks_packed_plays_to_the_engine_list(page: Any) -> None:
    named = [(name, *wire(state, seat)) for name, state, seat in rare_states()]
    named += [(f"match:{i}", *wire(state, seat)) for i, (state, seat) in enumerate(bot_states(21, every=3))]
    got = page.evaluate(UNPACK, [envelope for _, envelope, _ in named])
    wrong = [name for (name, _, expected), answer in zip(named, got, strict=True) if answer != expected]
    assert wrong == []
    plays = sum(expected[0] for _, _, expected in named)
    assert len(named) > 300 and plays > 20_000, (len(named), plays)


READINGS = """async (items) => {
  const { readingsOf } = await import("/static/frontend/games/guandan_legal.js");
  return items.map(([cards, level]) => readingsOf(cards, level));
}"""


def test_gd23_a_selections_readings_in_the_page_are_the_engines_classifiers(page: Any) -> None:
    """Sub-multisets of real hands (one to ten cards, two wildcards often) and of the hands made
    for the rare readings: the page reads each exactly as ``combos.classify`` does (GD-13 … GD-23)."""
    rng = random.Random(5)
    hands = [
        (ENG.view(state, seat)["hand"], ENG.view(state, seat)["level"]) for _, state, seat in rare_states()
    ]
    hands += [(ENG.view(s, seat)["hand"], ENG.view(s, seat)["level"]) for s, seat in bot_states(9, every=40)]
    items = []
    for hand, level in hands:
        if not hand:
            continue
        for _ in range(40):
            size = rng.choice([1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 8, 10])
            items.append((sorted(rng.sample(hand, min(size, len(hand)))), level))
        wild = f"{level}H"
        if wild in hand:  # the wildcard with the cards of the ranks around it: straights and groups
            near = [c for c in hand if c != wild][:5]
            items += [(sorted([wild, *near[:k]]), level) for k in (0, 1, 4, 5)]
    # and the rarest: a straight flush with a wildcard, the joker bomb, the two wildcards alone
    items += [(c.split(), "5") for c in ("2D 3D 4D 5H 6D", "BJ BJ RJ RJ", "5H 5H", "5H BJ", "5H 5H 5S 5D")]
    got = page.evaluate(READINGS, json.loads(json.dumps(items)))
    canon = lambda readings: sorted(json.dumps(r, sort_keys=True) for r in readings)  # noqa: E731
    wrong = []
    for (cards, level), answer in zip(items, got, strict=True):
        expected = [interp_to_wire(i) for i in classify(counts_of(cards), parse_level(level))]
        if canon(answer) != canon(expected):
            wrong.append((cards, level, answer, expected))
    assert wrong == []
    kinds = {reading["kind"] for answer in got for reading in answer}
    assert kinds == set(KINDS), kinds


NOTES = """async ([strings, cases]) => {
  const [{ createRenderer }, cards, help] = await Promise.all([
    import("/static/frontend/render.js"), import("/static/frontend/cards.js"),
    import("/static/frontend/games/guandan_help.js"),
  ]);
  const { t } = createRenderer({ game: "guandan", strings, getEnv: () => ({ seats: [], you: { seat: 0 } }) });
  cards.setCardWords(t);
  const ctx = { t, cardLabel: (code) => cards.cardName(code, "guandan") };
  return cases.map((c) => help.selectionNote(ctx, c));
}"""


def play(cards: str, kind: str, rank: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "cards": cards.split(), "interp": {"kind": kind, "rank": rank, **extra}}


@pytest.mark.parametrize("language", ["es", "en"])
def test_gd_a_selection_is_named_before_it_is_played_or_told_why_it_is_no_play(
    page: Any, language: str
) -> None:
    """Issue 25, section 7: the selection names its combination ("Escalera de 5 hasta el 9"), with
    what its wildcards stand for (GD-10), or says why it is no play: no combination (GD-13 …
    GD-22), lower than the table's play, or another kind than the table's without a bomb (GD-27)."""
    top_pair = {"cards": ["9S", "9D"], "interp": {"kind": "pair", "rank": "9"}}
    top_triple = {"cards": ["9S", "9D", "9C"], "interp": {"kind": "triple", "rank": "9"}}
    top_bomb = {"cards": ["8S", "8D", "8C", "8H", "8S"], "interp": {"kind": "bomb", "rank": "8", "size": 5}}
    cases = [
        ("5S 6H 7C 8D 9S", [play("5S 6H 7C 8D 9S", "straight", "9")], None, "2"),
        ("2H 5S 6H 8D 9S", [play("2H 5S 6H 8D 9S", "straight", "9")], None, "2"),
        ("2H 3H 3S 5D 5S", [play("2H 3H 3S 5D 5S", "full_house", "3")], None, "2"),
        ("2H 2H 7S 7D", [play("2H 2H 7S 7D", "bomb", "7", size=4)], None, "2"),
        ("7S", [play("7S", "single", "7")], None, "2"),
        ("3S 9D", [], None, "2"),
        ("7S 7D", [], top_pair, "2"),
        ("7S 7D", [], top_triple, "2"),
        ("7S 7D 7C 7H", [], top_bomb, "2"),
    ]
    items = [{"cards": c.split(), "plays": p, "top": top, "level": lv} for c, p, top, lv in cases]
    got = page.evaluate(NOTES, [_words(language), items])
    expected = {
        "es": [
            "Escalera de 5 hasta el 9.",
            "Escalera de 5 hasta el 9 (el comodín hace de 7).",
            "Trío de 3 con pareja de 5 (el comodín hace de 3).",
            "Bomba de 4 sietes (los comodines hacen de 7).",
            "Un 7 suelto.",
            "Esas cartas no forman ninguna combinación.",
            "Pareja de 7: no supera la jugada de la mesa (pareja de 9).",
            "Pareja de 7: la mesa tiene trío de 9; se supera con la misma combinación, más alta, "
            "o con una bomba.",
            "Bomba de 4 sietes: no supera la jugada de la mesa (bomba de 5 ochos).",
        ],
    }
    if language == "es":
        assert got == expected["es"]
    else:
        assert got[0] == "Straight of 5 up to 9." and got[5] == "Those cards make no combination."
        assert "the wild card stands for 7" in got[1] and "does not beat the play on the table" in got[6]
