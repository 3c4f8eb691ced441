"""League points of one game (PF-60, PF-15, PF-16, PF-56, PF-61). Pure: no Django.

- PF-60: place p of N earns 10 × (N − p + 1) points, a multiple of 10, so half is whole.
- PF-16: if a simulated player sat at the table, every human at it earns half.
- PF-56: players who share a place (Guandan partners: 1, 1, 3, 3; ties elsewhere) each earn
  the points of that place, as the engines rank them (standard competition ranking).
- PF-15: only online tables count, buy-in tables included (modes ``online`` and ``buyin``).
- PF-61 and PF-57: only registered humans earn; simulated players and guests earn nothing,
  but they sit at the table, so they count in N and in the places.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

POINTS_STEP: Final[int] = 10
#: PF-15: the table modes that count for the league
LEAGUE_MODES: Final[frozenset[str]] = frozenset({"online", "buyin"})
#: seat kinds (cardgames.tables.models.Seat.Kind) that may earn points / that halve them
HUMAN: Final[str] = "human"
SIMULATED: Final[str] = "simulated"


def _positive_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")
    return value


def place_points(*, place: int, players: int) -> int:
    """PF-60: 10 × (N − p + 1) for place p of N (1st of 4: 40; 4th of 4: 10)."""
    players = _positive_int(players, "players")
    place = _positive_int(place, "place")
    if place > players:
        raise ValueError(f"place {place} of {players} players")
    return POINTS_STEP * (players - place + 1)


def game_points(*, place: int, players: int, halved: bool) -> int:
    """The points of place p of N, halved (exactly) when simulated players sat (PF-16)."""
    points = place_points(place=place, players=players)
    return points // 2 if halved else points


@dataclass(frozen=True)
class Earned:
    """What one human earned at one table."""

    seat: int
    user_id: int
    place: int
    players: int
    points: int
    halved: bool


def table_points(*, mode: str, seats: Sequence[Mapping[str, Any]], simulated: bool = False) -> list[Earned]:
    """Who earns what at a finished table, from ``GameResult.seats`` (seat order).

    Each seat is ``{"seat", "kind", "user_id", "place", …}``. A table of another mode earns
    nothing. ``simulated`` is the table's own flag; a simulated seat halves points too.
    """
    if mode not in LEAGUE_MODES:
        return []
    players = len(seats)
    halved = simulated or any(seat["kind"] == SIMULATED for seat in seats)
    earned = []
    for seat in seats:
        if seat["kind"] != HUMAN or seat.get("user_id") is None:
            continue
        place = int(seat["place"])
        earned.append(
            Earned(
                seat=int(seat["seat"]),
                user_id=int(seat["user_id"]),
                place=place,
                players=players,
                points=game_points(place=place, players=players, halved=halved),
                halved=halved,
            )
        )
    return earned


__all__ = [
    "HUMAN",
    "LEAGUE_MODES",
    "POINTS_STEP",
    "SIMULATED",
    "Earned",
    "game_points",
    "place_points",
    "table_points",
]
