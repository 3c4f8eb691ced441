"""Notices on every page and one tab to a started online table (issue 25 item 5), in Chromium over
daphne on the embedded defaults. Each test opens a phone tab (390 × 844) and a desktop tab
(1440 × 900) of the same player, so both sizes are seen in one set-up.

- An invitation reaches the invitee as a notice on pages other than the home page, inside the
  viewport, with Accept / Decline; it leaves every tab when answered, when its room starts or
  closes, when it expires, and a reload does not bring it back.
- When an online table starts, only the tab that queued goes to it; another tab shows "Tu mesa
  online está lista · Ir"; a tab at another game shows that notice instead of leaving its game;
  with the queuing tab closed, exactly one open tab goes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_matchmaking_browser import lobby_ready, sign_up
from tests.browser.test_onecard_pika_browser import axe_violations
from tests.browser.test_tables_browser import browser, server, site_shell  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}

ROOM_AND_INVITE = """
async ([username, players]) => {
  const { api } = await import("/static/frontend/api.js");
  const room = await api("POST", "/api/tables", { game: "pika", mode: "friends", players });
  await api("POST", `/api/tables/${room.id}/invitations`, { username });
  return room;
}
"""
CALL = """
async ([method, url, body]) => {
  const { api } = await import("/static/frontend/api.js");
  return api(method, url, body);
}
"""


def player(browser: Any, server: str, name: str) -> tuple[Any, Any]:  # noqa: F811
    """A signed-up player with a phone tab and a desktop tab (one browser context: one session)."""
    context = browser.new_context(locale="es-ES", viewport=PHONE, has_touch=True)
    context.set_default_timeout(15_000)
    phone = context.new_page()
    sign_up(phone, server, name)
    desktop = context.new_page()
    desktop.set_viewport_size(DESKTOP)
    return phone, desktop


def in_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    if box is None or box["x"] < 0 or box["y"] < 0:
        return False
    return box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]


def two_people(browser: Any, server: str, first: str, second: str, urls: tuple[str, str]) -> tuple[Any, ...]:  # noqa: F811
    """``first``'s phone and desktop tabs, open at ``urls`` with their lobby sockets up, and
    ``second``'s phone tab."""
    phone, desktop = player(browser, server, first)
    other, _ = player(browser, server, second)
    lobby_ready(phone, server + urls[0])
    lobby_ready(desktop, server + urls[1])
    return phone, desktop, other


def test_an_invitation_reaches_every_page_and_leaves_when_answered_started_closed_or_expired(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    phone, desktop, host = two_people(browser, server, "Bea_aviso", "Nico_aviso", ("/liga/", "/reglas/pika/"))
    toasts = {page: page.get_by_test_id("invitation-toast") for page in (phone, desktop)}

    # a notice on both pages (neither is the home page), in view, with both answers
    host.goto(server + "/")
    first = host.evaluate(ROOM_AND_INVITE, ["Bea_aviso", 2])
    for page, toast in toasts.items():
        toast.filter(has_text=f"Nico_aviso te invita a Pika (sala {first['code']})").wait_for()
        assert in_viewport(page, toast.get_by_role("button", name="Aceptar"))
        assert in_viewport(page, toast.get_by_role("button", name="Rechazar"))
    for theme in ("light", "dark"):  # the notice's names and contrast in both themes
        desktop.emulate_media(color_scheme=theme)
        desktop.locator(f"html[data-theme={theme}]").wait_for(state="attached")
        assert axe_violations(desktop) == []
    # declined on the phone: it leaves the desktop tab too
    toasts[phone].get_by_role("button", name="Rechazar").click()
    toasts[desktop].wait_for(state="detached")
    assert toasts[phone].count() == 0

    # a room that starts or closes takes its invitation back, live and on reload
    started = host.evaluate(ROOM_AND_INVITE, ["Bea_aviso", 2])
    closed = host.evaluate(ROOM_AND_INVITE, ["Bea_aviso", 2])
    toasts[phone].filter(has_text=closed["code"]).wait_for()
    assert toasts[phone].count() == 2
    host.evaluate(CALL, ["POST", f"/api/tables/{started['id']}/bots", {"level": "easy"}])
    host.evaluate(CALL, ["POST", f"/api/tables/{started['id']}/start", {}])
    toasts[phone].filter(has_text=started["code"]).wait_for(state="detached")
    host.evaluate(CALL, ["POST", f"/api/tables/{closed['id']}/leave", {}])  # its only person leaves
    toasts[phone].filter(has_text=closed["code"]).wait_for(state="detached")
    lobby_ready(phone, server + "/liga/")
    assert toasts[phone].count() == 0

    # one that expires goes at its time, with no message (PF-14's 10 minutes, shortened here)
    soon = host.evaluate(ROOM_AND_INVITE, ["Bea_aviso", 2])
    site_shell(
        server,
        "from datetime import timedelta; from django.utils import timezone; "
        "from cardgames.tables.models import Invitation; "
        f"Invitation.objects.filter(table_id={soon['id']})"
        ".update(expires_at=timezone.now() + timedelta(seconds=8))",
    )
    lobby_ready(phone, server + "/monedero/")
    lobby_ready(desktop, server + "/")
    listed = desktop.get_by_test_id("invitation-list").locator(f'li[data-code="{soon["code"]}"]')
    listed.wait_for()  # the home page lists it too, until it expires
    toasts[phone].filter(has_text=soon["code"]).wait_for()
    toasts[phone].filter(has_text=soon["code"]).wait_for(state="detached", timeout=12_000)
    listed.wait_for(state="detached")
    lobby_ready(desktop, server + "/reglas/pika/")

    # accepted from a notice on the desktop's rules page: seated at the room
    last = host.evaluate(ROOM_AND_INVITE, ["Bea_aviso", 2])
    toasts[desktop].filter(has_text=last["code"]).get_by_role("button", name="Aceptar").click()
    desktop.wait_for_url(f"**/mesa/{last['code']}/")
    room = desktop.request.get(server + f"/api/rooms/{last['code']}").json()
    assert sorted(s["name"] for s in room["seats"] if s) == ["Bea_aviso", "Nico_aviso"]


def queue(page: Any) -> None:
    page.evaluate(CALL, ["POST", "/api/queue", {"game": "one_card", "players": 2, "stake": 0}])


def ready_notice(page: Any) -> Any:
    return page.get_by_test_id("table-ready-toast").filter(has_text="Tu mesa online está lista · Ir")


TABLE = re.compile(r"/mesa/\d{6}/$")


FINISHED_TABLE = """
from tests.tables.helpers import Clock, guest_player, play_out, started_table
host, clock = guest_player("Pepa"), Clock()
print(play_out(started_table("one_card", host, clock, players=2), {0: host}, clock).code)
"""


def test_only_the_tab_that_queued_goes_to_the_started_table(browser: Any, server: str) -> None:  # noqa: F811
    # Ana's phone tab shows a game that is over (its result on screen): it is free to go
    finished = f"/mesa/{site_shell(server, FINISHED_TABLE).splitlines()[-1]}/"
    phone, desktop, rival = two_people(browser, server, "Ana_pestana", "Eva_pestana", (finished, "/liga/"))
    phone.get_by_test_id("result").wait_for()

    queue(phone)  # Ana queues from her phone tab, as "find another" does after a game
    lobby_ready(rival, server + "/")
    queue(rival)  # the table is full and starts

    phone.wait_for_url(TABLE)
    ready_notice(desktop).wait_for()  # the other tab stays on the league page and says so
    assert desktop.url.endswith("/liga/")
    assert in_viewport(desktop, ready_notice(desktop).get_by_role("link", name="Ir"))
    ready_notice(desktop).get_by_role("link", name="Ir").click()
    desktop.wait_for_url(phone.url)


def test_a_tab_in_another_game_stays_and_with_the_queuing_tab_closed_one_tab_goes(
    browser: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    phone, desktop, rival = two_people(browser, server, "Luz_pestana", "Rut_pestana", ("/", "/liga/"))

    # Luz plays against bots on her phone and queues from that same tab: it stays in its game
    bots_room = phone.evaluate(CALL, ["POST", "/api/tables", {"game": "pika", "mode": "bots", "players": 2}])
    phone.evaluate(CALL, ["POST", f"/api/tables/{bots_room['id']}/start", {}])
    lobby_ready(phone, server + f"/mesa/{bots_room['code']}/")
    queue(phone)
    lobby_ready(rival, server + "/")
    queue(rival)
    ready_notice(phone).wait_for()
    assert phone.url.endswith(f"/mesa/{bots_room['code']}/")
    assert in_viewport(phone, ready_notice(phone).get_by_role("link", name="Ir"))
    ready_notice(desktop).wait_for()  # the queuing tab was open, so no other tab moved either
    assert desktop.url.endswith("/liga/")

    # Sol queues from her phone tab and closes it: of her two open tabs, exactly one goes
    gone, left = player(browser, server, "Sol_pestana")
    other, _ = player(browser, server, "Teo_pestana")
    lobby_ready(gone, server + "/")
    queue(gone)
    gone.close()
    second = left.context.new_page()  # neither open tab queued
    lobby_ready(second, server + "/reglas/one_card/")
    lobby_ready(left, server + "/liga/")
    lobby_ready(other, server + "/")
    queue(other)
    other.wait_for_url(TABLE)
    moved = []
    for page in (left, second):
        try:
            page.wait_for_url(TABLE, timeout=5_000)
            moved.append(page)
        except Exception:  # this tab stayed: it says where the table is
            ready_notice(page).wait_for()
    assert len(moved) == 1 and moved[0].url == other.url
