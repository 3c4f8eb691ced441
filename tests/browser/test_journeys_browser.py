"""Whole journeys across pages in a real Chromium, by clicking like people (issue 12, "Proof").

- Invite: Ana signs up, opens a friends One Card room and invites Bea by username from the
  room page (PF-24); Bea, on the home page in her own browser, sees the invitation arrive
  live, accepts and lands at the table; both play to the end by clicking their legal cards
  and buttons; the winner's wallet shows the friends reward (PF-57); Carla, signed in,
  opens the table link late and watches without any hand (PF-26).
- Reconnect (PF-63): in a friends game a player's browser goes offline on their turn for
  longer than the 30 s turn clock; the timer plays for them; back online the page shows the
  reconnection banner, then drops it, and they carry on by clicking.
- Online (PF-51, PF-60, PF-16): two signed-in players queue for a free 3-player Pika table;
  30 s after the first sat a simulated player fills the last seat (online.FILL_SECONDS, no
  setting shortens it); both are taken to the table, where the simulated seat (and only it)
  shows its "jugador simulado" marker, read out to assistive technology too (PF-16); they play
  to the end by clicking; the league page lists both, each with their place's points halved.

The daphne server, the browser and the page helpers are test_tables_browser.py's; signing
up is test_matchmaking_browser.py's; One Card's click priorities are
test_onecard_pika_browser.py's.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_matchmaking_browser import sign_up
from tests.browser.test_onecard_pika_browser import ONE_CARD_PRIORITIES, PIKA_PRIORITIES, RESULT
from tests.browser.test_tables_browser import (
    ENABLED,
    WHOLE_GAME_SECONDS,
    click,
    envelope,
    new_page,
    rendered_hand,
)
from tests.browser.test_tables_browser import browser as browser  # the shared fixtures
from tests.browser.test_tables_browser import server as server

pytestmark = pytest.mark.browser
TURN_SECONDS = 30  # PF-4, PF-30: cardgames/tables/core.TURN_SECONDS, no test setting shortens it


def signed_up(browser: Any, server: str, username: str) -> Any:
    page = new_page(browser)
    sign_up(page, server, username)
    return page


def friends_room_with_invited(
    browser: Any, server: str, host_name: str, guest_name: str
) -> tuple[Any, Any, str]:
    """The host opens a 2-player friends One Card room and invites the guest by username; the
    guest, on the home page, sees the invitation live and accepts it (PF-24). Both at the table."""
    host = signed_up(browser, server, host_name)
    guest = signed_up(browser, server, guest_name)
    guest.goto(server + "/")
    expect(guest.locator("#invitations-empty")).to_be_visible()  # none yet

    host.goto(server + "/")
    card = host.locator('.game-card[data-game="one_card"]')
    card.locator('select[name="players"]').select_option("2")
    card.get_by_role("button", name="Crear sala con amigos").click()
    host.wait_for_url("**/mesa/*/")
    code = host.get_by_test_id("room-code").inner_text()
    host.get_by_label("Invitar por nombre de usuario").fill(guest_name)
    host.get_by_role("button", name="Invitar", exact=True).click()

    invitation = guest.locator("#invitation-list li.invitation", has_text=code)  # live: no reload
    expect(invitation).to_contain_text(host_name, timeout=15_000)
    invitation.get_by_role("button", name="Aceptar").click()
    guest.wait_for_url(f"**/mesa/{code}/")
    guest.locator("#table-app[data-status=waiting]").wait_for()
    host.locator("#wait-seats li.filled", has_text=guest_name).wait_for()
    host.get_by_role("button", name="Empezar partida").click()
    for page in (host, guest):
        page.locator("#table-app[data-status=playing]").wait_for()
    return host, guest, code


def click_move(page: Any, priorities: tuple[str, ...] = ONE_CARD_PRIORITIES) -> bool:
    """The move a person makes: the first present priority, else any legal control."""
    return click(page, next((s for s in priorities if page.locator(s).count()), ENABLED))


def play_both_until(
    pages: tuple[Any, ...],
    *,
    limit: float,
    clicks_wanted: int = 10**6,
    priorities: tuple[str, ...] = ONE_CARD_PRIORITIES,
) -> int:
    """Whoever has a legal control clicks it, until every page shows the result screen (or
    ``clicks_wanted`` clicks were made)."""
    clicks = 0
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if clicks >= clicks_wanted or all(p.locator(RESULT).count() for p in pages):
            return clicks
        movers = [p for p in pages if p.locator(ENABLED).count()]
        if not movers:
            pages[0].wait_for_timeout(100)  # a snapshot on its way: polled, no evaluated strings (CSP)
            continue
        clicks += click_move(movers[0], priorities)
    raise AssertionError(f"not over after {limit} s and {clicks} clicks: {envelope(pages[0])['view']}")


def test_pf24_pf26_pf57_invited_friend_plays_to_the_end_winner_paid_latecomer_watches(
    browser, server
) -> None:
    ana, bea, code = friends_room_with_invited(browser, server, "ana_invita", "bea_invitada")
    clicks = play_both_until((ana, bea), limit=60, clicks_wanted=4)

    # Carla, signed in, opens the link while they play: she watches, with no hand (PF-26)
    carla = signed_up(browser, server, "carla_mira")
    carla.goto(f"{server}/mesa/{code}/")
    join = carla.get_by_role("button", name="Unirse a sala")
    if join.count():
        join.click()
    carla.locator("#table-app[data-role=spectator][data-status=playing]").wait_for()
    expect(carla.get_by_test_id("spectator-notice")).to_be_visible()
    expect(carla.locator("#turn-line")).to_contain_text("Estás mirando")
    assert carla.locator("#hand [data-card]").count() == 0
    assert envelope(carla)["view"]["hand"] is None

    clicks += play_both_until((ana, bea), limit=WHOLE_GAME_SECONDS)

    assert clicks > 0
    for page in (ana, bea):
        expect(page.get_by_test_id("result")).to_contain_text("Fin de la partida")
    expect(carla.locator(RESULT)).to_be_visible()  # the watcher saw it end too
    assert carla.locator("#hand [data-card]").count() == 0
    # the winner is whoever has no card left; only their wallet has the friends reward (PF-57: B // 2)
    hands = {p: envelope(p)["view"]["hand"] for p in (ana, bea)}
    winners = [p for p, hand in hands.items() if not hand]
    assert len(winners) == 1, hands
    table_id = envelope(ana)["id"]
    for page in (ana, bea):
        page.goto(server + "/monedero/")
        reward = page.locator(".history-table tbody tr", has_text=f"Premio de partida (table:{table_id})")
        expect(reward).to_have_count(1 if page is winners[0] else 0)
        if page is winners[0]:
            expect(reward.locator("td.amount.positive")).to_have_count(1)
    for page in (ana, bea, carla):
        page.context.close()


def seat_to_play(page: Any) -> bool:
    """Her turn, by the server's view, and her page offers a move. With no playable card the
    only control is the draw button: waiting for a card button let her clock draw for her."""
    if not page.locator(ENABLED).count():
        return False
    view = envelope(page)["view"]
    return view["turn"] == view["seat"]


def test_pf63_offline_past_the_turn_clock_the_timer_plays_then_the_page_reconnects_and_plays_on(
    browser, server
) -> None:
    """Against bots there is no turn clock, so this is a friends game: the real 30 s turn."""
    ana, bea, _code = friends_room_with_invited(browser, server, "ana_reconecta", "bea_reconecta")
    deadline = time.monotonic() + 60
    while not seat_to_play(bea):  # Ana plays until it is Bea's turn
        assert time.monotonic() < deadline, envelope(ana)["view"]
        if ana.locator(ENABLED).count():
            click_move(ana)
        else:
            ana.wait_for_timeout(100)
    assert not ana.locator(RESULT).count()
    version = int(bea.locator("#table-app").get_attribute("data-version"))
    hand = rendered_hand(bea)

    bea.context.set_offline(True)
    expect(bea.locator("#banner")).to_contain_text("Reconectando")  # the page knows at once
    # the turn clock runs out on the server while Bea is away: it plays for her (OC-46, PF-63)
    expect(ana.locator("#last-move")).to_contain_text(
        re.compile(r"se (le )?acabó el tiempo"), timeout=(TURN_SECONDS + 20) * 1000
    )

    bea.context.set_offline(False)
    expect(bea.locator("#banner")).to_be_hidden(timeout=30_000)  # reconnected: the banner goes
    expect(bea.locator("#table-app")).not_to_have_attribute("data-version", str(version), timeout=15_000)
    assert int(bea.locator("#table-app").get_attribute("data-version")) > version
    assert envelope(bea)["version"] == int(bea.locator("#table-app").get_attribute("data-version"))
    assert rendered_hand(bea) != hand  # the move made for her while away is on her page

    # and she plays on by clicking, as before
    clicks = play_both_until((ana, bea), limit=WHOLE_GAME_SECONDS)
    assert clicks > 0
    for page in (ana, bea):
        expect(page.get_by_test_id("result")).to_contain_text("Fin de la partida")
    for page in (ana, bea):
        page.context.close()


#: an element whose accessible tree holds the words "jugador simulado" (a partial match)
READ_OUT = "- listitem:\n  - text: /jugador simulado/"


def assert_simulated_marker(page: Any, simulated: int) -> None:
    """PF-16, PF-51: the simulated seat shows its visible "jugador simulado" marker, exposed to
    assistive technology, beside the opponent at the table's centre (each seat is drawn once,
    issue 25 §1: the game's own seat display); no person's seat has it."""
    page.locator("#table-app[data-status=playing]").wait_for()
    expect(page.locator("#seats")).to_be_hidden()
    opponent = page.locator(f'#game-area .opponent[data-seat="{simulated}"]')
    expect(opponent.locator(".badge.kind-simulated")).to_have_text("jugador simulado")
    expect(opponent).to_match_aria_snapshot(READ_OUT)
    people = page.locator(f'#game-area .opponent:not([data-seat="{simulated}"])')
    expect(people).to_have_count(1)  # the other person, seen from this page
    expect(people.locator(".kind-simulated")).to_have_count(0)


def test_pf51_pf60_pf16_two_queue_for_free_pika_simulated_fill_league_points_halved(browser, server) -> None:
    """PF-51: the fill delay is online.FILL_SECONDS, 30 s with no setting to shorten it: waited."""
    names = ("ana_liga", "bea_liga")
    ana, bea = (signed_up(browser, server, name) for name in names)
    for page in (ana, bea):
        page.goto(server + "/")
        page.select_option("[data-testid=queue-game]", "pika")
        page.select_option("[data-testid=queue-players]", "3")
        page.select_option("[data-testid=queue-stake]", "0")
        page.click("[data-testid=queue-join]")
    for page in (ana, bea):  # 30 s after the first sat, a simulated player fills the third seat
        page.wait_for_url(re.compile(r"/mesa/\d{6}/$"), timeout=(30 + 30) * 1000)
    assert ana.url == bea.url
    code = ana.url.rstrip("/").rsplit("/", 1)[1]
    table = ana.request.get(server + f"/api/rooms/{code}").json()
    assert table["mode"] == "online"
    assert sorted(s["kind"] for s in table["seats"]) == ["human", "human", "simulated"]
    simulated = next(s["seat"] for s in table["seats"] if s["kind"] == "simulated")
    for page in (ana, bea):  # the simulated player is marked as such, the people are not (PF-16)
        assert_simulated_marker(page, simulated)

    clicks = play_both_until((ana, bea), limit=WHOLE_GAME_SECONDS, priorities=PIKA_PRIORITIES)

    assert clicks > 0
    # PF-60: place p of 3 earns 10 x (3 - p + 1); PF-16: a simulated player sat, so half
    ana.goto(server + "/liga/")
    standings = ana.get_by_test_id("league-table")
    for name in names:
        expect(standings.locator("tr", has_text=name)).to_have_count(1)
    for page in (ana, bea):
        page.goto(server + "/liga/")
        row = page.locator("tr", has_text="a mitad: había jugadores simulados")
        expect(row).to_have_count(1)
        place = int(re.search(r"(\d+)\.º de 3", row.inner_text()).group(1))
        expect(row.locator("td.num")).to_have_text(f"+{10 * (3 - place + 1) // 2}")
        mine = page.get_by_test_id("league-my-row")
        expect(mine.locator("td.num").first).to_have_text(str(10 * (3 - place + 1) // 2))
    for page in (ana, bea):
        page.context.close()
