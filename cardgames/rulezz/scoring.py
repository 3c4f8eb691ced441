"""Skyjo scoring: the closer doubling, running totals and the end at 100 (SK-21 to SK-26, SK-35 to SK-39).

One implementation for two users: the scoring itself (closer doubling, round scores,
totals, the end at 100, placements, winners; SK-22 to SK-26) lives by seat index in the
Skyjo engine's :mod:`cardgames.engines.skyjo.scoring` (re-exported here); the Rulezz
assistant (SK-35) calls :func:`score_sheet` (or the :class:`Sheet` value) with player
names and the rounds a user typed in, and gets a :class:`SheetResult` back, or a
:class:`RulezzError` with a stable ``code``.

Rules applied here, on top of the engine's scoring:

- SK-37: the assistant doubles the closer itself (SK-22, the engine's ``round_scores``).
- SK-38: round scores add up; after a round, a total of 100 or more ends the game;
  the lowest total wins (SK-24/SK-25), ties share (SK-26).
- SK-36/SK-39: each entry is the undoubled sum of a player's remaining cards, an
  integer from -17 to 142; exactly one closer per round; no round after the end.
  Rounds are recomputed from scratch, so editing a round is "score the edited list".

Pure Python, no Django, no I/O. Example (SK-T22)::

    >>> r = score_sheet(["A", "B", "C"], [{"points": {"A": 12, "B": 12, "C": 30}, "closer": "A"}])
    >>> r.rounds[0].scores, r.totals, r.over
    ({'A': 24, 'B': 12, 'C': 30}, {'A': 24, 'B': 12, 'C': 30}, False)
    >>> Sheet(("A", "B")).add_round({"A": 5, "B": 9}, "A").result().totals
    {'A': 5, 'B': 9}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardgames.engines.skyjo.scoring import (
    END_AT,
    add_scores,
    closer_is_doubled,
    game_over,
    placements,
    round_scores,
    winners,
)

#: SK-39: extremes one player's round can reach with the 150-card deck
#: (five -2s and seven -1s; ten 12s and two 11s).
MIN_POINTS = -17
MAX_POINTS = 142
#: SK-1
MIN_PLAYERS = 2
MAX_PLAYERS = 8


class RulezzError(ValueError):
    """Input the assistant refuses, with a stable machine-readable ``code``.

    Codes: ``bad_players``, ``too_few_players``, ``too_many_players``,
    ``bad_player_name``, ``duplicate_player``, ``bad_round``, ``unknown_player``,
    ``missing_player``, ``not_a_number``, ``not_an_integer``, ``out_of_range``,
    ``no_closer``, ``several_closers``, ``unknown_closer``, ``round_after_end``,
    ``bad_round_index``.
    ``round_number`` (1-based) and ``player`` point at the offending input when known.
    """

    def __init__(
        self, code: str, message: str, *, round_number: int | None = None, player: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.round_number = round_number
        self.player = player

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "round": self.round_number, "player": self.player}


# -- the Rulezz sheet (names) ----------------------------------------------------------------------
@dataclass(frozen=True)
class RoundEntry:
    """One round as typed in (SK-36): undoubled points per player name, and who closed it."""

    points: Mapping[str, int]
    closer: str


@dataclass(frozen=True)
class ScoredRound:
    """One round after scoring: what was entered, what counts, and the totals after it."""

    number: int  # 1-based
    points: dict[str, int]  # as entered (undoubled)
    scores: dict[str, int]  # added to the totals (the closer's possibly doubled)
    closer: str
    doubled: bool
    totals: dict[str, int]  # running totals after this round

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "points": dict(self.points),
            "scores": dict(self.scores),
            "closer": self.closer,
            "doubled": self.doubled,
            "totals": dict(self.totals),
        }


@dataclass(frozen=True)
class SheetResult:
    """The whole sheet: rounds, totals, and (once someone reaches 100) the end and the winners."""

    players: tuple[str, ...]
    rounds: tuple[ScoredRound, ...]
    totals: dict[str, int]
    over: bool
    winners: tuple[str, ...]  # empty while the game goes on
    placements: dict[str, int]  # current standing (final once ``over``)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for an API."""
        return {
            "players": list(self.players),
            "rounds": [r.as_dict() for r in self.rounds],
            "totals": dict(self.totals),
            "over": self.over,
            "winners": list(self.winners),
            "placements": dict(self.placements),
        }


def score_sheet(players: Sequence[str], rounds: Iterable[RoundEntry | Mapping[str, Any]]) -> SheetResult:
    """Score a Rulezz sheet (SK-35 to SK-39).

    ``players``: 2 to 8 distinct non-empty names, in seat order.
    ``rounds``: in play order; each a :class:`RoundEntry` or a mapping
    ``{"points": {name: int, ...}, "closer": name}`` (``"closer"`` may also be a
    one-element list, as a multi-select form would send it).
    Raises :class:`RulezzError` on the first invalid input.
    """
    names = _check_players(players)
    totals = [0] * len(names)
    scored: list[ScoredRound] = []
    over = False
    for number, entry in enumerate(rounds, start=1):
        if over:
            raise RulezzError(
                "round_after_end",
                f"Round {number} comes after the game ended in round {number - 1}.",
                round_number=number,
            )
        points, closer = _check_round(names, entry, number)
        raw = [points[name] for name in names]
        closer_index = names.index(closer)
        scores = round_scores(raw, closer_index)
        totals = add_scores(totals, scores)
        scored.append(
            ScoredRound(
                number=number,
                points=dict(points),
                scores=dict(zip(names, scores, strict=True)),
                closer=closer,
                doubled=scores[closer_index] != raw[closer_index],
                totals=dict(zip(names, totals, strict=True)),
            )
        )
        over = game_over(totals)
    places = placements(totals)
    return SheetResult(
        players=names,
        rounds=tuple(scored),
        totals=dict(zip(names, totals, strict=True)),
        over=over,
        winners=tuple(names[i] for i in winners(totals)) if over else (),
        placements=dict(zip(names, places, strict=True)),
    )


@dataclass(frozen=True)
class Sheet:
    """An immutable Rulezz sheet; editing returns a new sheet (SK-39: rounds may be edited)."""

    players: tuple[str, ...]
    rounds: tuple[RoundEntry, ...] = field(default=())

    def result(self) -> SheetResult:
        return score_sheet(self.players, self.rounds)

    def add_round(self, points: Mapping[str, int], closer: str) -> Sheet:
        """The sheet with one more round; raises RulezzError if it is invalid or after the end."""
        sheet = Sheet(self.players, (*self.rounds, _entry(points, closer, len(self.rounds) + 1)))
        sheet.result()
        return sheet

    def replace_round(self, number: int, points: Mapping[str, int], closer: str) -> Sheet:
        """The sheet with round ``number`` (1-based) replaced; totals are recomputed."""
        index = self._index(number)
        rounds = list(self.rounds)
        rounds[index] = _entry(points, closer, number)
        sheet = Sheet(self.players, tuple(rounds))
        sheet.result()
        return sheet

    def remove_round(self, number: int) -> Sheet:
        """The sheet without round ``number`` (1-based)."""
        index = self._index(number)
        sheet = Sheet(self.players, self.rounds[:index] + self.rounds[index + 1 :])
        sheet.result()
        return sheet

    def _index(self, number: int) -> int:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.rounds):
            raise RulezzError("bad_round_index", f"There is no round {number!r}.")
        return number - 1


# -- validation --------------------------------------------------------------------------------------
def _entry(points: Any, closer: Any, number: int) -> RoundEntry:
    """A round as entered, its points copied (the sheet is immutable); checked by ``score_sheet``."""
    if not isinstance(points, Mapping):
        raise RulezzError("bad_round", f"Round {number} has no points per player.", round_number=number)
    return RoundEntry(dict(points), closer)


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise RulezzError("bad_players", "Players are a list of names.")
    if len(players) < MIN_PLAYERS:
        raise RulezzError("too_few_players", f"Skyjo needs at least {MIN_PLAYERS} players.")
    if len(players) > MAX_PLAYERS:
        raise RulezzError("too_many_players", f"Skyjo takes at most {MAX_PLAYERS} players.")
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RulezzError("bad_player_name", f"{name!r} is not a player name.")
        if name in seen:
            raise RulezzError("duplicate_player", f"{name!r} appears twice.", player=name)
        seen.add(name)
    return tuple(players)


def _check_round(
    names: tuple[str, ...], entry: RoundEntry | Mapping[str, Any], number: int
) -> tuple[dict[str, int], str]:
    if isinstance(entry, RoundEntry):
        points_in: Any = entry.points
        closer_in: Any = entry.closer
    elif isinstance(entry, Mapping):
        points_in = entry.get("points")
        closer_in = entry.get("closer")
    else:
        raise RulezzError("bad_round", f"Round {number} is not a round.", round_number=number)
    if not isinstance(points_in, Mapping):
        raise RulezzError("bad_round", f"Round {number} has no points per player.", round_number=number)
    for name in points_in:
        if name not in names:
            raise RulezzError(
                "unknown_player",
                f"Round {number}: {name!r} is not playing.",
                round_number=number,
                player=name,
            )
    points: dict[str, int] = {}
    for name in names:
        if name not in points_in:
            raise RulezzError(
                "missing_player", f"Round {number}: no points for {name}.", round_number=number, player=name
            )
        value = points_in[name]
        if isinstance(value, float) and not isinstance(value, bool):
            raise RulezzError(
                "not_an_integer",
                f"Round {number}: {name}'s points must be a whole number, not {value!r}.",
                round_number=number,
                player=name,
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulezzError(
                "not_a_number",
                f"Round {number}: {name}'s points {value!r} are not a number.",
                round_number=number,
                player=name,
            )
        if not MIN_POINTS <= value <= MAX_POINTS:
            raise RulezzError(
                "out_of_range",
                f"Round {number}: {name}'s points {value} are outside {MIN_POINTS}..{MAX_POINTS}.",
                round_number=number,
                player=name,
            )
        points[name] = value
    return points, _check_closer(names, closer_in, number)


def _check_closer(names: tuple[str, ...], closer: Any, number: int) -> str:
    if isinstance(closer, (list, tuple, set, frozenset)):
        chosen = list(closer)
        if len(chosen) > 1:
            raise RulezzError(
                "several_closers", f"Round {number}: exactly one player closes a round.", round_number=number
            )
        closer = chosen[0] if chosen else None
    if closer is None or closer == "":
        raise RulezzError("no_closer", f"Round {number}: say who closed the round.", round_number=number)
    if not isinstance(closer, str) or closer not in names:
        raise RulezzError(
            "unknown_closer", f"Round {number}: the closer {closer!r} is not playing.", round_number=number
        )
    return closer


__all__ = [
    "END_AT",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MIN_PLAYERS",
    "MIN_POINTS",
    "RoundEntry",
    "RulezzError",
    "ScoredRound",
    "Sheet",
    "SheetResult",
    "closer_is_doubled",
    "game_over",
    "placements",
    "round_scores",
    "score_sheet",
    "winners",
]
