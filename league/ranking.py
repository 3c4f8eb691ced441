"""The league's ranking rule (PF-60). Pure: no Django, no database order.

Standings rank by points (more first), then games won (1st places, more first), then who
reached their total first: the moment of the point row that brought the player to the
final total, i.e. their last row (earlier first). Players equal on all three are ordered
by user id (the older account first) — an explicit, stable last resort, so a prize place
is never decided by the order rows come out of a query. Positions are 1, 2, 3, … with no
shared positions: each league place is paid to one player (economy: one payment per place).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

#: games won are the game rows with this place
WIN_PLACE: Final[int] = 1


@dataclass(frozen=True)
class Row:
    """One point row, as the ranking needs it; ``place`` is None for a correction."""

    user_id: int
    points: int
    at: datetime
    place: int | None = None
    game: str = ""


@dataclass(frozen=True)
class Total:
    """A player's week (or week and game): points, wins, games, when the total was reached."""

    user_id: int
    points: int
    wins: int
    games: int
    reached_at: datetime
    position: int = 0


def sort_key(total: Total) -> tuple[int, int, datetime, int]:
    """Points desc, wins desc, reached_at asc, user id asc."""
    return (-total.points, -total.wins, total.reached_at, total.user_id)


def rank(totals: Iterable[Total]) -> list[Total]:
    """The totals in ranking order, each with its position (1-based)."""
    ordered = sorted(totals, key=sort_key)
    return [replace(total, position=i) for i, total in enumerate(ordered, start=1)]


def totals(rows: Iterable[Row]) -> list[Total]:
    """Add up rows per player (unordered): points, wins, games, the time of the last row."""
    acc: dict[int, Total] = {}
    for row in rows:
        won = 1 if row.place == WIN_PLACE else 0
        played = 1 if row.place is not None else 0
        seen = acc.get(row.user_id)
        if seen is None:
            acc[row.user_id] = Total(row.user_id, row.points, won, played, row.at)
        else:
            acc[row.user_id] = Total(
                row.user_id,
                seen.points + row.points,
                seen.wins + won,
                seen.games + played,
                max(seen.reached_at, row.at),
            )
    return list(acc.values())


def standings(rows: Iterable[Row], *, game: str | None = None) -> list[Total]:
    """Ranked standings of these rows; with ``game``, only that game's rows."""
    chosen = rows if game is None else (row for row in rows if row.game == game)
    return rank(totals(chosen))


__all__ = ["WIN_PLACE", "Row", "Total", "rank", "sort_key", "standings", "totals"]
