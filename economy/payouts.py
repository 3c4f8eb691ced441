"""Pure coin and XP arithmetic for Tapete (no Django; ``mypy --strict`` clean).

Every function takes a table's results **in seat order**: ``places[i]`` is the rank of
seat ``i`` (1 is best, tied seats share a rank, standard competition ranking as the
engines return it: 1, 1, 3, 4). Amounts are integers; rounding is always down.

Rules implemented (docs/economy.md, ../shared/rules/platform.md):

* PF-17/PF-53 ``split_pot``: the whole pot goes to the seats in 1st place, equally; the
  indivisible remainder is paid one coin at a time to those seats in seat order, so the
  pot ends at exactly 0 and the house takes nothing.
* PF-57 ``game_coins``: base rate B per game; against bots nothing; friends room B // 2
  to each 1st place; online place p of N pays B * (N - p + 1) // N, and seats sharing a
  place get the mean of the places they span, rounded down.
* PF-13/PF-14 ``rewarded_seats``: a friends game pays only the people who played it, and only
  when at least two did (one person and bots is practice).
* PF-58 ``game_xp``: the same shape with 10 * (N - p + 1) online and 5 for a friends win;
  ``level_for_xp``: level n is reached at 100 * (n - 1) ** 2 XP.
* PF-59 ``boosted``: the gold booster (x2) and VIP pass (x3/2) multiply each other and
  round down; they apply to game rewards only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import isqrt
from typing import Final, Literal

from cardgames.catalogue import CATALOGUE

Mode = Literal["bots", "friends", "online"]
MODES: Final[tuple[Mode, ...]] = ("bots", "friends", "online")

STAKES: Final[tuple[int, ...]] = (100, 250, 500, 1000)
#: PF-57: base rate B per game, from the one game catalogue
BASE_RATES: Final[dict[str, int]] = {slug: spec.base_rate for slug, spec in CATALOGUE.items()}
WELCOME_GRANT: Final[int] = 1000
DAILY_BONUS: Final[int] = 100
LEAGUE_PRIZES: Final[tuple[int, ...]] = (1000, 500, 250)
#: PF-13/PF-14 (issue 26): a friends game pays only when at least this many people played it
FRIENDS_MIN_PEOPLE: Final[int] = 2

# Shop items (PF-59): price in coins, duration in hours, reward multiplier.
ITEM_PRICES: Final[dict[str, int]] = {"gold_booster": 300, "vip_pass": 2000}
ITEM_HOURS: Final[dict[str, int]] = {"gold_booster": 24, "vip_pass": 30 * 24}
ITEM_MULTIPLIERS: Final[dict[str, Fraction]] = {"gold_booster": Fraction(2), "vip_pass": Fraction(3, 2)}

# No single movement may exceed this many coins: a sanity bound, far above any real amount.
MAX_AMOUNT: Final[int] = 10**12


def validate_places(places: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``places`` is a standard competition ranking.

    Sorted, the ranks must read 1, then each rank repeats k times and the next is k higher
    (1, 1, 3, 4 is valid; 1, 2, 2, 2 is valid; 1, 1, 2 and 2, 3 are not).
    """
    if not places:
        raise ValueError("no places")
    for p in places:
        if isinstance(p, bool) or not isinstance(p, int):
            raise ValueError(f"place {p!r} is not an integer")
    ordered = sorted(places)
    for rank in ordered:
        if rank != ordered.index(rank) + 1:
            raise ValueError(f"places {list(places)} are not a competition ranking")


def split_pot(total: int, places: Sequence[int]) -> list[int]:
    """Share ``total`` coins among the seats in 1st place (PF-53); returns seat-order amounts.

    The amounts sum to ``total`` exactly; seats not in 1st place get 0; the first
    ``total % winners`` winners in seat order get one coin more than the others.
    """
    validate_places(places)
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise ValueError(f"pot total {total!r} must be a non-negative integer")
    winners = [seat for seat, place in enumerate(places) if place == 1]
    share, remainder = divmod(total, len(winners))
    amounts = [0] * len(places)
    for order, seat in enumerate(winners):
        amounts[seat] = share + (1 if order < remainder else 0)
    return amounts


def _shared_mean(schedule: Sequence[int], places: Sequence[int]) -> list[int]:
    """Seat-order amounts: a seat at rank r shared by k seats gets mean(schedule[r-1 : r-1+k])."""
    validate_places(places)
    counts: dict[int, int] = {}
    for p in places:
        counts[p] = counts.get(p, 0) + 1
    result = []
    for p in places:
        span = schedule[p - 1 : p - 1 + counts[p]]
        result.append(sum(span) // len(span))
    return result


def online_schedule(base: int, players: int) -> list[int]:
    """Untied online amounts by place: place p of N pays base * (N - p + 1) // N."""
    if players < 1:
        raise ValueError("a table has at least one seat")
    return [base * (players - p + 1) // players for p in range(1, players + 1)]


def game_coins(mode: Mode, base: int, places: Sequence[int]) -> list[int]:
    """Coins per seat before boosters (PF-57). Simulated seats are zeroed by the caller."""
    validate_places(places)
    if base < 0:
        raise ValueError("base rate must not be negative")
    if mode == "bots":
        return [0] * len(places)
    if mode == "friends":
        return [base // 2 if p == 1 else 0 for p in places]
    if mode == "online":
        return _shared_mean(online_schedule(base, len(places)), places)
    raise ValueError(f"unknown mode {mode!r}")


def rewarded_seats(mode: Mode, played: Sequence[bool]) -> list[bool]:
    """Which seats a game's rewards may reach (PF-13, PF-14; issue 26).

    ``played[i]``: seat ``i`` is a person (registered or guest) who played the game themselves
    (the table service decides: their own moves at least as many as those made for them). A
    friends game pays only the seats whose person played, and nobody at all unless at least
    ``FRIENDS_MIN_PEOPLE`` did: one person among bots is practice, which pays nothing (PF-13),
    whatever the room's mode. Other modes decide as before (simulated seats zeroed by the caller).
    """
    if mode != "friends":
        return [True] * len(played)
    if sum(1 for p in played if p) < FRIENDS_MIN_PEOPLE:
        return [False] * len(played)
    return [bool(p) for p in played]


def game_xp(mode: Mode, places: Sequence[int]) -> list[int]:
    """XP per seat before boosters (PF-58)."""
    validate_places(places)
    if mode == "bots":
        return [0] * len(places)
    if mode == "friends":
        return [5 if p == 1 else 0 for p in places]
    if mode == "online":
        n = len(places)
        return _shared_mean([10 * (n - p + 1) for p in range(1, n + 1)], places)
    raise ValueError(f"unknown mode {mode!r}")


def multiplier(items: Iterable[str]) -> Fraction:
    """The product of the multipliers of the distinct active items (PF-59)."""
    result = Fraction(1)
    for item in set(items):
        result *= ITEM_MULTIPLIERS[item]
    return result


def boosted(amount: int, items: Iterable[str]) -> int:
    """``amount`` times the active items' multipliers, rounded down (x2, x1.5, x3 together)."""
    if amount < 0:
        raise ValueError("amount must not be negative")
    factor = multiplier(items)
    return amount * factor.numerator // factor.denominator


def level_for_xp(xp: int) -> int:
    """The level reached with ``xp`` XP: level n starts at 100 * (n - 1) ** 2 (PF-58)."""
    if xp < 0:
        raise ValueError("xp must not be negative")
    return isqrt(xp // 100) + 1


def xp_for_level(level: int) -> int:
    """The XP at which ``level`` starts."""
    if level < 1:
        raise ValueError("levels start at 1")
    return 100 * (level - 1) ** 2
