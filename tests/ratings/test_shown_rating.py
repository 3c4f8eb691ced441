"""The rating players see (issue 25 item 6): 1500 for everyone at first, moved by the mean skill,
"provisional" for the first ten rated games; the OpenSkill values underneath are unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from cardgames.ratings import skill
from cardgames.ratings.selectors import ratings_of
from cardgames.tables.models import Seat

from .test_ratings import finish, finished_table, make_user

pytestmark = pytest.mark.django_db


def test_everyone_starts_at_1500_and_one_game_moves_it_like_an_elo_rating() -> None:
    assert skill.DEFAULT.shown == skill.SHOWN_START == 1500
    winner, loser = skill.rate("pika", [skill.Entrant(skill.DEFAULT, 1), skill.Entrant(skill.DEFAULT, 2)])
    assert loser.ordinal < 0  # what the profile used to show: "-3,3"
    assert 1350 < loser.shown < 1500 < winner.shown < 1650
    assert winner.shown - 1500 == 1500 - loser.shown
    # beta, one game's spread of performance, is Elo's 200-point class interval
    assert skill.Skill(mu=skill.DEFAULT_MU + skill.MODEL.beta).shown == 1700


def test_a_rating_is_provisional_for_its_first_ten_rated_games() -> None:
    assert [skill.provisional(n) for n in (1, 9, 10, 40)] == [True, True, False, False]


def test_the_profile_rows_carry_the_shown_rating_beside_the_raw_skill(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ana, bea = make_user("ana"), make_user("bea")
    human = Seat.Kind.HUMAN
    finish(
        finished_table("one_card", [(human, ana), (human, bea)], [2, 1]), django_capture_on_commit_callbacks
    )
    (row,) = ratings_of(ana.pk)
    assert row.value == pytest.approx(skill.Skill(row.mu, row.sigma).ordinal) and row.value < 0
    assert (row.shown, row.provisional, row.games) == (skill.Skill(row.mu, row.sigma).shown, True, 1)
    assert row.shown < 1500
