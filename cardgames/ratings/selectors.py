"""Readers of skill ratings: the value matchmaking compares and the profile's list (as players see it)."""

from __future__ import annotations

from dataclasses import dataclass

from cardgames.catalogue import CATALOGUE

from .models import PlayerRating
from .skill import DEFAULT, Skill, provisional


@dataclass(frozen=True)
class GameRating:
    """A player's rating at one game: as players see it (``shown``, ``provisional``), the
    conservative value matchmaking compares (``value``), the skill, games rated."""

    game: str
    name: str
    value: float
    mu: float
    sigma: float
    games: int
    shown: int
    provisional: bool


def rating_for(user_id: int, game: str) -> float:
    """The conservative rating (mu − 3σ, OpenSkill's ordinal) of a user at a game; an unrated
    player has the default, 0.0. Matchmaking compares these values."""
    row = PlayerRating.objects.filter(user_id=user_id, game=game).values_list("mu", "sigma").first()
    skill = Skill(mu=row[0], sigma=row[1]) if row else DEFAULT
    return skill.ordinal


def ratings_of(user_id: int) -> list[GameRating]:
    """The user's ratings at the games rated so far, in catalogue order."""
    order = {slug: index for index, slug in enumerate(CATALOGUE)}
    rows = sorted(
        PlayerRating.objects.filter(user_id=user_id, games__gt=0),
        key=lambda row: (order.get(row.game, len(order)), row.game),
    )
    return [
        GameRating(
            game=row.game,
            name=CATALOGUE[row.game].name if row.game in CATALOGUE else row.game,
            value=row.skill.ordinal,
            mu=row.mu,
            sigma=row.sigma,
            games=row.games,
            shown=row.skill.shown,
            provisional=provisional(row.games),
        )
        for row in rows
    ]
