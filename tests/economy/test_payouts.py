"""Pure payout arithmetic (economy/payouts.py): examples from the rules and properties."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from economy import payouts


@st.composite
def rankings(draw: st.DrawFn, min_size: int = 1, max_size: int = 12) -> list[int]:
    """A standard competition ranking in a random seat order (ties allowed)."""
    n = draw(st.integers(min_size, max_size))
    groups: list[int] = []
    while sum(groups) < n:
        groups.append(draw(st.integers(1, n - sum(groups))))
    places: list[int] = []
    rank = 1
    for size in groups:
        places += [rank] * size
        rank += size
    return draw(st.permutations(places))


# --- examples straight from the rules --------------------------------------------------


def test_pf53_single_winner_takes_whole_pot() -> None:
    assert payouts.split_pot(400, [2, 1, 3, 4]) == [0, 400, 0, 0]


def test_pf53_tied_winners_split_and_remainder_goes_in_seat_order() -> None:
    # three winners of a 1000 pot: 334, 333, 333 in seat order
    assert payouts.split_pot(1000, [4, 1, 1, 1]) == [0, 334, 333, 333]
    assert payouts.split_pot(500, [1, 4, 1, 1]) == [167, 0, 167, 166]


def test_pf57_online_places_for_four_players() -> None:
    assert payouts.game_coins("online", 100, [1, 2, 3, 4]) == [100, 75, 50, 25]
    assert payouts.game_coins("online", 50, [4, 3, 2, 1]) == [12, 25, 37, 50]


def test_pf57_shared_places_get_mean_rounded_down() -> None:
    # places 2 and 3 of 4 with B = 50 pay 37 and 25: the mean is 31
    assert payouts.game_coins("online", 50, [1, 2, 2, 4]) == [50, 31, 31, 12]
    # Guandan: teams 1, 1, 3, 3 with B = 100 -> (100 + 75) // 2, (50 + 25) // 2
    assert payouts.game_coins("online", 100, [1, 3, 1, 3]) == [87, 37, 87, 37]


def test_pf57_friends_pays_half_rate_to_first_places_only() -> None:
    assert payouts.game_coins("friends", 80, [2, 1, 3]) == [0, 40, 0]
    assert payouts.game_coins("friends", 100, [1, 3, 1, 3]) == [50, 0, 50, 0]


def test_pf57_bots_pay_nothing() -> None:
    assert payouts.game_coins("bots", 100, [1, 2]) == [0, 0]
    assert payouts.game_xp("bots", [1, 2]) == [0, 0]


def test_pf58_xp_and_levels() -> None:
    assert payouts.game_xp("online", [1, 2, 3, 4]) == [40, 30, 20, 10]
    assert payouts.game_xp("friends", [1, 2]) == [5, 0]
    assert [payouts.level_for_xp(x) for x in (0, 99, 100, 399, 400, 900)] == [1, 1, 2, 2, 3, 4]
    assert payouts.xp_for_level(3) == 400


def test_pf59_multipliers_multiply_and_round_down() -> None:
    assert payouts.boosted(75, ["gold_booster"]) == 150
    assert payouts.boosted(75, ["vip_pass"]) == 112
    assert payouts.boosted(75, ["gold_booster", "vip_pass"]) == 225
    assert payouts.boosted(37, ["vip_pass", "vip_pass"]) == 55  # one pass counts once


@pytest.mark.parametrize("places", [[], [2], [1, 1, 2], [1, 3], [0, 1], [True, 2]])
def test_invalid_rankings_are_refused(places: list[int]) -> None:
    with pytest.raises(ValueError):
        payouts.validate_places(places)


def test_negative_pot_is_refused() -> None:
    with pytest.raises(ValueError):
        payouts.split_pot(-1, [1])


# --- properties ------------------------------------------------------------------------


@given(total=st.integers(0, 10**9), places=rankings())
def test_pot_split_conserves_and_pays_only_first_place(total: int, places: list[int]) -> None:
    amounts = payouts.split_pot(total, places)
    assert sum(amounts) == total
    assert all(a >= 0 for a in amounts)
    assert all(a == 0 for a, p in zip(amounts, places, strict=True) if p != 1)
    winners = [a for a, p in zip(amounts, places, strict=True) if p == 1]
    assert max(winners) - min(winners) <= 1  # ties equal, up to the one-coin remainder
    assert winners == sorted(winners, reverse=True)  # the remainder goes in seat order


@given(base=st.integers(0, 10_000), places=rankings(), mode=st.sampled_from(payouts.MODES))
def test_rewards_never_negative_decrease_by_place_and_ties_equal(
    base: int, places: list[int], mode: payouts.Mode
) -> None:
    for amounts in (payouts.game_coins(mode, base, places), payouts.game_xp(mode, places)):
        assert all(a >= 0 for a in amounts)
        by_place = sorted(zip(places, amounts, strict=True))
        for (p1, a1), (p2, a2) in itertools.pairwise(by_place):
            assert a1 >= a2  # a better place never earns less
            if p1 == p2:
                assert a1 == a2  # shared places earn the same


@given(base=st.integers(0, 10_000), places=rankings())
def test_online_ties_never_pay_more_than_the_places_they_span(base: int, places: list[int]) -> None:
    schedule = payouts.online_schedule(base, len(places))
    assert sum(payouts.game_coins("online", base, places)) <= sum(schedule)
    untied = list(range(1, len(places) + 1))
    assert sum(payouts.game_coins("online", base, untied)) == sum(schedule)


@given(
    amount=st.integers(0, 10**9),
    items=st.lists(st.sampled_from(sorted(payouts.ITEM_PRICES)), max_size=3),
)
def test_boost_is_floor_of_product(amount: int, items: list[str]) -> None:
    factor = Fraction(1)
    for item in set(items):
        factor *= payouts.ITEM_MULTIPLIERS[item]
    assert payouts.boosted(amount, items) == int(amount * factor) >= amount


def test_pf13_friends_rewards_reach_the_people_who_played_and_only_two_or_more() -> None:
    """Issue 26 (3): ``rewarded_seats`` — friends games need two people who played."""
    assert payouts.rewarded_seats("friends", [True, False, False, False]) == [False] * 4
    assert payouts.rewarded_seats("friends", [True, True, False]) == [True, True, False]
    assert payouts.rewarded_seats("friends", []) == []
    assert payouts.rewarded_seats("online", [True, False]) == [True, True]  # online decides as before
