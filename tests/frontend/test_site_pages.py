"""The server-rendered pages of issue 12: home (games, live panel), wallet links, profiles."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.identity import Player
from cardgames.catalogue import CATALOGUE
from cardgames.ratings.models import RatingChange
from cardgames.tables import services, settlement
from cardgames.tables.models import Table
from economy.services import claim_daily_bonus
from tests.tables.helpers import Clock, play_out, started_table, user_player

pytestmark = pytest.mark.django_db


def client_of(player: Player) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=player.user_id))
    return client


def finished_one_card(host: Player, clock: Clock, *, seed: int = 0) -> Table:
    table = play_out(started_table("one_card", host, clock, players=2), {0: host}, clock, seed=seed)
    settlement.finish_table(table_id=table.pk, now=clock.now)  # on_commit does not run in a test transaction
    return table


# -- home -----------------------------------------------------------------------------------
def test_home_shows_each_game_with_a_picture_a_pitch_and_every_way_to_play(client: Client) -> None:
    ana = user_player("Ana")
    body = client_of(ana).get("/").content.decode()
    for slug in CATALOGUE:
        card = re.search(rf'<li class="game-card" data-game="{slug}">(.*?)</li>\s*\n', body, re.S)
        assert card, slug
        html = card.group(1)
        assert '<svg class="game-art"' in html and 'aria-hidden="true"' in html
        assert f'data-testid="play-bots-{slug}"' in html
        assert f'data-testid="play-friends-{slug}"' in html
        assert f'data-queue-game="{slug}"' in html
    assert 'id="join-code"' in body
    stake_select = body.split('data-testid="queue-stake"')[1].split("</select>")[0]
    stakes = re.findall(r'<option value="(\d+)">', stake_select)
    assert stakes == ["0", "100", "250", "500", "1000"]


def test_a_visitor_may_play_bots_but_is_sent_to_log_in_for_online(client: Client) -> None:
    body = client.get("/").content.decode()
    assert 'data-testid="play-bots-pika"' in body and 'id="player-name"' in body
    assert "data-queue-game" not in body and 'id="queue-form"' not in body
    assert f"{reverse('accounts:login')}?next=/" in body


def test_home_lists_pending_invitations_and_the_players_live_tables() -> None:
    clock = Clock(timezone.now())
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="pika", mode="friends")
    invitation = services.invite(table_id=room.pk, sender=ana, username="Bea")
    playing = started_table("skyjo", bea, clock, players=2)

    body = client_of(bea).get("/").content.decode()

    assert f'data-invitation="{invitation.pk}" data-code="{room.code}"' in body
    assert f"Ana te invita a Pika (sala {room.code})" in body
    assert 'data-answer="accept"' in body and 'data-answer="decline"' in body
    assert f'href="/mesa/{playing.code}/"' in body and "Skyjo con amigos: partida en juego" in body
    assert 'id="invitations-empty" hidden' in body

    host_body = client_of(ana).get("/").content.decode()
    assert f"Pika: sala {room.code}, esperando jugadores" in host_body
    assert 'data-invitation="' not in host_body


def test_a_finished_game_is_not_a_table_to_go_back_to() -> None:
    clock = Clock(timezone.now() - timedelta(hours=1))
    ana = user_player("Ana")
    done = finished_one_card(ana, clock)
    body = client_of(ana).get("/").content.decode()
    assert done.status == Table.Status.FINISHED and done.code
    assert f'href="/mesa/{done.code}/"' not in body and "No estás sentado en ninguna mesa." in body


def test_pf54_a_room_idle_past_four_hours_is_not_listed_but_a_started_buy_in_game_is() -> None:
    """Issue 25 item 5: the home page lists only rooms still live; the sweep closes idle ones
    within minutes, and until then they are not offered (a started buy-in game is never closed)."""
    from economy.services import open_pot

    clock = Clock(timezone.now() - timedelta(hours=services.IDLE_HOURS, minutes=1))
    ana = user_player("Ana")
    idle_room = services.create_room(player=ana, game="pika", mode="friends", now=clock.now)
    idle_game = started_table("skyjo", ana, clock, players=2)
    buy_in = started_table("one_card", ana, clock, players=2)
    Table.objects.filter(pk=buy_in.pk).update(pot=open_pot(reference=f"table:{buy_in.pk}", stake=100))
    fresh = services.create_room(player=ana, game="guandan", mode="friends")

    body = client_of(ana).get("/").content.decode()

    listed = re.findall(r'href="/mesa/(\w+)/"', body)
    assert sorted(listed) == sorted([buy_in.code, fresh.code])
    assert idle_room.code not in listed and idle_game.code not in listed


def test_a_declined_or_expired_invitation_leaves_the_home_page() -> None:
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="one_card", mode="friends")
    invitation = services.invite(table_id=room.pk, sender=ana, username="Bea")
    services.respond_invitation(invitation_id=invitation.pk, player=bea, accept=False)
    body = client_of(bea).get("/").content.decode()
    assert 'data-invitation="' not in body and 'id="invitations-empty">' in body


# -- wallet ------------------------------------------------------------------------------------
def test_wallet_history_links_a_game_reward_to_its_table() -> None:
    from economy.services import SeatResult, reward_game

    ana, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=ana, game="one_card", mode="friends")
    # the settlement's reward, as it is paid for this table (cardgames/tables/settlement.py)
    reward_game(
        reference=f"table:{table.pk}",
        game="one_card",
        mode="friends",
        seats=[SeatResult(ana.user_id, 1), SeatResult(bea.user_id, 2)],
    )
    claim_daily_bonus(user=get_user_model().objects.get(pk=ana.user_id))

    body = client_of(ana).get(reverse("economy:wallet")).content.decode()

    links = re.findall(r'<a href="([^"]+)" data-testid="history-table-link">', body)
    assert links == [reverse("frontend:replay", args=[table.pk])]  # the bonus and the welcome gift have none


# -- profiles ----------------------------------------------------------------------------------
def test_own_profile_has_stats_level_badges_and_both_charts() -> None:
    clock = Clock(timezone.now() - timedelta(hours=2))
    ana = user_player("Ana")
    result_table = finished_one_card(ana, clock)
    user = get_user_model().objects.get(pk=ana.user_id)
    RatingChange.objects.create(
        user=user,
        game="one_card",
        game_result=result_table.game_result,
        place=1,
        mu_before=25,
        sigma_before=8.333,
        mu_after=27,
        sigma_after=7.5,
        at=clock.now,
    )

    body = client_of(ana).get(reverse("frontend:profile")).content.decode()

    stats_row = re.search(r'<tr data-game="one_card">(.*?)</tr>', body, re.S).group(1)
    assert '<td class="num">1</td>' in stats_row  # one game played
    assert "<title>Perfil · Tapete</title>" in body  # the settings once sat in the title block
    assert body.index('id="ajustes"') > body.index('data-testid="profile-games"')
    assert 'data-testid="profile-level"' in body and "XP" in body and "<progress" in body
    assert 'data-badge="first_game"' in body
    assert 'class="earned" data-badge="first_game"' in body
    assert 'class="locked" data-badge="ten_wins"' in body
    assert '<svg class="chart"' in body
    assert 'id="rating-chart-title"' in body and 'id="coin-chart-title"' in body
    assert reverse("frontend:public_profile", args=["Ana"]) in body


def test_public_profile_shows_no_coins_and_no_email(client: Client) -> None:
    clock = Clock(timezone.now() - timedelta(hours=2))
    ana = user_player("Ana")
    user = get_user_model().objects.get(pk=ana.user_id)
    user.email = "ana@example.org"
    user.save()
    table = finished_one_card(ana, clock)

    response = client.get(reverse("frontend:public_profile", args=["Ana"]))

    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="public-username">Ana<' in body
    assert "ana@example.org" not in body
    assert "coin-chart" not in body and "monedas" not in body.lower().split("<main")[1]
    assert 'data-testid="profile-stats"' in body and 'data-testid="profile-badges"' in body
    # a practice game is Ana's own: its room is private (issue 26), so a visitor is not shown it
    assert reverse("frontend:replay", args=[table.pk]) not in body


def test_public_profile_by_any_case_redirects_to_the_name_and_unknown_is_404(client: Client) -> None:
    user_player("Ana")
    response = client.get(reverse("frontend:public_profile", args=["ana"]))
    assert response.status_code == 302
    assert response["Location"] == reverse("frontend:public_profile", args=["Ana"])
    assert client.get(reverse("frontend:public_profile", args=["Nadie"])).status_code == 404


def test_wallet_says_what_is_active_and_until_when() -> None:
    from economy.services import purchase_item

    ana = user_player("Ana")
    user = get_user_model().objects.get(pk=ana.user_id)
    purchase = purchase_item(user=user, item="gold_booster", request_id="r1")

    body = client_of(ana).get(reverse("economy:wallet")).content.decode()

    active = re.search(r'data-testid="wallet-active">(.*?)</p>', body, re.S).group(1)
    until = timezone.localtime(purchase.ends_at).strftime("%d/%m/%Y %H:%M")
    assert f"Booster de oro hasta el {until}" in active


def test_the_header_marks_the_page_you_are_on(client: Client) -> None:
    body = client.get(reverse("league:standings")).content.decode()
    assert f'<a href="{reverse("league:standings")}" aria-current="page">Liga</a>' in body
    assert 'aria-current="page"' not in client.get("/").content.decode().split("</header>")[0]


def test_the_new_home_words_are_in_english_too(client: Client) -> None:
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get("/").content.decode()
    for words in ["Right now", "Your tables", "Choose a game", "Play against bots", "Log in"]:
        assert words in body, words
    assert "Elige un juego" not in body and "Tus mesas" not in body


def test_league_names_link_to_public_profiles_with_my_row_marked() -> None:
    from league import selectors as league_selectors
    from tests.league.factories import SIM, finished_game, make_player

    ana, bea = make_player("ana"), make_player("bea")
    week_start = league_selectors.current_week().start
    finished_game(seats=[ana, bea, SIM], placements=[2, 1, 3], at=week_start + timedelta(minutes=1))
    client = Client()
    client.force_login(ana)

    body = client.get(reverse("league:standings")).content.decode()

    mine = re.search(r'<tr class="is-me"[^>]*>(.*?)</tr>', body, re.S).group(1)
    assert f'<a href="{reverse("frontend:public_profile", args=["ana"])}">ana</a>' in mine
    assert f'<a href="{reverse("frontend:public_profile", args=["bea"])}">bea</a>' in body
