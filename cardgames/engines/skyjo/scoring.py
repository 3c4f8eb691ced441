"""Skyjo scoring by seat index: closer doubling, round scores, totals, the end at 100, places.

One implementation for two users: the Skyjo engine (``moves.score_round``, ``SkyjoEngine.result``)
and the Rulezz assistant (``cardgames.rulezz.scoring``, which adds its own input checks and names).
Pure: no Django, no I/O, nothing outside the standard library and ``cardgames.engines``.

- SK-22: the closer's raw score is doubled when it is **positive** and some other player's raw score
  is **less than or equal** to it (a tie is not "exclusively lowest"); zero and negative scores are
  never doubled.
- SK-23: nobody else is ever doubled.
- SK-24: round scores add up to running totals.
- SK-25: after a round, a total of 100 or more ends the game; the lowest total wins.
- SK-26: ties share the win; places use competition ranking (1, 2, 2, 4).

>>> round_scores([12, 12, 30], 0), round_scores([-4, -6], 0)
([24, 12, 30], [-4, -6])
>>> add_scores([90, 40], [12, 3]), game_over([102, 43]), winners([102, 43]), placements([5, 9, 5])
([102, 43], True, [1], [1, 3, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..base import placements_from_scores

#: SK-25: the game ends after a round in which someone reaches this total.
END_AT: Final[int] = 100


def closer_is_doubled(raw: Sequence[int], closer: int) -> bool:
    """SK-22: is the closer's score doubled? Positive, and not exclusively the lowest (a tie doubles)."""
    mine = raw[closer]
    return mine > 0 and any(score <= mine for i, score in enumerate(raw) if i != closer)


def round_scores(raw: Sequence[int], closer: int) -> list[int]:
    """SK-22/SK-23: the scores added to the totals; only the closer's can differ from ``raw``."""
    scores = list(raw)
    if closer_is_doubled(raw, closer):
        scores[closer] *= 2
    return scores


def add_scores(totals: Sequence[int], scores: Sequence[int]) -> list[int]:
    """SK-24: the running totals after a round's scores (one per seat, same order)."""
    return [total + score for total, score in zip(totals, scores, strict=True)]


def game_over(totals: Sequence[int]) -> bool:
    """SK-25: after a scored round, does some total reach 100 or more?"""
    return any(total >= END_AT for total in totals)


def placements(totals: Sequence[int]) -> list[int]:
    """SK-26: competition ranking by total, lowest first (1, 2, 2, 4)."""
    return placements_from_scores(list(totals))


def winners(totals: Sequence[int]) -> list[int]:
    """SK-25/SK-26: every index holding the lowest total."""
    best = min(totals)
    return [i for i, total in enumerate(totals) if total == best]


__all__ = ["END_AT", "add_scores", "closer_is_doubled", "game_over", "placements", "round_scores", "winners"]
