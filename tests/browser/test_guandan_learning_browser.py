"""Guandan for people learning it, on the real server in Chromium at 390×844 and 1440×900 (issue 25,
section 7): «Sugerir» selects the normal bot's choice without playing it; the hand is grouped by
rank or by suit (remembered); wild cards are marked, and a selection names what its wildcard
stands for; the selection names its combination before Jugar, or says why it is no play.

Each table is a bots room of Ana's, dealt from a seed the set-up picks (its first deal gives Ana
the deal's wildcard, 2♥, and a straight that uses it) with the first leader fixed: Ana leads, or
the bot before her does and she follows (the seed is the table's own: replays and the shuffle
check still hold). The server, browser and page helpers are test_tables_browser's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardgames.engines.guandan.cards import RANKS, counts_of
from cardgames.engines.guandan.combos import classify, interp_to_wire
from tests.browser.test_matchmaking_browser import sign_up
from tests.browser.test_skyjo_puteo_guandan_browser import LEGAL, page_version, select_cards, settled_envelope
from tests.browser.test_tables_browser import SCREENSHOTS, browser, server, site_shell

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
HINT = "gm-hint"

SET_UP = """
import json, secrets
from django.contrib.auth import get_user_model
from accounts.identity import player_for_user
from cardgames.engines import get_engine
from cardgames.tables import services
from cardgames.tables.models import Table
player = player_for_user(get_user_model().objects.get(username={username!r}))
table = services.create_room(player=player, game="guandan", mode="bots", bot_level="easy")
options = dict(table.options, first_leader={leader})
Table.objects.filter(pk=table.pk).update(options=options)
eng = get_engine("guandan")

def fits(seed):
    state = eng.new_game(4, seed=seed, options=dict(options, turn_seconds=None))
    straights = [
        a for a in eng.legal_actions(state, 0) if a["type"] == "play" and a["interp"]["kind"] == "straight"
        and "2H" in a["cards"] and sum(1 for b in eng.legal_actions(state, 0)
        if b["type"] == "play" and sorted(b["cards"]) == sorted(a["cards"])) == 1
    ] if {leader} == 0 else [True]
    return "2H" in eng.view(state, 0)["hand"] and straights

seed = next(f"learn{{n:04x}}" + "0" * 24 for n in range(500) if fits(f"learn{{n:04x}}" + "0" * 24))
secrets.token_hex = lambda n=16: seed  # the deal's secret seed: this one
services.start_table(table_id=table.pk, player=player)
print(json.dumps({{"code": table.code, "id": table.pk}}))
"""

HINT_OF = """
import json
from django.contrib.auth import get_user_model
from accounts.identity import player_for_user
from cardgames.tables import selectors
player = player_for_user(get_user_model().objects.get(username={username!r}))
print(json.dumps(selectors.hint_for(table=selectors.get_table({table_id}), viewer=player)))
"""


def open_table(browser: Any, server: str, size: str, username: str, leader: int) -> tuple[Any, Any]:
    """Ana's page at her bots table (``leader`` leads the first trick), signed up at ``size``."""
    phone = size == "phone"
    scale = 2 if phone else 1
    context = browser.new_context(
        locale="es-ES", viewport=SIZES[size], has_touch=phone, is_mobile=phone, device_scale_factor=scale
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    sign_up(page, server, username)
    table = json.loads(site_shell(server, SET_UP.format(username=username, leader=leader)))
    page.goto(f"{server}/mesa/{table['code']}/")
    page.locator(LEGAL).first.wait_for()
    return page, table


#: each wild card's box and its mark's, in the page, and whether the mark is what shows at its
#: centre (no other card of the hand lies over it)
BOXES = """nodes => nodes.map((n) => {
  n.scrollIntoView({ block: "center" });
  const mark = n.querySelector(".gd-wild-mark");
  const [card, box] = [n, mark].map((e) => e.getBoundingClientRect());
  const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const edges = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  return [edges(card), { ...edges(box), shown: mark === seen || mark.contains(seen) }];
})"""


def hand_order(page: Any) -> list[str]:
    return page.locator("#hand [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def power(code: str, level: str) -> int:
    if code in ("BJ", "RJ"):
        return 14 if code == "BJ" else 15
    return 13 if code[0] == level else RANKS.index(code[0])


def by_suit(hand: list[str], level: str) -> list[str]:
    """The suit grouping's order: ♠ ♥ ♣ ♦ by power, the jokers, then the wildcards."""

    def group(code: str) -> int:
        if code in ("BJ", "RJ"):
            return 4
        return 5 if code == f"{level}H" else "SHCD".index(code[1])

    return sorted(hand, key=lambda c: (group(c), power(c, level)))


def rank_name(rank: str) -> str:
    return "10" if rank == "T" else rank


@pytest.mark.parametrize("size", list(SIZES))
def test_gd_grouping_wild_marks_the_selections_name_and_sugerir_when_leading(
    browser: Any, server: str, size: str
) -> None:
    page, table = open_table(browser, server, size, f"ana_learns_{size}", leader=0)
    env = settled_envelope(page)
    hand, level = env["view"]["hand"], env["view"]["level"]
    wild = f"{level}H"
    assert level == "2" and wild in hand and env["view"]["leading"]

    # wild cards are marked in the hand, and only they (GD-10), with the rules page's ✱, inside each
    # card (two side by side on a phone: no mark over the other), and the hand's legend says what it is
    marked = page.locator("#hand .gd-wild")
    assert marked.count() == hand.count(wild)
    assert marked.first.locator(".gd-wild-mark").inner_text() == "✱"
    for card, mark in page.locator("#hand .gd-wild").evaluate_all(BOXES):
        assert mark["shown"], (card, mark)
        assert card["left"] <= mark["left"] and mark["right"] <= card["right"], (card, mark)
        assert card["top"] <= mark["top"] and mark["bottom"] <= card["bottom"], (card, mark)
    legend = " ".join(page.get_by_test_id("gd-wild-legend").inner_text().split())
    assert legend == "✱ comodín: hace de cualquier carta menos un joker"

    # grouped by rank (power, GD-8) by default; by suit on request, the wildcards apart; remembered
    assert hand_order(page) == sorted(hand, key=lambda c: (power(c, level), "SHCD".find(c[-1])))
    assert page.get_by_test_id("gd-group-rank").get_attribute("aria-pressed") == "true"
    page.get_by_test_id("gd-group-suit").click()
    assert hand_order(page) == by_suit(hand, level)
    assert hand_order(page)[-hand.count(wild) :] == [wild] * hand.count(wild)
    page.screenshot(path=str(SCREENSHOTS / f"gd-learning-{size}-by-suit.png"))
    page.reload()
    page.locator(LEGAL).first.wait_for()
    assert page.get_by_test_id("gd-group-suit").get_attribute("aria-pressed") == "true"
    assert hand_order(page) == by_suit(hand, level)
    page.get_by_test_id("gd-group-rank").click()

    # the selection names its combination, and what the wildcard stands for, before Jugar
    legal = env["legal"]
    straight = next(
        a
        for a in legal
        if a["type"] == "play"
        and a["interp"]["kind"] == "straight"
        and wild in a["cards"]
        and sum(1 for b in legal if b["type"] == "play" and sorted(b["cards"]) == sorted(a["cards"])) == 1
    )
    select_cards(page, straight["cards"])
    top = straight["interp"]["rank"]
    window = [RANKS[(v - 2) % 13] for v in range(RANKS.index(top) + 2 - 4, RANKS.index(top) + 3)]
    # the ranks its naturals lack, but the level's own: a wildcard there is itself (GD-10)
    naturals = {c[0] for c in straight["cards"] if c != wild}
    missing = [r for r in window if r != level and r not in naturals]
    name = f"Escalera de 5 hasta el {rank_name(top)}"
    stands = f"el comodín hace de {rank_name(missing[0])}" if missing else ""
    expected = f"{name} ({stands})." if stands else f"{name}."
    assert page.get_by_test_id(HINT).inner_text() == expected
    assert page.get_by_test_id("gd-play").inner_text() == f"Jugar {name[0].lower()}{name[1:]}"
    page.screenshot(path=str(SCREENSHOTS / f"gd-learning-{size}-named.png"))
    page.get_by_test_id("gd-clear").click()
    nothing = next(
        [a, b]
        for a in hand
        for b in hand
        if a < b and not classify(counts_of([a, b]), 0)  # two cards that read as nothing at level 2
    )
    select_cards(page, nothing)
    assert page.get_by_test_id(HINT).inner_text() == "Esas cartas no forman ninguna combinación."
    page.get_by_test_id("gd-clear").click()

    # «Sugerir»: the normal bot's choice (the server's hint_for) is selected, and nothing is played
    version = page_version(page)
    page.get_by_test_id("gd-suggest").click()
    page.get_by_test_id(HINT).filter(has_text="Sugerencia:").wait_for()
    hinted_version, action = json.loads(
        site_shell(server, HINT_OF.format(username=f"ana_learns_{size}", table_id=table["id"]))
    )
    assert hinted_version == version and action["type"] == "play"
    lifted = page.locator('#hand [aria-pressed="true"]').evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert sorted(lifted) == sorted(action["cards"])
    assert page_version(page) == version  # not played
    page.screenshot(path=str(SCREENSHOTS / f"gd-learning-{size}-suggested.png"))
    page.get_by_test_id("gd-play").click()  # Jugar plays it
    page.locator(f'#table-app:not([data-version="{version}"])').wait_for()
    played = settled_envelope(page)["view"]["trick"]
    assert played and played[0]["seat"] == 0 and sorted(played[0]["cards"]) == sorted(action["cards"])
    assert played[0]["interp"] == action["interp"]
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_gd_a_selection_that_does_not_answer_the_table_says_why(browser: Any, server: str, size: str) -> None:
    """GD-27: following, a selection of another kind than the table's (not a bomb), or of the same
    kind and no higher, is no play: the page names it and says which."""
    page, _ = open_table(browser, server, size, f"ana_follows_{size}", leader=3)
    env = settled_envelope(page)
    view, legal = env["view"], env["legal"]
    assert not view["leading"]
    top = [entry for entry in view["trick"] if not entry.get("pass")][-1]
    plays = {tuple(sorted(a["cards"])) for a in legal if a["type"] == "play"}
    hand = view["hand"]
    pairs = [[a, b] for i, a in enumerate(hand) for b in hand[i + 1 :] if a[0] == b[0]]
    candidates = [[c] for c in hand] + pairs
    chosen, reading = next(
        (cards, interp_to_wire(next(iter(readings))))
        for cards in candidates
        if tuple(sorted(cards)) not in plays and (readings := classify(counts_of(cards), 0))
    )
    select_cards(page, chosen)
    rank = rank_name(reading["rank"]) if reading["rank"] in RANKS else None
    name = f"Un {rank} suelto" if reading["kind"] == "single" else f"Pareja de {rank}"
    text = page.get_by_test_id(HINT).inner_text()
    if reading["kind"] == top["interp"]["kind"]:
        assert text.startswith(f"{name}: no supera la jugada de la mesa (") and text.endswith(").")
    else:
        assert text.startswith(f"{name}: la mesa tiene ")
        assert text.endswith("; se supera con la misma combinación, más alta, o con una bomba.")
    assert not page.get_by_test_id("gd-play").is_enabled()
    page.screenshot(path=str(SCREENSHOTS / f"gd-learning-{size}-why-not.png"))
    assert page.errors == []
    page.context.close()
