"""Rulezz scoring (SK-22 to SK-26, SK-35 to SK-39): doubling, totals, the end at 100, validation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.rulezz import (
    MAX_POINTS,
    MIN_POINTS,
    RoundEntry,
    RulezzError,
    Sheet,
    closer_is_doubled,
    game_over,
    placements,
    round_scores,
    score_sheet,
    winners,
)

ABC = ["A", "B", "C"]


def rnd(points: dict[str, Any], closer: Any) -> dict[str, Any]:
    return {"points": points, "closer": closer}


# -- SK-22/SK-23/SK-37: the doubling ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("points", "closer", "scores"),
    [
        pytest.param({"A": 10, "B": 10, "C": 25}, "B", {"A": 10, "B": 20, "C": 25}, id="sk_t12_tie_doubles"),
        pytest.param({"A": 10, "B": 9, "C": 25}, "B", {"A": 10, "B": 9, "C": 25}, id="sk_t13_exclusive"),
        pytest.param({"A": -3, "B": 0, "C": 5}, "B", {"A": -3, "B": 0, "C": 5}, id="sk_t14_zero"),
        pytest.param({"A": -5, "B": -2, "C": 5}, "B", {"A": -5, "B": -2, "C": 5}, id="sk_t15_negative"),
        pytest.param({"A": 4, "B": 15, "C": 30}, "B", {"A": 4, "B": 30, "C": 30}, id="sk_t16_beaten"),
    ],
)
def test_closer_doubling_scenarios(points: dict[str, int], closer: str, scores: dict[str, int]) -> None:
    result = score_sheet(ABC, [rnd(points, closer)])
    assert result.rounds[0].scores == scores
    assert result.rounds[0].doubled == (scores[closer] != points[closer])
    assert result.rounds[0].points == points


def test_sk_t22_rulezz_doubling() -> None:
    first = score_sheet(ABC, [rnd({"A": 12, "B": 12, "C": 30}, "A")])
    assert first.rounds[0].scores == {"A": 24, "B": 12, "C": 30}
    second = score_sheet(["A", "B"], [rnd({"A": -4, "B": -6}, "A")])
    assert second.rounds[0].scores == {"A": -4, "B": -6} and not second.rounds[0].doubled


def test_sk_t23_rulezz_end_and_lowest_total_wins() -> None:
    rounds = [rnd({"A": 50, "B": 30, "C": 20}, "C"), rnd({"A": 55, "B": 10, "C": 40}, "B")]
    result = score_sheet(ABC, rounds)
    assert result.totals == {"A": 105, "B": 40, "C": 60}
    assert result.over and result.winners == ("B",)
    assert result.placements == {"A": 3, "B": 1, "C": 2}
    assert [r.totals for r in result.rounds] == [{"A": 50, "B": 30, "C": 20}, {"A": 105, "B": 40, "C": 60}]


def test_sk_t17_totals_cross_100() -> None:
    zero = rnd({"A": 0, "B": 0, "C": 0}, "A")
    rounds = [zero] * 4 + [rnd({"A": 88, "B": 70, "C": 95}, "B"), RoundEntry({"A": 15, "B": 20, "C": 3}, "C")]
    result = score_sheet(ABC, rounds)
    assert result.totals == {"A": 103, "B": 90, "C": 98} and result.over and result.winners == ("B",)


def test_sk_25_no_end_below_100_and_the_end_at_exactly_100() -> None:
    going = score_sheet(ABC, [rnd({"A": 99, "B": 10, "C": 5}, "C")])
    assert not going.over and going.winners == ()
    ended = score_sheet(ABC, [rnd({"A": 100, "B": 10, "C": 5}, "C")])
    assert ended.over and ended.winners == ("C",)


def test_sk_26_tied_lowest_totals_share_the_win() -> None:
    result = score_sheet(ABC, [rnd({"A": 120, "B": 10, "C": 10}, "A")])
    assert result.totals == {"A": 240, "B": 10, "C": 10}  # the closer A is beaten: doubled
    assert result.winners == ("B", "C") and result.placements == {"A": 3, "B": 1, "C": 1}


def test_index_helpers_used_by_the_engine() -> None:
    assert closer_is_doubled([10, 10], 0) and not closer_is_doubled([10, 11], 0)
    assert round_scores([3, 3, 3], 2) == [3, 3, 6]
    assert game_over([99, 100]) and not game_over([99, 0])
    assert placements([5, 3, 5, 9]) == [2, 1, 2, 4]
    assert winners([5, 3, 3]) == [1, 2]


def test_sk_22_to_sk_26_one_implementation_rulezz_scores_with_the_skyjo_engines_functions() -> None:
    """SK-37: the assistant applies the same doubling as the game; the engine owns it (engines
    import nothing outside ``cardgames.engines``), Rulezz imports it."""
    import cardgames.rulezz as rulezz
    from cardgames.engines.skyjo import scoring as engine_scoring

    for name in ("END_AT", "closer_is_doubled", "round_scores", "game_over", "placements", "winners"):
        assert getattr(rulezz, name) is getattr(engine_scoring, name), name
    assert engine_scoring.add_scores([90, 40], [12, -2]) == [102, 38]
    # SK-T17-like: the sheet's totals are the engine's running totals
    sheet = score_sheet(["A", "B"], [rnd({"A": 90, "B": 40}, "B"), rnd({"A": 12, "B": -2}, "B")])
    assert sheet.totals == {"A": 102, "B": 38} and sheet.over and sheet.winners == ("B",)


# -- SK-39: validation -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "code"),
    [
        ("AB", "bad_players"),
        (["A"], "too_few_players"),
        ([str(i) + "x" for i in range(9)], "too_many_players"),
        (["A", ""], "bad_player_name"),
        (["A", "  "], "bad_player_name"),
        (["A", 3], "bad_player_name"),
        (["A", "A"], "duplicate_player"),
    ],
)
def test_bad_players(players: Any, code: str) -> None:
    with pytest.raises(RulezzError) as err:
        score_sheet(players, [])
    assert err.value.code == code


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ("nope", "bad_round"),
        ({"closer": "A"}, "bad_round"),
        (rnd({"A": 1, "B": 2, "C": 3, "D": 4}, "A"), "unknown_player"),
        (rnd({"A": 1, "B": 2}, "A"), "missing_player"),
        (rnd({"A": "1", "B": 2, "C": 3}, "A"), "not_a_number"),
        (rnd({"A": None, "B": 2, "C": 3}, "A"), "not_a_number"),
        (rnd({"A": True, "B": 2, "C": 3}, "A"), "not_a_number"),
        (rnd({"A": 1.5, "B": 2, "C": 3}, "A"), "not_an_integer"),
        (rnd({"A": float("nan"), "B": 2, "C": 3}, "A"), "not_an_integer"),
        (rnd({"A": MIN_POINTS - 1, "B": 2, "C": 3}, "A"), "out_of_range"),
        (rnd({"A": MAX_POINTS + 1, "B": 2, "C": 3}, "A"), "out_of_range"),
        (rnd({"A": 1, "B": 2, "C": 3}, None), "no_closer"),
        (rnd({"A": 1, "B": 2, "C": 3}, ""), "no_closer"),
        (rnd({"A": 1, "B": 2, "C": 3}, []), "no_closer"),
        (rnd({"A": 1, "B": 2, "C": 3}, ["A", "B"]), "several_closers"),
        (rnd({"A": 1, "B": 2, "C": 3}, "Z"), "unknown_closer"),
        (rnd({"A": 1, "B": 2, "C": 3}, 0), "unknown_closer"),
    ],
)
def test_bad_rounds(entry: Any, code: str) -> None:
    with pytest.raises(RulezzError) as err:
        score_sheet(ABC, [rnd({"A": 0, "B": 0, "C": 0}, "A"), entry])
    assert err.value.code == code
    assert err.value.round_number == 2
    assert isinstance(err.value, ValueError) and err.value.as_dict()["code"] == code


def test_the_extremes_of_sk_39_are_accepted_and_a_one_element_closer_list_too() -> None:
    result = score_sheet(["A", "B"], [rnd({"A": MIN_POINTS, "B": MAX_POINTS}, ["A"])])
    assert result.totals == {"A": -17, "B": 142} and result.over


def test_no_round_after_the_end() -> None:
    rounds = [rnd({"A": 100, "B": 0}, "B"), rnd({"A": 0, "B": 0}, "B")]
    with pytest.raises(RulezzError) as err:
        score_sheet(["A", "B"], rounds)
    assert err.value.code == "round_after_end" and err.value.round_number == 2


def test_sheet_edits_recompute_the_totals() -> None:
    sheet = Sheet(("A", "B")).add_round({"A": 10, "B": 20}, "A").add_round({"A": 30, "B": 5}, "B")
    assert sheet.result().totals == {"A": 40, "B": 25}
    edited = sheet.replace_round(1, {"A": 30, "B": 20}, "A")  # now A is beaten: 30 x 2
    assert edited.result().totals == {"A": 90, "B": 25}
    assert sheet.result().totals == {"A": 40, "B": 25}  # the old sheet is unchanged
    assert edited.remove_round(2).result().totals == {"A": 60, "B": 20}
    with pytest.raises(RulezzError) as err:
        sheet.replace_round(3, {"A": 0, "B": 0}, "A")
    assert err.value.code == "bad_round_index"
    ended = sheet.add_round({"A": 70, "B": 0}, "B")
    with pytest.raises(RulezzError):
        ended.add_round({"A": 0, "B": 0}, "A")
    with pytest.raises(RulezzError):
        sheet.replace_round(1, {"A": 500, "B": 0}, "A")
    assert ended.result().as_dict()["winners"] == ["B"]


# -- properties -------------------------------------------------------------------------------------
points_st = st.integers(min_value=MIN_POINTS, max_value=MAX_POINTS)


@st.composite
def sheets(draw: st.DrawFn) -> tuple[list[str], list[dict[str, Any]]]:
    n = draw(st.integers(min_value=2, max_value=8))
    players = [f"P{i}" for i in range(n)]
    rounds: list[dict[str, Any]] = []
    totals = [0] * n
    for _ in range(draw(st.integers(min_value=0, max_value=12))):
        if max(totals) >= 100:
            break
        raw = draw(st.lists(points_st, min_size=n, max_size=n))
        closer = draw(st.integers(min_value=0, max_value=n - 1))
        rounds.append(rnd(dict(zip(players, raw, strict=True)), players[closer]))
        totals = [t + s for t, s in zip(totals, round_scores(raw, closer), strict=True)]
    return players, rounds


@settings(max_examples=200, deadline=None)
@given(sheets())
def test_properties_of_any_valid_sheet(sheet: tuple[list[str], list[dict[str, Any]]]) -> None:
    players, rounds = sheet
    result = score_sheet(players, rounds)
    for scored, entry in zip(result.rounds, rounds, strict=True):
        for name in players:
            raw, score = entry["points"][name], scored.scores[name]
            if name != entry["closer"]:
                assert score == raw  # SK-23
            else:
                assert score in (raw, 2 * raw)
                others = [entry["points"][o] for o in players if o != name]
                assert (score == 2 * raw and raw != 0) == (raw > 0 and min(others) <= raw)  # SK-22
                assert score >= raw or raw < 0  # doubling never lowers a score
    for name in players:
        assert result.totals[name] == sum(r.scores[name] for r in result.rounds)  # SK-24
    assert result.over == any(t >= 100 for t in result.totals.values())  # SK-25
    ended = [i for i, r in enumerate(result.rounds) if max(r.totals.values()) >= 100]
    assert ended in ([], [len(result.rounds) - 1])  # nothing is scored after the end
    if result.over:
        low = min(result.totals.values())
        assert set(result.winners) == {n for n in players if result.totals[n] == low}  # SK-26
    places = result.placements
    for name in players:
        assert places[name] == 1 + sum(1 for o in players if result.totals[o] < result.totals[name])


@settings(max_examples=100, deadline=None)
@given(raw=st.lists(points_st, min_size=2, max_size=8), data=st.data())
def test_property_only_a_positive_beaten_or_tied_closer_doubles(raw: list[int], data: st.DataObject) -> None:
    closer = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
    scores = round_scores(raw, closer)
    exclusively_lowest = all(raw[closer] < r for i, r in enumerate(raw) if i != closer)
    if raw[closer] <= 0 or exclusively_lowest:
        assert scores == raw
    else:
        assert scores[closer] == 2 * raw[closer]
        assert scores[:closer] + scores[closer + 1 :] == raw[:closer] + raw[closer + 1 :]


@pytest.mark.parametrize("points", ["A=1", None, [("A", 1), ("B", 2)], 7])
def test_an_edit_without_points_per_player_is_a_bad_round_numbered_as_entered(points: Any) -> None:
    """SK-39: a sheet refuses a round whose points are not given per player, with its number."""
    sheet = Sheet(("A", "B")).add_round({"A": 10, "B": 20}, "A")
    with pytest.raises(RulezzError) as added:
        sheet.add_round(points, "A")
    assert (added.value.code, added.value.round_number) == ("bad_round", 2)
    with pytest.raises(RulezzError) as replaced:
        sheet.replace_round(1, points, "A")
    assert (replaced.value.code, replaced.value.round_number) == ("bad_round", 1)
