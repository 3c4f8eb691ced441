"""The plain table pages in a real Chromium, against daphne as `bin/run` serves it (issue 10).

For each of the five games a guest opens the home page, starts a game against easy bots
by clicking, and plays it on the plain table (``?ui=plain``: the generic drawing every game
falls back to when its module is missing or breaks; the games' own tables have their own
browser tests) by clicking the first enabled legal-action button each time
(timers are off against bots) until the result screen shows the revealed seed; Guandan
is played until its first deal ends (a whole match is several deals). Then two browser
contexts share a friends room: each sees only its own hand, both see every move, and a
closed tab comes back to the same seat; chat shows text only; a latecomer watches.

The bots "think" 1 s before each move on a real table (cardgames/tables/flow.py); this
server sets TABLE_BOT_THINK_SECONDS to ``BOT_THINK`` so the five games fit in a few
minutes. Everything else (socket, runner, services) is the embedded default.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardgames.tables import legal_wire
from tests.browser.test_real_server import free_port, stop_server, wait_until_serving

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp"))
BOT_THINK = os.environ.get("TAPETE_TEST_BOT_THINK", "0.15")
#: each running test site's environment by its address, for a test that sets a table up through
#: the services on that site's database (``site_shell``)
SITE_ENV: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("tables-site")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "TABLE_RUNNER"}
    }
    env.update(
        SQLITE_PATH=str(tmp / "site.sqlite3"),
        TAPETE_RUN_DIR=str(tmp / "run"),
        TABLE_BOT_THINK_SECONDS=BOT_THINK,
        TABLE_RUNNER_INTERVAL="0.1",
        SIGNUP_MAX_PER_ADDRESS="50",  # every browser test signs up from 127.0.0.1
        # and starts its guests, rooms and sockets from there too (issue 26's bounds per address)
        GUESTS_MAX_PER_ADDRESS="200",
        TABLES_MAX_LIVE_ROOMS_PER_ADDRESS="200",
        SOCKETS_MAX_PER_ADDRESS="1000",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    port = free_port()
    log = open(tmp / "daphne.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, proc, (tmp / "daphne.log").read_text)
        SITE_ENV[url] = env
        yield url
    finally:
        SITE_ENV.pop(url, None)
        stop_server(proc)
        log.close()


@pytest.fixture
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        yield browser
        browser.close()


def site_shell(server: str, script: str) -> str:
    """Run Python (``manage.py shell -c``) on the test site's own database; its printed output."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "--no-imports", "-c", script],
        env=SITE_ENV[server],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def new_page(browser: Any) -> Any:
    context = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def envelope(page: Any) -> dict[str, Any]:
    """GET /api/tables/<id> with this page's session and the room's code (a spectator's key): the
    envelope the server sends this viewer, its ``legal`` holding every legal action as the page's
    (Guandan's plays unpacked, legal_wire)."""
    config = json.loads(page.locator("#table-config").text_content())
    response = page.request.get(
        page.url.split("/mesa/")[0] + f"/api/tables/{config['id']}?code={config['code']}"
    )
    assert response.ok
    env: dict[str, Any] = response.json()
    env["legal"] = legal_wire.actions(env)
    return env


def rendered_hand(page: Any) -> list[str]:
    return page.locator("#hand [data-card]").evaluate_all("nodes => nodes.map(n => n.dataset.card)")


def start_from_home(
    page: Any, server: str, game: str, name: str, *, plain: bool = False, **choices: str
) -> None:
    page.goto(server + "/")
    page.get_by_label("Tu nombre en la mesa").fill(name)
    card = page.locator(f'.game-card[data-game="{game}"]')
    for select, value in choices.items():
        card.locator(f'select[name="{select}"]').select_option(value)
    card.locator('select[name="bot_level"]').select_option("easy")
    card.get_by_role("button", name="Jugar contra bots").click()
    page.wait_for_url("**/mesa/*/")
    if plain:
        page.goto(page.url + "?ui=plain")
    page.locator("#table-app[data-status=playing], #table-app[data-status=finished]").wait_for()


ENABLED = "#game-area .legal:not([disabled])"


def click(page: Any, selector: str) -> bool:
    """Click the first element matching; False if a new snapshot took it away before the click."""
    try:
        page.locator(selector).first.click(timeout=1_500)
        return True
    except Exception:  # re-rendered under the pointer: the next snapshot brings new controls
        return False


def click_first_legal(page: Any) -> bool:
    return click(page, ENABLED)


def play_until(
    page: Any, done: str, *, limit: float, priorities: tuple[str, ...] = (), on_turn: Any = None
) -> int:
    """Click legal controls until the selector ``done`` is on the page; returns the clicks.

    Each time the first present selector of ``priorities`` is clicked, else the first enabled
    legal control; ``on_turn(page)`` looks at the table before each click."""
    clicks = 0
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        page.wait_for_selector(f"{done}, {ENABLED}", timeout=30_000)
        if page.locator(done).count():
            return clicks
        if on_turn:
            on_turn(page)
        clicks += click(page, next((s for s in priorities if page.locator(s).count()), ENABLED))
    raise AssertionError(f"not done after {limit} s and {clicks} clicks: {envelope(page)['view']}")


#: seconds a whole One Card or Pika game may take when clicked through: the wall limit only bounds
#: CI (a page that hangs fails its 30 s wait first), and these games' length has a long tail — the
#: clicker against an easy bot, simulated on the engines over 300 deals: One Card p50 65 moves,
#: p90 180, p99 407; Pika p50 54, p90 129, p99 213 — at about 0.3 s a move under CI's load
WHOLE_GAME_SECONDS = 300

GAMES = [
    ("one_card", {"players": "2"}, WHOLE_GAME_SECONDS),
    ("pika", {"players": "2"}, WHOLE_GAME_SECONDS),
    ("puteo", {"players": "2", "option-lives": "3"}, 90),
    ("skyjo", {"players": "2"}, 150),
]


@pytest.mark.parametrize(("game", "choices", "limit"), GAMES, ids=[g[0] for g in GAMES])
def test_a_guest_plays_a_whole_game_against_bots(browser, server: str, game, choices, limit) -> None:
    page = new_page(browser)
    start_from_home(page, server, game, f"Ana_{game[:4]}", plain=True, **choices)
    assert page.locator("#board").is_visible()
    page.locator(ENABLED).first.wait_for()
    assert page.get_by_test_id("actions").is_visible()  # the generic buttons, not the game's module
    page.screenshot(path=str(SCREENSHOTS / f"table-{game}.png"), full_page=True)

    clicks = play_until(page, "#result:not([hidden])", limit=limit)

    assert clicks > 0
    result = page.get_by_test_id("result")
    assert "Fin de la partida" in result.inner_text()
    places = page.locator("#result-places li")
    assert places.count() == int(choices["players"])
    # each line says its place (tied players share one), so the list draws no numbers of its own
    assert all(re.match(r"\d+º ", line) for line in places.all_inner_texts())
    assert page.locator("#result-places").evaluate("ol => getComputedStyle(ol).listStyleType") == "none"
    seed = page.locator("#result-seed").text_content()  # folded away (issue 25 item 4)
    assert len(seed) == 32 and page.locator("#result-hash").text_content()
    verify = page.request.get(page.locator("#verify-link").evaluate("a => a.href")).json()
    assert verify["ok"] and verify["seed"] == seed
    page.screenshot(path=str(SCREENSHOTS / f"result-{game}.png"), full_page=True)
    page.context.close()


def test_a_guest_plays_a_guandan_deal_against_bots(browser, server: str) -> None:
    page = new_page(browser)
    start_from_home(page, server, "guandan", "Ana_guan", plain=True)
    page.locator(ENABLED).first.wait_for()
    page.screenshot(path=str(SCREENSHOTS / "table-guandan.png"), full_page=True)

    play_until(page, "#table-app[data-phase=between], #table-app[data-phase=over]", limit=150)

    view = envelope(page)["view"]
    assert len(view["finished"]) >= 3 or view["phase"] == "over"
    assert view["revealed"]  # GD-61: the end of a deal shows every hand
    page.screenshot(path=str(SCREENSHOTS / "between-guandan.png"), full_page=True)
    page.context.close()


def test_two_friends_share_a_room_each_with_only_their_own_hand(browser, server: str) -> None:
    host, friend = new_page(browser), new_page(browser)
    host.goto(server + "/")
    host.get_by_label("Tu nombre en la mesa").fill("Lola")
    card = host.locator('.game-card[data-game="one_card"]')
    card.locator('select[name="players"]').select_option("2")
    card.get_by_role("button", name="Crear sala con amigos").click()
    host.wait_for_url("**/mesa/*/")
    code = host.get_by_test_id("room-code").inner_text()
    host.locator("#wait-seats li.empty").wait_for()
    host.screenshot(path=str(SCREENSHOTS / "waiting-room.png"), full_page=True)

    # the friend types the code on the home page, then a name, and joins (PF-23, PF-24)
    friend.goto(server + "/")
    friend.get_by_label("Código de sala").fill(code)
    friend.get_by_role("button", name="Unirse con código").click()
    friend.get_by_label("Tu nombre en la mesa").fill("Pepe")
    friend.get_by_role("button", name="Unirse a sala").click()
    friend.locator("#table-app[data-status=waiting]").wait_for()
    host.locator("#wait-seats li.filled", has_text="Pepe").wait_for()  # the seat fills live
    host.get_by_role("button", name="Empezar partida").click()
    for page in (host, friend):
        page.locator("#table-app[data-status=playing]").wait_for()

    def wait_past_version(page: Any, version: int) -> None:
        for _ in range(200):
            if int(page.locator("#table-app").get_attribute("data-version") or -1) > version:
                return
            time.sleep(0.05)
        raise AssertionError(f"the page stayed at version {version}")

    def same_version() -> int:
        for _ in range(100):
            versions = {p.locator("#table-app").get_attribute("data-version") for p in (host, friend)}
            if len(versions) == 1:
                return int(versions.pop())
            time.sleep(0.05)
        raise AssertionError(f"the pages disagree: {versions}")

    for _move in range(8):
        version = same_version()
        for page in (host, friend):
            mine = envelope(page)
            assert mine["version"] == version
            assert rendered_hand(page) == mine["view"]["hand"]  # each page shows its own hand only
        other = envelope(friend)["view"]["hand"]
        assert rendered_hand(host) != other
        movers = [p for p in (host, friend) if p.locator(ENABLED).count()]
        if not movers or envelope(host)["result"]:
            break
        assert click_first_legal(movers[0])
        if movers[0].locator("#game-area .picker").count():
            assert click_first_legal(movers[0])  # the choice that click opened: a 7's suit (PF-8)
        for page in (host, friend):  # polled from here: the pages' CSP allows no evaluated strings
            wait_past_version(page, version)
    # the same last move on both pages, each told it as they may see it (issue 25 §3: the
    # mover's "Juegas…" is the other's "Lola juega…"; a drawn card is named to its drawer only)
    seen = [p.locator("#last-move").inner_text() for p in (host, friend)]
    assert all(line.startswith("Última jugada: ") for line in seen), seen
    assert envelope(host)["last"]["seq"] == envelope(friend)["last"]["seq"]

    # chat is text, never markup (PF-34)
    host.get_by_placeholder("Escribe un mensaje").fill("<b>¡hola!</b>")
    host.get_by_role("button", name="Enviar").click()
    line = friend.locator("#chat-log li", has_text="¡hola!")
    line.wait_for()
    assert "<b>¡hola!</b>" in line.inner_text() and not friend.locator("#chat-log b").count()

    # someone arriving after the start watches (PF-26) and sees no hand
    watcher = new_page(browser)
    watcher.goto(f"{server}/mesa/{code}/")
    watcher.get_by_label("Tu nombre en la mesa").fill("Mira")
    watcher.get_by_role("button", name="Unirse a sala").click()
    watcher.locator("#table-app[data-role=spectator][data-status=playing]").wait_for()
    assert "Estás mirando" in watcher.locator("#turn-line").inner_text()
    assert watcher.get_by_test_id("spectator-notice").is_visible()
    assert not watcher.locator("#hand").count() and envelope(watcher)["view"]["hand"] is None
    watcher.context.close()

    # the friend closes the tab and opens the page again: same table, same seat
    seat = friend.locator("#table-app").get_attribute("data-seat")
    context = friend.context
    friend.close()
    again = context.new_page()
    again.goto(f"{server}/mesa/{code}/")
    again.locator("#table-app[data-status=playing]").wait_for()
    assert again.locator("#table-app").get_attribute("data-seat") == seat
    assert rendered_hand(again) == envelope(again)["view"]["hand"]
    host.screenshot(path=str(SCREENSHOTS / "friends-host.png"), full_page=True)
    host.context.close()
    context.close()
