"""Issue 25 §2 and §3 on the table page: whose turn, what is asked of the viewer, and the move's
banners and new cards.

First the turn line's words (static/frontend/turn.js, pure) for positions the real engines reach:
"Te toca" only for a turn decision; One Card's catch and call windows and Pika's call are
prompts of their own with their countdown; the line names one player, never a list; Guandan
between deals counts down to the next deal. Then the real table page (a One Card room of the
test site) fed by a stand-in socket (Playwright's WebSocket routing) with envelopes from the
engine: the catch prompt counts down and outlines no second seat, a catch's banner names who
caught whom and how many cards, and the cards that entered the hand are marked for a moment.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

from cardgames.engines import get_engine
from cardgames.tables import movelog
from tests.browser.test_movelog_browser import _words, page
from tests.browser.test_tables_browser import browser, server

__all__ = ["browser", "page", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

NAMES = ["Ana", "Bot difícil", "Bea", "Carla"]
REACTIONS = {"call_one_card", "call_pika", "catch"}

#: in the page: the prompt of each [game, envelope]
PROMPTS = """async ([strings, items]) => {
  const [{ createRenderer }, { turnPrompt, turnSeat }] = await Promise.all([
    import("/static/frontend/render.js"), import("/static/frontend/turn.js"),
  ]);
  return items.map(([game, env]) => {
    const { t, seatName } = createRenderer({ game, strings, getEnv: () => env });
    return { ...turnPrompt(env, { t, seatName, strings, game }), seat: turnSeat(env, game) };
  });
}"""


def position(game: str, players: int, wanted: Any, seeds: range = range(1, 60)) -> Any:
    """Seeded random play (the turn seat's moves, never a call or a catch) until ``wanted``."""
    engine = get_engine(game)
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_game(players, seed=seed, options={"turn_seconds": None})
        for _ in range(300):
            if engine.is_over(state):
                break
            if wanted(engine, state):
                return state
            seat = engine.view(state, None).get("turn")
            if seat is None or seat not in engine.to_act(state):
                seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            moves = [a for a in legal if a["type"] not in REACTIONS] or legal
            state, _ = engine.apply(state, seat, dict(rng.choice(moves)))
    raise AssertionError(f"{game}: no such position")


def seat_envelope(game: str, state: Any, you: int | None, *, version: int = 7) -> dict[str, Any]:
    engine = get_engine(game)
    now = int(time.time() * 1000)
    players = len(
        engine.view(state, None).get("counts") or engine.view(state, None).get("hand_counts") or NAMES
    )
    seats = [
        {"seat": s, "name": NAMES[s], "kind": "bot" if s else "guest", "connected": True}
        for s in range(players)
    ]
    env = {
        "version": version,
        "status": "playing",
        "game": game,
        "server_time": now,
        "num_players": players,
        "seats": seats,
        "you": {"seat": you, "role": "player" if you is not None else "spectator"},
        "to_act": engine.to_act(state),
        "legal": engine.legal_actions(state, you) if you is not None else [],
        "timers": [{**t, "deadline": now + t["seconds"] * 1000} for t in engine.timers(state)],
        "view": engine.view(state, you),
        "last": None,
        "result": None,
        "plays": None,
    }
    return json.loads(json.dumps(env))


def only_reactions(types: set[str]) -> Any:
    def wanted(engine: Any, state: Any) -> bool:
        legal = {a["type"] for a in engine.legal_actions(state, 0)}
        timed = (
            any(t["seat"] == 0 for t in engine.timers(state))
            if types & {"call_one_card", "call_pika"}
            else True
        )
        return bool(legal & types) and legal <= REACTIONS and len(engine.to_act(state)) > 1 and timed

    return wanted


def prompts(page: Any, items: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return page.evaluate(PROMPTS, [_words("es"), items])


def test_a_reaction_window_is_its_own_prompt_and_the_line_names_one_player(page: Any) -> None:
    catch = position(
        "one_card",
        3,
        lambda e, s: (
            only_reactions({"catch"})(e, s)
            and not any(a["type"] == "call_one_card" for a in e.legal_actions(s, 0))
        ),
    )
    call = position("one_card", 3, only_reactions({"call_one_card"}))
    pika = position("pika", 3, only_reactions({"call_pika"}))
    catch_env = seat_envelope("one_card", catch, 0)
    target = next(a["target"] for a in catch_env["legal"] if a["type"] == "catch")
    turn = catch_env["view"]["turn"]
    spectator = seat_envelope("one_card", catch, None)
    watcher = (
        next(s for s in range(3) if s != turn and s not in catch_env["to_act"])
        if len(catch_env["to_act"]) < 3
        else None
    )
    items = [
        ("one_card", catch_env),
        ("one_card", seat_envelope("one_card", call, 0)),
        ("pika", seat_envelope("pika", pika, 0)),
        ("one_card", spectator),
    ]
    if watcher is not None:
        items.append(("one_card", seat_envelope("one_card", catch, watcher)))
    said = prompts(page, items)

    # the catcher: a prompt with the window's countdown, not "Te toca"; the turn is one seat
    assert said[0]["text"] == f"Puedes tocar a {NAMES[target]}" and said[0]["window"], said[0]
    window = next(t for t in catch_env["timers"] if t["name"] == "catch")
    assert said[0]["deadline"] == window["deadline"]
    assert said[0]["seat"] == turn and "Te toca" not in said[0]["text"]
    # the player in their own window: press One Card; Pika the same
    assert said[1]["text"] == "¡Pulsa One Card!" and said[1]["window"] and said[1]["deadline"], said[1]
    assert said[2]["text"] == "¡Pulsa Pika!" and said[2]["window"] and said[2]["deadline"], said[2]
    # a spectator: one name, the turn's, though two seats may act (the window's too)
    assert len(spectator["to_act"]) > 1
    assert said[3]["text"] == f"Estás mirando · Turno de {NAMES[turn]}", said[3]
    for prompt in said:
        assert sum(name in prompt["text"] for name in NAMES) <= 1, prompt


def test_te_toca_only_for_a_turn_decision_and_guandan_counts_down_between_deals(page: Any) -> None:
    engine = get_engine("one_card")
    state = engine.new_game(3, seed=4, options={"turn_seconds": 30})
    first = engine.to_act(state)[0]
    mine = seat_envelope("one_card", state, first)
    other = seat_envelope("one_card", state, (first + 1) % 3)
    between = seat_envelope("guandan", get_engine("guandan").new_game(4, seed=1, options={}), 0)
    # the end of a deal as the engine shows it: no turn, the table's timer to the next deal, and
    # the optional "ready" (GD-61) that is no turn of the viewer's
    now = between["server_time"]
    between["view"]["phase"] = "between"
    between["to_act"] = [0, 1, 2, 3]
    between["legal"] = [{"type": "ready"}]
    between["timers"] = [
        {"id": "next_deal:1", "name": "next_deal", "seat": None, "seconds": 8, "deadline": now + 8000}
    ]
    said = prompts(page, [("one_card", mine), ("one_card", other), ("guandan", between)])
    assert said[0]["text"] == "Te toca" and said[0]["turn"] and said[0]["deadline"], said[0]
    assert said[1] == {
        "text": f"Turno de {NAMES[first]}",
        "deadline": other["timers"][0]["deadline"],
        "mine": False,
        "seat": first,
    }
    assert (
        said[2]["text"] == "Siguiente mano" and said[2]["deadline"] == now + 8000 and not said[2].get("turn")
    ), said[2]


# -- the real table page, fed by a stand-in socket ----------------------------------------------------


def socket_page(browser: Any, server: str) -> tuple[Any, dict[str, Any]]:
    """A One Card room of the test site whose socket is answered by the test (``sent["ws"]``)."""
    context = browser.new_context(
        locale="es-ES", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    held: dict[str, Any] = {}

    def answer(ws: Any) -> None:
        held["ws"] = ws
        ws.on_message(
            lambda message: (
                ws.send(json.dumps({"type": "pong", "version": 0})) if '"sync"' in str(message) else None
            )
        )

    page.route_web_socket(re.compile(r"/ws/tables/"), answer)
    page.goto(server + "/")
    page.get_by_label("Tu nombre en la mesa").fill("Ana_socket")
    game = page.locator('.game-card[data-game="one_card"]')
    game.locator('select[name="players"]').select_option("3")
    game.get_by_role("button", name="Jugar contra bots").click()
    page.wait_for_url("**/mesa/*/")
    for _ in range(100):
        if "ws" in held:
            break
        page.wait_for_timeout(50)
    return page, held


def send(page: Any, held: dict[str, Any], env: dict[str, Any]) -> None:
    held["ws"].send(json.dumps({"type": "snapshot", "version": env["version"], "table": env}))
    page.locator(f'#table-app[data-version="{env["version"]}"]').wait_for()


def test_the_page_prompts_a_catch_with_its_countdown_and_outlines_one_seat(browser, server: str) -> None:
    catch = position(
        "one_card",
        3,
        lambda e, s: (
            only_reactions({"catch"})(e, s)
            and not any(a["type"] == "call_one_card" for a in e.legal_actions(s, 0))
        ),
    )
    env = seat_envelope("one_card", catch, 0)
    target = next(a["target"] for a in env["legal"] if a["type"] == "catch")
    page, held = socket_page(browser, server)
    send(page, held, env)
    line = page.locator('[data-region="turn"]')
    assert re.fullmatch(rf"Puedes tocar a {NAMES[target]}: \d+ s", line.inner_text()), line.inner_text()
    assert "Te toca" not in line.inner_text()
    outlined = page.locator("#game-area .opponent.to-act")
    assert outlined.count() <= 1
    if env["view"]["turn"] != target:
        assert not page.locator(f'#game-area .opponent.to-act[data-seat="{target}"]').count()
    page.context.close()


def test_a_catch_names_who_caught_whom_and_marks_the_cards_that_entered(browser, server: str) -> None:
    """OC-38, issue 25 §3: "Bot difícil te ha tocado: robas 2", and the two cards are marked."""
    engine = get_engine("one_card")
    state = engine.new_game(3, seed=5, options={"turn_seconds": None})
    env = seat_envelope("one_card", state, 0, version=9)
    hand = env["view"]["hand"]
    got = hand[-2:]
    events = [
        {"type": "catch", "seat": 1, "target": 0},
        {"type": "penalty", "seat": 0, "cards": got, "count": 2},
    ]
    entry = movelog.describe("one_card", 1, {"type": "catch", "target": 0}, events, 0)
    entry["seq"] = 9
    entry["entered"] = got
    env["last"] = entry
    page, held = socket_page(browser, server)
    send(page, held, {**env, "version": 8, "last": None})
    send(page, held, env)
    banner = page.get_by_test_id("table-banner")
    assert banner.is_visible() and banner.inner_text() == "Bot difícil te ha tocado: robas 2"
    marked = page.locator("#hand [data-card].entered")
    assert sorted(marked.evaluate_all("nodes => nodes.map((n) => n.dataset.card)")) == sorted(got)
    assert page.get_by_test_id("last-move").inner_text().startswith("Última jugada: Bot difícil te ha tocado")
    marked.first.wait_for(state="detached", timeout=6_000)  # for a moment only
    assert not page.locator("#hand .entered").count()
    page.context.close()
