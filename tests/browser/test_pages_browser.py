"""Every server-rendered page in a real Chromium, checked by axe-core (vendored, run in the page):
no WCAG 2.1 A/AA violations — labels, contrast, names, landmarks — in Spanish and English, on a
phone and on a desktop, in the light and the dark theme (issue 25); and the home page's
invitations arrive and are answered by clicking."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from economy.services import claim_daily_bonus
from tests.browser.test_accounts_browser import page  # noqa: F401  (the Chromium page fixture)
from tests.browser.test_real_server import server  # noqa: F401  (daphne with the user Nico)
from tests.browser.test_replay_browser import sign_up
from tests.tables.helpers import Clock, play_out, started_table, user_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

AXE = "/static/vendor/axe-core/axe.min.js"
RUN_AXE = """
async () => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    resultTypes: ["violations"],
  });
  return results.violations.map((v) => ({
    id: v.id,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary),
  }));
}
"""
PAGES = [
    "/",
    "/reglas/one_card/",
    "/reglas/guandan/",
    "/monedero/",
    "/tienda/",
    "/liga/",
    "/cuenta/perfil/",
    "/cuenta/jugador/Ana/",
    "/rulezz/",
]
ANONYMOUS_PAGES = [
    "/",
    "/cuenta/entrar/",
    "/cuenta/registro/",
    "/cuenta/invitado/",
    "/cuenta/jugador/Ana/",
    "/sin-conexion/",
]


def violations(page, url: str) -> list[dict]:  # noqa: F811
    """axe-core's findings on ``url`` in the light theme and then, the system turned dark (theme.js
    follows it live), in the dark one; each theme's findings are tagged with its name."""
    page.emulate_media(color_scheme="light")
    page.goto(url)
    page.add_script_tag(url=AXE)  # same origin: the CSP allows it, a CDN never
    found = [{**v, "theme": "light"} for v in page.evaluate(RUN_AXE)]
    page.emulate_media(color_scheme="dark")
    page.locator("html[data-theme=dark]").wait_for(state="attached")
    return found + [{**v, "theme": "dark"} for v in page.evaluate(RUN_AXE)]


@pytest.fixture
def ana_with_history() -> list[str]:
    """Ana has a finished game and a wallet history, so the profile draws its tables and charts;
    the pages of that game (its table with the result, its replay) for the axe pass."""
    clock = Clock(timezone.now() - timedelta(hours=2))
    ana = user_player("Ana")
    table = play_out(started_table("one_card", ana, clock, players=2), {0: ana}, clock)
    from cardgames.tables import settlement

    settlement.finish_table(table_id=table.pk, now=clock.now)
    claim_daily_bonus(user=get_user_model().objects.get(username="Ana"))
    return [f"/mesa/{table.code}/", f"/partida/{table.pk}/repeticion/", "/cuenta/perfil/contrasena/"]


def log_in(page, base: str, username: str = "Ana") -> None:  # noqa: F811
    page.goto(base + "/cuenta/entrar/")
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Contraseña").fill("mesa-verde-2026")
    page.get_by_role("button", name="Entrar").click()
    page.get_by_test_id("nav-profile").wait_for()


@pytest.mark.parametrize(
    ("viewport", "language"), [((390, 844), "es"), ((1440, 900), "en")], ids=["phone-es", "desktop-en"]
)
def test_every_signed_in_page_passes_axe(live_server, ana_with_history, page, viewport, language) -> None:  # noqa: F811
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    log_in(page, live_server.url)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    found = {url: violations(page, live_server.url + url) for url in [*PAGES, *ana_with_history]}
    assert page.evaluate("document.documentElement.lang") == language
    assert {url: v for url, v in found.items() if v} == {}


def test_every_page_fits_a_360_px_phone(live_server, ana_with_history, page) -> None:  # noqa: F811
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server.url)
    widths = {}
    for url in [*PAGES, "/sin-conexion/"]:
        page.goto(live_server.url + url)
        widths[url] = page.evaluate("document.documentElement.scrollWidth")
    assert {url: w for url, w in widths.items() if w > 360} == {}


def test_a_game_cards_play_online_picks_that_game_in_the_queue_panel(live_server, page) -> None:  # noqa: F811
    user_player("Ana")
    log_in(page, live_server.url)
    page.goto(live_server.url + "/")
    page.get_by_test_id("play-online-guandan").click()
    assert page.get_by_test_id("queue-game").input_value() == "guandan"
    assert page.evaluate("document.activeElement.dataset.testid") == "queue-stake"
    assert page.get_by_test_id("queue-players").locator("option").all_inner_texts() == ["4"]


def test_anonymous_pages_pass_axe_in_spanish_and_english(live_server, ana_with_history, page) -> None:  # noqa: F811
    found = {url: violations(page, live_server.url + url) for url in ANONYMOUS_PAGES}
    page.goto(live_server.url + "/")
    page.select_option("#language-select", "en")
    page.get_by_role("button", name="Cambiar").click()
    page.get_by_role("heading", name="Live card games").wait_for()
    found |= {"en" + url: violations(page, live_server.url + url) for url in ANONYMOUS_PAGES}
    assert {url: v for url, v in found.items() if v} == {}


# -- the home page's live panel, on the real server (daphne: the lobby socket) -------------------
CREATE_ROOM_AND_INVITE = """
async (username) => {
  const { api } = await import("/static/frontend/api.js");
  const room = await api("POST", "/api/tables", { game: "one_card", mode: "friends", players: 2 });
  await api("POST", `/api/tables/${room.id}/invitations`, { username });
  return room.code;
}
"""


def test_an_invitation_arrives_live_on_the_home_page_and_is_declined_or_accepted(page, server) -> None:  # noqa: F811
    host = page
    log_in(host, server, "Nico")
    guest = host.context.browser.new_context(locale="es-ES").new_page()
    guest.set_default_timeout(30_000)
    sign_up(guest, server, "Bea")
    guest.goto(server + "/")
    guest.get_by_text("No tienes invitaciones pendientes").wait_for()
    invitations = guest.get_by_test_id("invitation-list").locator("li")

    first = host.evaluate(CREATE_ROOM_AND_INVITE, "Bea")  # no reload on Bea's side: the socket brings it
    invitations.filter(has_text=f"Nico te invita a One Card (sala {first})").wait_for()
    invitations.get_by_role("button", name="Rechazar").click()
    guest.get_by_text("No tienes invitaciones pendientes").wait_for()
    assert invitations.count() == 0

    host.goto(server + "/")
    second = host.evaluate(CREATE_ROOM_AND_INVITE, "Bea")
    invitations.filter(has_text=f"(sala {second})").get_by_role("button", name="Aceptar").click()
    guest.wait_for_url(f"**/mesa/{second}/")

    guest.goto(server + "/")
    guest.get_by_test_id("my-tables").get_by_role(
        "link", name=f"One Card: sala {second}, esperando jugadores"
    ).wait_for()


CREATE_ROOM = """
async () => {
  const { api } = await import("/static/frontend/api.js");
  return (await api("POST", "/api/tables", { game: "one_card", mode: "friends", players: 2 })).code;
}
"""


def test_the_room_invite_box_suggests_usernames_as_the_host_types(page, server) -> None:  # noqa: F811
    """Issue 12's room page: invite by username with autocomplete of existing usernames."""
    other = page.context.browser.new_context(locale="es-ES").new_page()
    sign_up(other, server, "Berenice")
    other.context.close()
    log_in(page, server, "Nico")
    code = page.evaluate(CREATE_ROOM)
    page.goto(f"{server}/mesa/{code}/")
    page.locator("#host-controls:not([hidden])").wait_for()  # the room's first snapshot is in
    page.get_by_label("Invitar por nombre de usuario").press_sequentially("bere")
    page.locator('#invite-suggestions option[value="Berenice"]').wait_for(state="attached")
    page.get_by_label("Invitar por nombre de usuario").fill("Berenice")
    page.get_by_role("button", name="Invitar", exact=True).click()
    page.get_by_text("Berenice").first.wait_for()
