"""The move log's words (static/frontend/movelog.js) in Chromium, from the server's own data
(cardgames/tables/movelog.py): the sentences and banners issue 25 names, in Spanish and English,
and every entry of a bot game of each of the five games told without a missing word.

No site runs: the page is served the static files straight from the checkout, and gets the
words the table page would (frontend/table_strings.py) in each language.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardgames.bots.driver import BotTable, step
from cardgames.engines import GAMES, get_engine
from cardgames.tables import movelog
from tests.browser.test_tables_browser import browser as browser  # the shared Chromium
from tests.engines.test_movelog_leaks import Recorder

pytestmark = pytest.mark.browser
STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static"
ORIGIN = "http://movelog.test"

#: in the page: the sentences of [game, you, entry] items, with the table page's card names
TELL = """async ([strings, items]) => {
  const [{ createRenderer }, log] = await Promise.all([
    import("/static/frontend/render.js"), import("/static/frontend/movelog.js"),
  ]);
  const names = ["Ana", "Bot difícil", "Bea", "Carla", "Dani", "Eva"];
  const seats = names.map((name, seat) => ({ seat, name, kind: "bot" }));
  return items.map(([game, you, entry]) => {
    const env = { seats, you: { seat: you } };
    const { t, seatName, cardLabel } = createRenderer({ game, strings, getEnv: () => env });
    const ctx = { t, seatName, cardLabel, you };
    const banners = (entry.banners || []).map((b) => log.bannerText(b, ctx));
    return { entry: log.entryText(entry, ctx), banners };
  });
}"""


def _words(language: str) -> dict[str, str]:
    from django.utils import translation

    from frontend.table_strings import table_strings

    with translation.override(language):
        return table_strings()


@pytest.fixture
def page(browser: Any) -> Any:
    context = browser.new_context()
    page = context.new_page()

    def static(route: Any) -> None:
        path = STATIC / route.request.url.split("/static/", 1)[1]
        route.fulfill(
            body=path.read_bytes(), content_type="text/javascript" if path.suffix == ".js" else "text/html"
        )

    page.route(f"{ORIGIN}/static/**", static)
    page.route(
        f"{ORIGIN}/",
        lambda route: route.fulfill(body="<!doctype html><main></main>", content_type="text/html"),
    )
    page.goto(f"{ORIGIN}/")
    yield page
    context.close()


def _tell(
    page: Any, language: str, items: list[tuple[str, int | None, dict[str, Any]]]
) -> list[dict[str, Any]]:
    return page.evaluate(TELL, [_words(language), json.loads(json.dumps(items))])


def _entry(
    game: str, seat: int | None, action: dict[str, Any], events: list[dict[str, Any]], you: int | None
) -> Any:
    entry = movelog.describe(game, seat, action, events, you)
    assert entry is not None
    return (game, you, entry)


def test_oc38_pk32_oc41_the_penalty_and_window_banners_name_who_did_what_to_whom(page: Any) -> None:
    caught = [
        {"type": "catch", "seat": 1, "target": 0},
        {"type": "penalty", "seat": 0, "cards": ["4H", "JH"], "count": 2},
    ]
    missed = [{"type": "pika_penalty", "seat": 0, "count": 2}]
    lapsed = [{"type": "timeout", "seat": 0, "timer": "catch"}]
    catch, timeout = {"type": "catch", "target": 0}, {"type": "timeout", "timer": "catch"}
    items = [
        _entry("one_card", 1, catch, caught, 0),
        _entry("one_card", 1, catch, caught, 2),
        _entry("pika", 0, {"type": "timeout", "timer": "pika"}, missed, 0),
        _entry("one_card", 0, timeout, lapsed, 0),
        _entry("one_card", 0, timeout, lapsed, None),
    ]
    es = _tell(page, "es", items)
    assert es[0] == {
        "entry": "Bot difícil te ha tocado: robas 4♥ y J♥",
        "banners": ["Bot difícil te ha tocado: robas 2"],
    }
    assert es[1]["banners"] == ["Bot difícil ha tocado a Ana: roba 2"]
    assert es[1]["entry"] == "Bot difícil toca a Ana: roba 2"  # OC-52: no card for the others
    assert es[2]["banners"] == ["No dijiste «¡Pika!»: robas 2"]
    assert es[3]["banners"] == ["Nadie te tocó a tiempo"]
    assert es[4]["banners"] == ["Nadie tocó a Ana a tiempo"]
    en = _tell(page, "en", items)
    assert en[0]["banners"] == ["Bot difícil caught you: you draw 2"]
    assert en[2]["banners"] == ["You did not say “Pika!”: you draw 2"]
    assert en[3]["banners"] == ["Nobody caught you in time"]


def test_gd_combinations_colours_suits_and_bids_are_named(page: Any) -> None:
    def played(cards: list[str], interp: dict[str, Any], level: str = "2") -> Any:
        events = [{"type": "played", "seat": 2, "cards": cards, "interp": interp, "level": level}]
        return _entry("guandan", 2, {"type": "play", "cards": cards, "interp": interp}, events, 0)

    items = [
        played(["7S", "7D", "7C", "4S", "4D"], {"kind": "full_house", "rank": "7"}),
        played(["9S", "9D", "9C", "9H"], {"kind": "bomb", "rank": "9", "size": 4}),
        played(["5S", "6D", "7C", "8H", "9S"], {"kind": "straight", "rank": "9"}),
        played(["2H"], {"kind": "single", "rank": "Q"}, level="2"),
        _entry("one_card", 0, {"type": "play"}, [{"type": "play", "seat": 0, "card": "7H", "suit": "S"}], 0),
        _entry("pika", 3, {"type": "play"}, [{"type": "play", "seat": 3, "card": "W+4", "colour": "G"}], 0),
        _entry("puteo", 4, {"type": "bid", "k": 1}, [{"type": "bid", "seat": 4, "k": 1}], 0),
        _entry(
            "one_card",
            2,
            {"type": "draw"},
            [{"type": "draw", "seat": 2, "cards": ["3S", "AS"], "count": 2}],
            0,
        ),
    ]
    es = [item["entry"] for item in _tell(page, "es", items)]
    assert es[:4] == [
        "Bea juega trío de 7 con pareja de 4: 7♠ 7♦ 7♣ 4♠ 4♦",
        "Bea juega bomba de 4 nueves: 9♠ 9♦ 9♣ 9♥",
        "Bea juega escalera de 5 hasta el 9: 5♠ 6♦ 7♣ 8♥ 9♠",
        "Bea juega 2♥ (comodín)",
    ]
    assert es[4:] == [
        "Juegas 7♥ y pides picas",
        "Carla juega comodín +4 y elige verde",
        "Dani predice 1 baza",
        "Bea roba 2 cartas",
    ]
    en = [item["entry"] for item in _tell(page, "en", items)]
    assert en[1] == "Bea plays bomb of 4 nines: 9♠ 9♦ 9♣ 9♥" and en[4] == "You play 7♥ and call spades"


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_entry_of_a_bot_game_of_each_game_is_told_in_words(page: Any, language: str) -> None:
    items: list[tuple[str, int | None, dict[str, Any]]] = []
    for game in GAMES:
        eng = get_engine(game)
        n = 4
        recorder = Recorder(eng)
        table = BotTable.seated(game, ["easy"] * n, 1)
        rng = random.Random(1)
        options: dict[str, Any] = {
            "turn_seconds": 30,
            **({"levels": ["A", "A"]} if game == "guandan" else {}),
        }
        state = eng.new_game(n, seed=1, options=options)
        for _ in range(400):
            if eng.is_over(state):
                break
            timers = [t for t in eng.timers(state) if t["name"] != "turn"]
            if timers and rng.random() < 0.3:  # the windows and pauses lapse too
                state = recorder.apply(
                    state, timers[0]["seat"], {"type": "timeout", "timer": timers[0]["name"]}
                )[0]
            else:
                state = step(recorder, state, table)  # type: ignore[arg-type]
        for seat, action, events in recorder.rows:
            for you in (0, None):
                entry = movelog.describe(game, seat, action, events, you)
                if entry is not None:
                    items.append((game, you, entry))
    told = _tell(page, language, items)
    kinds = {fact["kind"] for _, _, entry in items for fact in entry["facts"]}
    assert len(kinds) > 25
    for (game, _you, entry), words in zip(items, told, strict=True):
        for text in [words["entry"], *words["banners"]]:
            assert text and not any(
                bad in text for bad in ("%(", "log_", "banner_", "undefined", "null", "NaN")
            ), (
                game,
                entry,
                text,
            )
