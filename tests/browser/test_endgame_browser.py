"""The end of a game and the ways out of a table (issue 25 items 4 and 5) in a real Chromium, at
390×844 (a phone) and 1440×900, against daphne on the embedded defaults.

Games are set up through the page (a guest's bots game, a friends room joined by its code) and
played to their end through the real services on the site's own database (``finish``: each
person's seat plays seeded random legal moves, the bots theirs), so the result screens are the
ones real games end on. The result shows the winner first inside the first viewport, every number
labelled, the seed folded under "Comprobar que el barajado fue justo"; "Otra partida" deals a new
practice game; "Revancha" is offered by the host and accepted by the friend, and the host starts
it; "Salir de la mesa" stands a friend up before the start, hands a started seat to the PF-63
stand-in, and the host's "Cerrar sala" tells the others; "Buscar otra" queues an online player
again; a spectator reads the chat with no box to write in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.test_matchmaking_browser import sign_up
from tests.browser.test_pages_browser import AXE, RUN_AXE
from tests.browser.test_tables_browser import SCREENSHOTS, browser, server, site_shell  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SIZES = [PHONE, DESKTOP]
SIZE_IDS = ["390x844", "1440x900"]

FINISH = """
from django.utils import timezone
from accounts.identity import Player, player_for_user
from cardgames.tables.models import Table
from tests.tables.helpers import Clock, play_out
table = Table.objects.get(pk={table_id})
humans = {{}}
for seat in table.seats.all():
    if seat.user_id:
        humans[seat.index] = player_for_user(seat.user)
    elif seat.player_key.startswith("guest:"):
        humans[seat.index] = Player(kind="guest", id=seat.player_key[6:], name=seat.name)
from cardgames.tables.errors import TableError
for _attempt in range(50):  # the site's own runner moves the bots meanwhile: a race is "stale"
    try:
        table = play_out(table, humans, Clock(timezone.now()))
        break
    except TableError:
        table.refresh_from_db()
print(table.status)
"""


def page_at(browser: Any, size: dict[str, int]) -> Any:  # noqa: F811
    context = browser.new_context(locale="es-ES", viewport=size, has_touch=size is PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def config(page: Any) -> dict[str, Any]:
    return json.loads(page.locator("#table-config").text_content())


def finish(server: str, page: Any) -> None:  # noqa: F811
    """Play the page's table to its end through the services on the site's database."""
    assert site_shell(server, FINISH.format(table_id=config(page)["id"])) == "finished"
    page.locator("#result:not([hidden])").wait_for()


def guest_bots_game(page: Any, server: str, name: str, game: str = "one_card") -> None:  # noqa: F811
    page.goto(server + "/")
    page.get_by_label("Tu nombre en la mesa").fill(name)
    card = page.locator(f'.game-card[data-game="{game}"]')
    card.locator('select[name="players"]').select_option("2")
    card.locator('select[name="bot_level"]').select_option("easy")
    card.get_by_role("button", name="Jugar contra bots").click()
    page.wait_for_url("**/mesa/*/")
    page.locator("#table-app[data-status=playing], #table-app[data-status=finished]").wait_for()


def open_room(host: Any, server: str, guest_name: str = "") -> str:  # noqa: F811
    """From the home page, ``host`` (a guest named ``guest_name``, or signed in) opens a waiting
    2-seat One Card friends room; its code."""
    host.goto(server + "/")
    if guest_name:
        host.get_by_label("Tu nombre en la mesa").fill(guest_name)
    card = host.locator('.game-card[data-game="one_card"]')
    card.locator('select[name="players"]').select_option("2")
    card.get_by_role("button", name="Crear sala con amigos").click()
    host.wait_for_url("**/mesa/*/")
    return str(host.get_by_test_id("room-code").inner_text())


def friends_room(host: Any, friend: Any, server: str) -> str:  # noqa: F811
    """A waiting 2-seat One Card room of the guest Lola, which the guest Pepe joined by its code."""
    code = open_room(host, server, "Lola")
    friend.goto(f"{server}/mesa/{code}/")
    friend.get_by_label("Tu nombre en la mesa").fill("Pepe")
    friend.get_by_role("button", name="Unirse a sala").click()
    friend.locator("#table-app[data-status=waiting][data-seat='1']").wait_for()
    host.locator("#wait-seats li.filled", has_text="Pepe").wait_for()
    return code


def ours_by_axe(page: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.1 A/AA violations on the finished table page: the result sheet, the exit
    and the game's own drawing under it (El Puteo's seats of players out of lives included)."""
    page.add_script_tag(url=AXE)
    return list(page.evaluate(RUN_AXE.replace("axe.run(document,", "axe.run({include: [['#table-app']]},")))


def in_first_viewport(page: Any, selector: str) -> bool:
    """Is the element inside the viewport as the page stands, without any scrolling?"""
    return bool(
        page.locator(selector).evaluate(
            """node => { const r = node.getBoundingClientRect();
                return window.scrollY === 0 && r.width > 0 && r.top >= 0 && r.bottom <= innerHeight
                  && r.left >= 0 && r.right <= innerWidth; }"""
        )
    )


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_result_shows_the_winner_first_labelled_numbers_and_the_folded_seed(
    browser,  # noqa: F811
    server,  # noqa: F811
    size,
) -> None:
    page = page_at(browser, size)
    guest_bots_game(page, server, f"Ana{size['width']}", game="puteo")
    finish(server, page)

    # the winner first, seen without scrolling on a phone too
    winners = page.get_by_test_id("result-winners")
    assert winners.inner_text().startswith(("Gana ", "¡Has ganado!", "Ganan ", "Nadie gana"))
    assert in_first_viewport(page, "#result-winners")
    assert in_first_viewport(page, "[data-action=rematch]")
    # every number says what it is: El Puteo's lives; a practice game says why it pays nothing
    places = page.locator("#result-places li")
    assert places.count() == 2
    assert places.nth(0).locator("[data-number=score] dt").inner_text() == "Vidas"
    assert "no da monedas" in page.locator("#result-note").inner_text()
    # the seed and its commitment are folded under one summary with its one-sentence explanation
    check = page.locator("#seed-check")
    assert check.evaluate("d => d.open") is False
    assert len(page.locator("#result-seed").text_content()) == 32  # there, folded away
    assert not page.locator("#result-seed").is_visible()
    check.locator("summary", has_text="Comprobar que el barajado fue justo").click()
    assert len(page.locator("#result-seed").inner_text()) == 32
    assert "semilla" in check.inner_text()
    page.screenshot(path=str(SCREENSHOTS / f"endgame-result-{size['width']}.png"))
    for scheme in ("light", "dark"):  # names, labels and contrast of the result sheet, both themes
        page.emulate_media(color_scheme=scheme)
        assert ours_by_axe(page) == [], scheme
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_otra_partida_takes_the_player_to_a_new_game_with_the_same_bots(browser, server, size) -> None:  # noqa: F811
    page = page_at(browser, size)
    guest_bots_game(page, server, f"Bea{size['width']}")
    old = config(page)
    finish(server, page)
    rematch = page.locator("[data-action=rematch]")
    assert rematch.inner_text() == "Otra partida"
    rematch.click()
    page.wait_for_url(lambda url: f"/mesa/{old['code']}/" not in url)
    page.locator("#table-app[data-status=playing]").wait_for()
    new = config(page)
    assert new["id"] != old["id"] and new["game"] == "one_card"
    assert page.locator("#table-app").get_attribute("data-seat") == "0"
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_revancha_the_host_offers_the_friend_accepts_and_the_host_starts(browser, server, size) -> None:  # noqa: F811
    host, friend = page_at(browser, size), page_at(browser, size)
    friends_room(host, friend, server)
    host.get_by_role("button", name="Empezar partida").click()
    for page in (host, friend):
        page.locator("#table-app[data-status=playing]").wait_for()
    finish(server, host)
    friend.locator("#result:not([hidden])").wait_for()

    # before the host offers, the friend is told where the offer will come
    waiting = friend.locator("[data-action=rematch]")
    assert waiting.is_disabled()
    assert "anfitrión" in friend.get_by_test_id("rematch-line").inner_text()
    offer = host.locator("[data-action=rematch]")
    assert offer.inner_text() == "Revancha"
    offer.click()
    host.locator("#table-app[data-status=waiting]").wait_for()  # the new room's waiting room
    assert host.locator("#table-app").get_attribute("data-seat") == "0"

    # the friend's result screen hears the offer and accepts it: the same seat in the new room
    accept = friend.locator("[data-action=rematch]:not([disabled])", has_text="Aceptar la revancha")
    accept.wait_for()
    assert in_first_viewport(friend, "[data-action=rematch]")
    friend.screenshot(path=str(SCREENSHOTS / f"endgame-revancha-{size['width']}.png"))
    accept.click()
    friend.locator("#table-app[data-status=waiting][data-seat='1']").wait_for()
    host.locator("#wait-seats li.filled", has_text="Pepe").wait_for()
    host.get_by_role("button", name="Empezar partida").click()
    for page in (host, friend):
        page.locator("#table-app[data-status=playing]").wait_for()
    host.context.close()
    friend.context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_salir_stands_up_then_the_host_closes_the_room_and_the_others_are_told(browser, server, size) -> None:  # noqa: F811
    host, friend = page_at(browser, size), page_at(browser, size)
    code = friends_room(host, friend, server)

    # a seated friend stands up, after being told what that does
    leave = friend.locator("[data-action=leave]")
    assert leave.inner_text() == "Salir de la mesa" and in_first_viewport(friend, "[data-action=leave]")
    leave.click()
    assert "asiento libre" in friend.locator("#exit-confirm").inner_text()
    friend.get_by_test_id("leave-confirm").click()
    friend.wait_for_url(f"{server}/")
    host.locator("#wait-seats li.empty").wait_for()  # the seat is free again

    # the friend comes back; the host's control closes the room, and the friend's page says so
    friend.goto(f"{server}/mesa/{code}/")
    friend.get_by_role("button", name="Unirse a sala").click()
    friend.locator("#table-app[data-status=waiting][data-seat='1']").wait_for()
    close = host.locator("[data-action=leave]")
    assert close.inner_text() == "Cerrar sala"
    close.click()
    assert "se cerrará para todos" in host.locator("#exit-confirm").inner_text()
    host.get_by_test_id("leave-confirm").click()
    host.wait_for_url(f"{server}/")
    friend.get_by_test_id("room-closed").wait_for()
    assert "cerrado esta sala" in friend.get_by_test_id("room-closed").inner_text()
    assert friend.locator("#waiting").is_hidden()
    host.context.close()
    friend.context.close()


def test_pf63_leaving_a_started_friends_game_hands_the_seat_to_the_stand_in(browser, server) -> None:  # noqa: F811
    host, friend = page_at(browser, PHONE), page_at(browser, PHONE)
    friends_room(host, friend, server)
    host.get_by_role("button", name="Empezar partida").click()
    for page in (host, friend):
        page.locator("#table-app[data-status=playing]").wait_for()
    friend.locator("[data-action=leave]").click()
    assert "Un bot jugará tu asiento" in friend.locator("#exit-confirm").inner_text()
    friend.screenshot(path=str(SCREENSHOTS / "endgame-leave-390.png"))
    friend.get_by_test_id("leave-confirm").click()
    friend.wait_for_url(f"{server}/")
    envelope = host.request.get(f"{server}{config(host)['api']}").json()
    assert envelope["seats"][1]["stand_in"] is True
    host.context.close()
    friend.context.close()


def test_spectators_read_the_chat_with_no_box_to_write_in(browser, server) -> None:  # noqa: F811
    host, friend = page_at(browser, DESKTOP), page_at(browser, PHONE)
    code = friends_room(host, friend, server)
    host.get_by_role("button", name="Empezar partida").click()
    host.locator("#table-app[data-status=playing]").wait_for()
    host.get_by_placeholder("Escribe un mensaje").fill("hola, mirones")
    host.get_by_role("button", name="Enviar").click()

    watcher = page_at(browser, PHONE)
    watcher.goto(f"{server}/mesa/{code}/")
    watcher.get_by_label("Tu nombre en la mesa").fill("Mira")
    watcher.get_by_role("button", name="Unirse a sala").click()
    watcher.locator("#table-app[data-role=spectator][data-status=playing]").wait_for()
    watcher.locator("#chat-log li", has_text="hola, mirones").wait_for()
    assert watcher.locator("#chat-text").count() == 0 or not watcher.locator("#chat-text").is_visible()
    assert "solo escriben quienes juegan" in watcher.get_by_test_id("chat-note").inner_text()
    assert host.locator("#chat-text").is_visible() and not host.get_by_test_id("chat-note").is_visible()
    for page in (host, friend, watcher):
        page.context.close()


def test_buscar_otra_queues_an_online_player_again(browser, server) -> None:  # noqa: F811
    page = page_at(browser, PHONE)
    sign_up(page, server, "eva_rematch")
    other = page_at(browser, DESKTOP)
    sign_up(other, server, "leo_rematch")
    table_id = site_shell(
        server,
        """
from django.contrib.auth import get_user_model
from accounts.identity import player_for_user
from cardgames.matchmaking import services
from cardgames.tables.models import Table
users = [get_user_model().objects.get(username=n) for n in ("eva_rematch", "leo_rematch")]
for user in users:
    services.join_queue(player=player_for_user(user), game="one_card", players=2, stake=0)
services.run_wave()
print(Table.objects.filter(seats__user=users[0]).get().pk)
""",
    )
    code = site_shell(
        server, f"from cardgames.tables.models import Table; print(Table.objects.get(pk={table_id}).code)"
    )
    page.goto(f"{server}/mesa/{code}/")
    page.locator("#table-app[data-status=playing]").wait_for()
    finish(server, page)
    page.locator("#result .num-league").first.wait_for()  # league points, labelled, once settled
    assert page.locator("#result .num-league dt").first.inner_text() == "Puntos de liga"
    again = page.locator("[data-action=rematch]")
    assert again.inner_text() == "Buscar otra"
    again.click()
    page.get_by_test_id("rematch-line").filter(has_text="Buscando otra mesa").wait_for()
    queued = site_shell(
        server,
        """
from cardgames.matchmaking.models import QueueEntry
# waiting, or already seated at a new online table by the site's next wave
e = QueueEntry.objects.get(user__username="eva_rematch", status__in=QueueEntry.LIVE)
print(e.game, e.players, e.stake)
""",
    )
    assert queued == "one_card 2 0"
    page.get_by_test_id("leave-queue").click()
    page.get_by_test_id("result").filter(has_text="Has salido de la cola").wait_for()

    # both players ask for another: the queue seats them together and each tab goes to the table
    again.click()
    page.get_by_test_id("rematch-line").filter(has_text="Buscando otra mesa").wait_for()
    other.goto(f"{server}/mesa/{code}/")
    other.locator("[data-action=rematch]", has_text="Buscar otra").click()
    for tab in (page, other):
        tab.wait_for_url(lambda url: "/mesa/" in url and f"/mesa/{code}/" not in url)
    assert page.url == other.url
    page.locator("#table-app[data-status=playing]").wait_for()
    page.context.close()
    other.context.close()


def test_cerrar_sala_takes_back_the_invitations_it_sent(browser, server) -> None:  # noqa: F811
    host, invitee = page_at(browser, DESKTOP), page_at(browser, PHONE)
    sign_up(host, server, "nora_cierra")
    sign_up(invitee, server, "tomas_cierra")
    code = open_room(host, server)
    host.get_by_label("Invitar por nombre de usuario").fill("tomas_cierra")
    host.get_by_role("button", name="Invitar").click()
    invitee.goto(server + "/reglas/pika/")  # a page other than the home page
    toast = invitee.get_by_test_id("invitation-toast").filter(has_text=code)
    toast.wait_for()

    host.locator("[data-action=leave]", has_text="Cerrar sala").click()
    host.get_by_test_id("leave-confirm").click()
    host.wait_for_url(f"{server}/")

    toast.wait_for(state="detached")  # the closed room's invitation is gone from every page
    host.context.close()
    invitee.context.close()


def test_revancha_reaches_a_registered_friend_as_an_invitation_toast_they_accept(browser, server) -> None:  # noqa: F811
    host, friend = page_at(browser, DESKTOP), page_at(browser, PHONE)
    sign_up(host, server, "rita_revancha")
    sign_up(friend, server, "hugo_revancha")
    code = open_room(host, server)
    friend.goto(f"{server}/mesa/{code}/")
    friend.get_by_test_id("join-room").click()
    friend.locator("#table-app[data-status=waiting][data-seat='1']").wait_for()
    host.locator("#wait-seats li.filled", has_text="hugo_revancha").wait_for()
    host.get_by_role("button", name="Empezar partida").click()
    friend.locator("#table-app[data-status=playing]").wait_for()
    finish(server, host)

    # the friend has gone to another page; the host's offer reaches it as an invitation
    friend.goto(server + "/reglas/skyjo/")
    host.locator("[data-action=rematch]", has_text="Revancha").click()
    host.locator("#table-app[data-status=waiting]").wait_for()
    new_code = host.get_by_test_id("room-code").inner_text()
    assert new_code != code
    toast = friend.get_by_test_id("invitation-toast").filter(has_text=new_code)
    toast.wait_for()
    toast.get_by_role("button", name="Aceptar").click()
    friend.wait_for_url(f"**/mesa/{new_code}/")
    friend.locator("#table-app[data-status=waiting][data-seat='1']").wait_for()  # their old seat
    host.locator("#wait-seats li.filled", has_text="hugo_revancha").wait_for()
    host.context.close()
    friend.context.close()
