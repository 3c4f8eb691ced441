"""The profile shows the player's rating at each game rated so far (issue 11)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from cardgames.ratings.models import PlayerRating
from cardgames.tables.models import Seat

from .test_ratings import finish, finished_table, make_user

pytestmark = pytest.mark.django_db


def test_the_profile_shows_each_rated_game_with_its_value_and_games(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    human = Seat.Kind.HUMAN
    for places in ([1, 2], [1, 2]):
        finish(
            finished_table("pika", [(human, ana), (human, bea)], places), django_capture_on_commit_callbacks
        )
    finish(finished_table("skyjo", [(human, ana), (human, bea)], [2, 1]), django_capture_on_commit_callbacks)
    client.force_login(ana)

    body = client.get(reverse("frontend:profile")).content.decode()

    section = body[body.index('data-testid="profile-ratings"') :]
    assert "Puntuación" in section and "Pika" in section and "Skyjo" in section
    assert section.index("Pika") < section.index("Skyjo")  # catalogue order
    values = re.findall(r'data-testid="rating-value">([^<]+)<', section)
    expected = [str(PlayerRating.objects.get(user=ana, game=game).skill.shown) for game in ("pika", "skyjo")]
    assert values == expected
    assert int(values[0]) > 1500 > int(values[1])  # two wins at Pika, a loss at Skyjo: from 1500
    assert section.count('data-testid="rating-provisional">provisional<') == 2  # under 10 games
    assert re.findall(r'data-testid="rating-games">([^<]+)<', section) == [
        "2 partidas puntuadas",
        "1 partida puntuada",
    ]


def test_the_profile_in_english_and_with_no_rating_yet(client: Client) -> None:
    client.force_login(make_user("ana"))
    body = client.get(reverse("frontend:profile")).content.decode()
    assert "Aún no tienes puntuación" in body

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("frontend:profile")).content.decode()
    assert "You have no rating yet" in body and ">Rating</h2>" in body
