"""Skill ratings from a finished game's places: OpenSkill's Plackett–Luce model (Weng–Lin). Pure.

A skill is a Gaussian belief (mu, sigma); matchmaking compares the conservative ``ordinal``
mu − 3σ (0 for a new player); players see ``shown``, 1500 + 48 (mu − 25), "provisional" for
their first ``PROVISIONAL_GAMES`` rated games. ``rate`` takes every seat of one game with its place
(1 best; equal places are ties) and returns every seat's new skill:

- sides: each seat is its own side, except in Guandan, where partners (S0 + S2, S1 + S3, GD-1)
  share their team's place (PF-56) and are rated as one team;
- fixed seats (simulated players) take part with the skill they are given and get it back
  unchanged; the service gives them ``FIXED_SIMULATED`` — a new person's skill — so a simulated
  opponent moves a person exactly as much as a new person in that seat would, never more.

No Django, no clock, no randomness: the same game always rates the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from cardgames.engines.guandan.flow import team as guandan_team

#: OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma never settles at zero)
MODEL: Final = PlackettLuce()
DEFAULT_MU: Final[float] = MODEL.mu
DEFAULT_SIGMA: Final[float] = MODEL.sigma
#: standard deviations taken off mu for the conservative value that matchmaking compares
ORDINAL_Z: Final[float] = 3.0
#: the rating players see (issue 25): everyone starts at 1500 and it moves with mu, as Elo-style
#: ratings do — the conservative ordinal starts at 0 and reads "-3,3" after one lost game
SHOWN_START: Final[int] = 1500
#: shown points per unit of mu: OpenSkill's beta (25/6, how much one game's performance varies)
#: is 200 points, Elo's class interval, so a 200-point gap means about 3 wins in 4, as players expect
SHOWN_PER_MU: Final[float] = 200 / MODEL.beta
#: a rating over fewer rated games than this is marked provisional (mu still moves a lot)
PROVISIONAL_GAMES: Final[int] = 10


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """mu − 3σ: the skill the player has with ~99.7 % certainty; 0 for a new player."""
        return self.mu - ORDINAL_Z * self.sigma

    @property
    def shown(self) -> int:
        """The rating as players see it: 1500 for a new player, 48 points per unit of mu."""
        return SHOWN_START + round((self.mu - DEFAULT_MU) * SHOWN_PER_MU)


def provisional(games: int) -> bool:
    """Whether a rating over ``games`` rated games is still provisional."""
    return games < PROVISIONAL_GAMES


#: a new player's skill (mu 25, sigma 25/3)
DEFAULT: Final[Skill] = Skill()
#: the fixed skill of every simulated player: a new person's, so it never moves anyone more than one
FIXED_SIMULATED: Final[Skill] = DEFAULT


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game: its skill before the game, its place, and whether it stays put."""

    skill: Skill
    place: int
    fixed: bool = False


def sides(game: str, places: Sequence[int]) -> list[list[int]]:
    """The seats grouped as they were ranked: Guandan's two partnerships (PF-56), else one seat each.

    Raises ValueError when Guandan partners do not share a place.
    """
    if game != "guandan":
        return [[seat] for seat in range(len(places))]
    teams: dict[int, list[int]] = {}
    for seat in range(len(places)):
        teams.setdefault(guandan_team(seat), []).append(seat)
    grouped = [teams[key] for key in sorted(teams)]
    for members in grouped:
        if len({places[seat] for seat in members}) != 1:
            raise ValueError(f"guandan partners {members} do not share a place: {list(places)}")
    return grouped


def rate(game: str, entrants: Sequence[Entrant]) -> list[Skill]:
    """Every seat's skill after the game, in seat order; fixed seats and lone sides are unchanged."""
    places = [entrant.place for entrant in entrants]
    grouped = sides(game, places)
    if len(grouped) < 2 or all(entrant.fixed for entrant in entrants):
        return [entrant.skill for entrant in entrants]
    teams = [[_rating(entrants[seat].skill) for seat in members] for members in grouped]
    ranks: list[float] = [float(places[members[0]]) for members in grouped]
    rated = MODEL.rate(teams, ranks=ranks)
    after = [entrant.skill for entrant in entrants]
    for members, new_team in zip(grouped, rated, strict=True):
        for seat, new in zip(members, new_team, strict=True):
            if not entrants[seat].fixed:
                after[seat] = Skill(mu=float(new.mu), sigma=float(new.sigma))
    return after


def _rating(skill: Skill) -> PlackettLuceRating:
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)
