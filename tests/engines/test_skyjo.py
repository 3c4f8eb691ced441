"""Skyjo engine: the conformance scenarios SK-T01..SK-T24 and the rules without a scenario.

Rules: ../shared/rules/skyjo.md. Most set-ups use ``options["deck"]`` (a fixed
deal: 12 cards a seat, the discard starter, then the draw pile, top first); a few
defensive ones (SK-T21) or late-round situations load an edited ``dump``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from cardgames.engines import IllegalAction, get_engine
from cardgames.engines.skyjo import COUNTS, FULL_DECK, SkyjoState
from cardgames.engines.skyjo.scoring import round_scores
from cardgames.rulezz import RoundEntry, score_sheet
from tests.engines.harness import cards_in, final_state, leaked, rejects

eng = get_engine("skyjo")

#: a grid (positions 0-11, reading order) without any column triple and without an 11
FILL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 0]
#: a grid worth 7 points without a column triple, so a round can end without ending the game
LOW = [1, 2, 0, -1, 0, 1, 2, -1, 2, 0, 1, 0]


def pos(column: int, row: int) -> int:
    """Rules notation c<column>r<row> (1-based) to the wire position (design.md)."""
    return 4 * (row - 1) + (column - 1)


def make_deck(grids: list[list[int]], starter: int, draw: list[int]) -> list[str]:
    return [str(v) for grid in grids for v in grid] + [str(starter)] + [str(v) for v in draw]


def play(state: Any, seat: Any, action: dict[str, Any]) -> Any:
    before = json.dumps(eng.dump(state), sort_keys=True)
    new, events = eng.apply(state, seat, action)
    assert json.dumps(eng.dump(state), sort_keys=True) == before, "apply mutated its input"
    assert isinstance(events, list)
    for viewer in [None, *range(new.n)]:
        assert not leaked(eng, new, viewer)
    return new


def reveal_all(state: Any, picks: dict[int, tuple[int, int]] | None = None) -> Any:
    """Every seat reveals two cards (positions 0 and 1 unless ``picks`` says otherwise)."""
    for seat in range(state.n):
        for p in (picks or {}).get(seat, (0, 1)):
            state = play(state, seat, {"type": "reveal", "pos": p})
    return state


def edit(state: Any, **changes: Any) -> Any:
    data = eng.dump(state)
    data.update(changes)
    return eng.load(json.loads(json.dumps(data)))


def grid_view(state: Any, viewer: int | None, seat: int) -> list[str]:
    return eng.view(state, viewer)["grids"][seat]


def started(grids: list[list[int]], starter: int, draw: list[int], **options: Any) -> Any:
    """A game dealt from a fixed deck with every seat's positions 0 and 1 revealed."""
    state = eng.new_game(len(grids), seed=1, options={"deck": make_deck(grids, starter, draw), **options})
    return reveal_all(state)


def finish_turn(state: Any) -> Any:
    """The current seat draws and discards-and-reveals its first face-down card (or swaps into pos 0)."""
    seat = eng.to_act(state)[0]
    state = play(state, seat, {"type": "draw"})
    legal = eng.legal_actions(state, seat)
    reveal = [a for a in legal if a["type"] == "discard_and_reveal"]
    return play(state, seat, reveal[0] if reveal else legal[0])


# -- the conformance scenarios ---------------------------------------------------------------------
def test_sk_t01_deck_has_150_cards_summing_to_760() -> None:
    assert len(FULL_DECK) == 150
    assert Counter(FULL_DECK) == COUNTS
    assert COUNTS[-2] == 5 and COUNTS[-1] == 10 and COUNTS[0] == 15
    assert all(COUNTS[v] == 10 for v in range(1, 13))
    assert sum(FULL_DECK) == 760
    state = eng.new_game(4, seed=5)
    assert eng.all_cards(state) == Counter({str(v): c for v, c in COUNTS.items()})
    assert eng.card_codes == frozenset(str(v) for v in range(-2, 13))


def test_sk_t02_deal_and_simultaneous_reveal_of_two() -> None:
    state = eng.new_game(3, seed=11)
    view = eng.view(state, 0)
    assert [len(g) for g in view["grids"]] == [12, 12, 12]
    assert all(cell == "hidden" for grid in view["grids"] for cell in grid)
    assert view["discard_size"] == 1 and view["draw_size"] == 113
    assert eng.to_act(state) == [0, 1, 2]  # all at the same time (SK-5)
    for seat in range(3):
        rejects(eng, state, seat, {"type": "take_discard"})
        rejects(eng, state, seat, {"type": "draw"})
    state = play(state, 0, {"type": "reveal", "pos": 3})
    state = play(state, 0, {"type": "reveal", "pos": 7})
    assert rejects(eng, state, 0, {"type": "reveal", "pos": 5}).code == "reveal_limit"
    assert eng.legal_actions(state, 0) == []
    state = play(state, 2, {"type": "reveal", "pos": 0})
    for seat in range(3):
        rejects(eng, state, seat, {"type": "draw"})
    state = play(state, 1, {"type": "reveal", "pos": 0})
    state = play(state, 2, {"type": "reveal", "pos": 11})
    state = play(state, 1, {"type": "reveal", "pos": 1})
    assert len(eng.to_act(state)) == 1
    seat = eng.to_act(state)[0]
    assert eng.legal_actions(state, seat) == [{"type": "take_discard"}, {"type": "draw"}]


def test_sk_t03_round_one_tie_on_sum_goes_to_higher_single_card() -> None:
    grids = [[5, 7, *FILL[2:]], [12, 0, *FILL[2:]], [3, 3, *FILL[2:]]]
    state = started(grids, 4, [1] * 20)
    assert eng.to_act(state) == [1]


def test_sk_t04_a_taken_discard_card_must_be_swapped() -> None:
    state = started([FILL, FILL], 4, [9] * 10)
    seat = eng.to_act(state)[0]
    state = play(state, seat, {"type": "take_discard"})
    err = rejects(eng, state, seat, {"type": "discard_and_reveal", "pos": 5})
    assert err.code == "must_swap"
    legal = eng.legal_actions(state, seat)
    assert legal == [{"type": "swap", "pos": p} for p in range(12)]
    rejects(eng, state, seat, {"type": "take_discard"})
    rejects(eng, state, seat, {"type": "draw"})


def test_sk_t05_blind_swap_shows_the_hidden_card_only_once_discarded() -> None:
    # the only 11 of this deal lies face down at seat 0, c3r2 (pos 6)
    grid0 = [12, 12, 3, 4, 5, 6, 11, 8, 9, 10, 12, 0]
    deck = make_deck([grid0, FILL], 4, [9] * 10)
    state = eng.new_game(2, seed=2, options={"deck": deck})
    seen: list[Any] = [state]
    state = reveal_all(state)
    seen.append(state)
    assert eng.to_act(state) == [0]  # 12 + 12 beats 1 + 2
    state = play(state, 0, {"type": "take_discard"})
    seen.append(state)
    for s in seen:
        for viewer in (None, 0, 1):
            assert "11" not in cards_in(eng.view(s, viewer), eng.card_codes)
    state = play(state, 0, {"type": "swap", "pos": 6})
    view = eng.view(state, 1)
    assert view["discard_top"] == "11"
    assert view["grids"][0][6] == "4"


def test_sk_t06_draw_discard_and_reveal() -> None:
    grid0 = [12, 12, *FILL[2:]]
    state = started([grid0, FILL], 4, [9, 1, 1, 1])
    state = play(state, 0, {"type": "draw"})
    assert eng.view(state, 1)["held"] == {"card": "9", "source": "draw"}
    state = play(state, 0, {"type": "discard_and_reveal", "pos": pos(2, 3)})
    view = eng.view(state, 0)
    assert view["discard_top"] == "9" and view["discard_size"] == 2
    assert view["grids"][0][pos(2, 3)] == str(grid0[pos(2, 3)])
    assert view["held"] is None and eng.to_act(state) == [1]


def test_sk_t07_column_of_three_equal_removed_by_a_reveal() -> None:
    grid0 = [12, 12, 6, 4, 5, 9, 6, 8, 9, 10, 6, 0]  # c3 = pos 2, 6, 10
    state = eng.new_game(2, seed=1, options={"deck": make_deck([grid0, FILL], 4, [9, 1, 1])})
    state = reveal_all(state, {0: (2, 6)})
    assert eng.to_act(state) == [0]  # 6 + 6 beats 1 + 2
    state = play(state, 0, {"type": "draw"})
    state = play(state, 0, {"type": "discard_and_reveal", "pos": pos(3, 3)})
    view = eng.view(state, 1)
    assert [view["grids"][0][p] for p in (2, 6, 10)] == ["removed"] * 3
    assert view["discard_top"] == "6" and view["discard_size"] == 5  # starter 4, the 9, then three 6s
    assert state.discard[-4:] == [9, 6, 6, 6]


def test_sk_t08_column_of_three_equal_removed_by_a_swap() -> None:
    grid0 = [2, 12, 3, 4, 2, 12, 7, 8, 10, 1, 5, 0]  # c1 = pos 0, 4, 8 = [2, 2, 10]
    state = eng.new_game(2, seed=1, options={"deck": make_deck([grid0, FILL], 2, [9, 1, 1])})
    state = reveal_all(state, {0: (1, 5)})  # 12 + 12 so seat 0 starts; c1's 2s are revealed below
    state = edit(state, up=[True, True, False, False, True, True] + [False] * 18)
    state = play(state, 0, {"type": "take_discard"})
    state = play(state, 0, {"type": "swap", "pos": pos(1, 3)})
    assert state.discard == [10, 2, 2, 2]
    view = eng.view(state, 1)
    assert view["discard_top"] == "2"
    assert [view["grids"][0][p] for p in (0, 4, 8)] == ["removed"] * 3


def test_sk_t09_face_down_cards_do_not_count_for_a_triple() -> None:
    grid0 = [12, 12, 3, 5, 1, 2, 7, 5, 9, 10, 4, 5]  # c4 = pos 3, 7, 11
    state = eng.new_game(2, seed=1, options={"deck": make_deck([grid0, FILL], 4, [9, 1, 1, 1])})
    state = reveal_all(state, {0: (3, 7)})
    assert eng.to_act(state) == [1] or eng.to_act(state) == [0]
    state = edit(state, current=0)
    state = play(state, 0, {"type": "draw"})
    state = play(state, 0, {"type": "discard_and_reveal", "pos": 0})
    assert grid_view(state, 0, 0)[3] == "5" and grid_view(state, 0, 0)[11] == "hidden"
    state = finish_turn(state)  # seat 1
    state = play(state, 0, {"type": "draw"})
    state = play(state, 0, {"type": "discard_and_reveal", "pos": 11})
    assert [grid_view(state, 1, 0)[p] for p in (3, 7, 11)] == ["removed"] * 3


def _about_to_close(n: int, closer: int, last_pos: int = 11, seed: int = 1) -> Any:
    """``closer`` shows every card but ``last_pos`` and is to play; the others show positions 0 and 1."""
    state = started([LOW] * n, 4, [9] * 60)
    up = [False] * (12 * n)
    for s in range(n):
        up[12 * s] = up[12 * s + 1] = True
    for p in range(12):
        up[12 * closer + p] = p != last_pos
    return edit(state, up=up, current=closer)


def test_sk_t10_final_turns_once_each_then_scoring() -> None:
    state = _about_to_close(4, closer=1)  # A=0, B=1, C=2, D=3
    state = play(state, 1, {"type": "draw"})
    state = play(state, 1, {"type": "discard_and_reveal", "pos": 11})
    assert eng.view(state, None)["closer"] == 1
    order = []
    while state.phase == "turn":
        seat = eng.to_act(state)[0]
        order.append(seat)
        state = finish_turn(state)
    assert order == [2, 3, 0]
    assert state.phase == "scores" and len(state.history) == 1
    assert state.history[0]["closer"] == 1


def test_sk_t11_triple_formed_at_the_final_reveal_is_removed_before_scoring() -> None:
    c_grid = [0, 8, 3, 4, 5, 8, 7, 1, 9, 8, 12, 2]  # c2 = pos 1, 5, 9 = [8, ?8, ?8]
    state = started([LOW, LOW, c_grid], 4, [9] * 20)
    state = edit(state, up=[True] * 11 + [False] + [True, True] + [False] * 10 + [True, True] + [False] * 10)
    state = edit(state, current=0)
    state = finish_turn(state)  # A closes
    state = finish_turn(state)  # B
    state = play(state, 2, {"type": "draw"})  # C's last turn leaves c2 alone
    state = play(state, 2, {"type": "discard_and_reveal", "pos": 2})
    assert state.phase == "scores"
    assert [grid_view(state, None, 2)[p] for p in (1, 5, 9)] == ["removed"] * 3
    assert state.history[0]["raw"][2] == sum(c_grid) - 24


@pytest.mark.parametrize(
    ("raw", "closer", "expected"),
    [
        pytest.param([10, 10, 25], 1, [10, 20, 25], id="sk_t12"),
        pytest.param([10, 9, 25], 1, [10, 9, 25], id="sk_t13"),
        pytest.param([-3, 0], 1, [-3, 0], id="sk_t14"),
        pytest.param([-5, -2], 1, [-5, -2], id="sk_t15"),
        pytest.param([4, 15], 1, [4, 30], id="sk_t16"),
    ],
)
def test_sk_t12_to_t16_closer_doubling_table(raw: list[int], closer: int, expected: list[int]) -> None:
    assert round_scores(raw, closer) == expected


def _round_with_raw(grids: list[list[int]], closer: int, totals: list[int] | None = None) -> Any:
    """Play out a round in which ``closer`` closes at once and the others reveal one more card each."""
    n = len(grids)
    state = started(grids, 4, [9] * 40)
    up = [False] * (12 * n)
    for s in range(n):
        up[12 * s] = up[12 * s + 1] = True
    for p in range(11):
        up[12 * closer + p] = True
    state = edit(state, up=up, current=closer, totals=totals or [0] * n)
    while state.phase == "turn":
        state = finish_turn(state)
    return state


def test_sk_t12_closer_tied_for_lowest_is_doubled() -> None:
    # raw: A = 10, B (closer) = 10, C = 25; the discard-and-reveal turns change nothing in the values
    a = [1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0]
    b = [2, 2, 2, 1, 0, 0, 0, 0, 1, 1, 1, 0]
    c = [5, 5, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0]
    state = _round_with_raw([a, b, c], closer=1)
    entry = state.history[0]
    assert entry["raw"] == [10, 10, 25]
    assert entry["scores"] == [10, 20, 25] and entry["doubled"] is True
    assert state.totals == [10, 20, 25]


def test_sk_t13_closer_exclusively_lowest_is_not_doubled() -> None:
    a = [1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0]
    b = [2, 2, 2, 1, 0, 0, 0, 0, 1, 1, 0, 0]
    c = [5, 5, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0]
    state = _round_with_raw([a, b, c], closer=1)
    assert state.history[0]["raw"] == [10, 9, 25]
    assert state.history[0]["scores"] == [10, 9, 25]


def test_sk_t14_zero_is_not_doubled() -> None:
    a = [-1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    b = [0] * 12  # columns of three 0s are removed as they turn up: still raw 0
    state = _round_with_raw([a, b], closer=1)
    assert state.history[0]["raw"] == [-3, 0] and state.history[0]["scores"] == [-3, 0]


def test_sk_t15_negative_is_not_doubled() -> None:
    a = [-2, -2, -1, 0, 0, 1, 0, -1, 0, 0, 0, 0]
    b = [-2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state = _round_with_raw([a, b], closer=1)
    assert state.history[0]["raw"] == [-5, -2] and state.history[0]["scores"] == [-5, -2]


def test_sk_t16_positive_closer_beaten_is_doubled() -> None:
    a = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    b = [5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state = _round_with_raw([a, b], closer=1)
    assert state.history[0]["raw"] == [4, 15] and state.history[0]["scores"] == [4, 30]


def test_sk_t17_game_ends_at_100_and_lowest_total_wins() -> None:
    # Rulezz: five rounds to A 88, B 70, C 95; round 6 scores A 15, B 20, C 3 (C closes, exclusively lowest)
    zero = {"points": {"A": 0, "B": 0, "C": 0}, "closer": "A"}
    rounds: list[Any] = [zero] * 4 + [{"points": {"A": 88, "B": 70, "C": 95}, "closer": "B"}]
    before = score_sheet(["A", "B", "C"], rounds)
    assert before.totals == {"A": 88, "B": 70, "C": 95} and not before.over
    after = score_sheet(["A", "B", "C"], [*rounds, RoundEntry({"A": 15, "B": 20, "C": 3}, "C")])
    assert after.totals == {"A": 103, "B": 90, "C": 98}
    assert after.over and after.winners == ("B",)
    # the engine: the same totals before the round end the game the same way
    a = [1, 1, 1, 1, 1, 1, 1, 1, 7, 0, 0, 0]  # 15
    b = [2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0]  # 20
    c = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # 3
    state = _round_with_raw([a, b, c], closer=2, totals=[88, 70, 95])
    assert eng.is_over(state)
    assert state.totals == [103, 90, 98]
    result = eng.result(state)
    assert result == {"placements": [3, 1, 2], "winners": [1], "scores": [103, 90, 98]}
    assert eng.to_act(state) == [] and eng.timers(state) == []
    assert rejects(eng, state, 0, {"type": "draw"}).code == "game_over"


def test_sk_t18_below_100_a_new_round_is_dealt_and_the_closer_starts() -> None:
    state = _round_with_raw([LOW, LOW, LOW], closer=2)
    assert max(state.totals) <= 99 and not eng.is_over(state)
    assert state.phase == "scores"
    (timer,) = eng.timers(state)
    assert timer["name"] == "score" and timer["seat"] is None and timer["seconds"] == 8
    assert eng.to_act(state) == [0, 1, 2]
    assert all(eng.legal_actions(state, s) == [{"type": "ready"}] for s in range(3))
    new = play(state, None, {"type": "timeout", "timer": "score"})
    assert new.round_no == 2 and new.phase == "reveal"
    assert eng.view(new, 0)["draw_size"] == sum(eng.all_cards(state).values()) - 36 - 1
    assert eng.all_cards(new) == eng.all_cards(state)
    new = reveal_all(new)
    assert eng.to_act(new) == [2]


def test_sk_t19_reshuffle_keeps_the_discard_top() -> None:
    state = started([FILL, FILL], 4, [9] * 5)
    state = edit(state, draw=[], discard=[3, 7, 12], current=0)
    seat = 0
    new = play(state, seat, {"type": "draw"})
    assert new.held in (3, 7)
    assert new.discard == [12]
    assert sorted([new.held, *new.draw]) == [3, 7]
    assert eng.view(new, 1)["discard_top"] == "12"


def test_sk_t20_an_emptied_grid_closes_the_round_with_raw_zero() -> None:
    p_grid = [None, None, None, 4] * 3
    state = started([FILL, FILL], 4, [9] * 20)
    cards = list(state.cards)
    cards[:12] = p_grid
    up = (
        [False, False, False, True, False, False, False, True, False, False, False, False]
        + [True] * 2
        + [False] * 10
    )
    state = edit(state, cards=cards, up=up, current=0)
    state = play(state, 0, {"type": "draw"})
    state = play(state, 0, {"type": "discard_and_reveal", "pos": 11})
    assert grid_view(state, 1, 0) == ["removed"] * 12
    assert state.closer == 0
    state = finish_turn(state)
    assert state.history[0]["raw"][0] == 0 and state.history[0]["closer"] == 0


def test_sk_t21_no_discard_and_reveal_without_a_face_down_card() -> None:
    state = started([FILL, FILL], 4, [9] * 20)
    state = edit(state, current=0)
    state = play(state, 0, {"type": "draw"})
    state = edit(state, up=[True] * 12 + [True, True] + [False] * 10)
    assert rejects(eng, state, 0, {"type": "discard_and_reveal", "pos": 3}).code == "no_face_down"
    assert {a["type"] for a in eng.legal_actions(state, 0)} == {"swap"}


def test_sk_t22_rulezz_doubles_the_closer() -> None:
    first = score_sheet(["A", "B", "C"], [{"points": {"A": 12, "B": 12, "C": 30}, "closer": "A"}])
    assert first.rounds[0].scores == {"A": 24, "B": 12, "C": 30}
    second = score_sheet(["A", "B"], [{"points": {"A": -4, "B": -6}, "closer": "A"}])
    assert second.rounds[0].scores == {"A": -4, "B": -6}


def test_sk_t23_rulezz_declares_the_end_and_the_lowest_total_wins() -> None:
    rounds = [
        {"points": {"A": 40, "B": 20}, "closer": "B"},
        {"points": {"A": 70, "B": 10}, "closer": "B"},
    ]
    result = score_sheet(["A", "B"], rounds)
    assert result.over and result.totals == {"A": 110, "B": 30} and result.winners == ("B",)


def test_sk_t24_player_count_two_to_eight() -> None:
    assert (eng.min_players, eng.max_players) == (2, 8)
    for n in (0, 1, 9):
        with pytest.raises(IllegalAction):
            eng.new_game(n, seed=1)
    for n in (2, 8):
        assert len(eng.to_act(eng.new_game(n, seed=1))) == n


# -- rules without a scenario --------------------------------------------------------------------------
def test_sk_3_the_ith_dealt_card_lies_at_position_i() -> None:
    grids = [[v % 13 for v in range(12)], [12 - v for v in range(12)]]
    state = eng.new_game(2, seed=1, options={"deck": make_deck(grids, 5, [7, 8])})
    for seat in range(2):
        for p in range(12):
            state = play(state, seat, {"type": "reveal", "pos": p}) if p < 2 else state
    assert grid_view(state, 0, 0)[:2] == ["0", "1"] and grid_view(state, 0, 1)[:2] == ["12", "11"]
    assert state.discard == [5] and state.draw == [8, 7]  # top last inside the engine


def test_sk_6_full_tie_is_broken_at_random_but_deterministically() -> None:
    starters = set()
    for seed in range(12):
        state = eng.new_game(3, seed=seed, options={"deck": make_deck([FILL] * 3, 4, [9] * 5)})
        state = reveal_all(state)
        again = reveal_all(eng.new_game(3, seed=seed, options={"deck": make_deck([FILL] * 3, 4, [9] * 5)}))
        assert eng.to_act(state) == eng.to_act(again)
        starters.add(eng.to_act(state)[0])
    assert starters == {0, 1, 2}


def test_sk_8_turns_go_up_the_seats_and_wrap() -> None:
    state = started([FILL] * 3, 4, [9] * 30)
    state = edit(state, current=1)
    order = []
    for _ in range(4):
        order.append(eng.to_act(state)[0])
        state = finish_turn(state)
    assert order == [1, 2, 0, 1]


def test_sk_10_b1_swap_the_drawn_card() -> None:
    state = started([FILL, FILL], 4, [-2, 1, 1])
    state = edit(state, current=0)
    state = play(state, 0, {"type": "draw"})
    legal = eng.legal_actions(state, 0)
    assert {"type": "swap", "pos": 0} in legal and {"type": "discard_and_reveal", "pos": 2} in legal
    assert {"type": "discard_and_reveal", "pos": 0} not in legal  # pos 0 is face up
    assert rejects(eng, state, 0, {"type": "discard_and_reveal", "pos": 0}).code == "not_face_down"
    state = play(state, 0, {"type": "swap", "pos": 5})
    assert grid_view(state, 1, 0)[5] == "-2" and eng.view(state, 1)["discard_top"] == str(FILL[5])


def test_sk_13_the_drawn_card_is_shown_to_everyone() -> None:
    state = started([FILL, FILL], 4, [11, 1])
    state = edit(state, current=0)
    state = play(state, 0, {"type": "draw"})
    for viewer in (None, 0, 1):
        assert eng.view(state, viewer)["held"] == {"card": "11", "source": "draw"}
        assert eng.visible_cards(state, viewer)["11"] == 1


def test_sk_16_rows_do_not_count_and_removed_positions_stay_empty() -> None:
    grid0 = [7, 7, 7, 7, 5, 6, 1, 2, 9, 10, 12, 0]  # row 1 is four 7s
    state = eng.new_game(2, seed=1, options={"deck": make_deck([grid0, FILL], 4, [9] * 5)})
    state = reveal_all(state, {0: (0, 1)})
    state = edit(state, up=[True] * 4 + [False] * 8 + [True, True] + [False] * 10, current=0)
    assert "removed" not in grid_view(state, 0, 0)
    # a column removal leaves its positions empty and un-swappable
    cards = list(state.cards)
    cards[0] = cards[4] = cards[8] = None
    state = edit(state, cards=cards, up=[False] + [True] * 3 + [False] * 8 + [True, True] + [False] * 10)
    state = play(state, 0, {"type": "take_discard"})
    assert {"type": "swap", "pos": 0} not in eng.legal_actions(state, 0)
    assert rejects(eng, state, 0, {"type": "swap", "pos": 4}).code == "bad_position"
    assert len(grid_view(state, 0, 0)) == 12 and grid_view(state, 0, 0)[8] == "removed"


def test_sk_17_a_column_of_minus_twos_is_removed_too() -> None:
    grid0 = [-2, 12, 12, 4, -2, 6, 1, 8, -2, 10, 3, 0]
    state = eng.new_game(2, seed=1, options={"deck": make_deck([grid0, FILL], 4, [9] * 5)})
    state = reveal_all(state, {0: (1, 2)})
    state = edit(
        state, up=[True, True, True, False, True] + [False] * 7 + [True, True] + [False] * 10, current=0
    )
    state = play(state, 0, {"type": "draw"})
    state = play(state, 0, {"type": "discard_and_reveal", "pos": 8})
    assert [grid_view(state, 0, 0)[p] for p in (0, 4, 8)] == ["removed"] * 3


def test_sk_18_revealing_everything_during_the_last_turns_triggers_nothing() -> None:
    state = _about_to_close(3, closer=0)
    state = finish_turn(state)  # seat 0 closes
    up = list(state.up)
    for p in range(12, 23):
        up[p] = True  # seat 1 is one card from showing everything
    state = edit(state, up=up)
    state = play(state, 1, {"type": "draw"})
    state = play(state, 1, {"type": "discard_and_reveal", "pos": 11})
    assert state.closer == 0 and eng.to_act(state) == [2]
    state = finish_turn(state)
    assert state.phase == "scores" and state.history[0]["closer"] == 0


def test_sk_21_to_24_raw_sum_only_the_closer_changes_and_totals_add_up() -> None:
    state = _round_with_raw([LOW, LOW, LOW], closer=1, totals=[5, 6, 7])
    entry = state.history[0]
    assert entry["raw"] == [7, 7, 7]
    assert entry["scores"] == [7, 14, 7]  # tied, positive: doubled (SK-22)
    assert state.totals == [12, 20, 14]
    assert eng.view(state, None)["rounds"] == [entry]


def test_sk_26_tied_totals_share_the_win() -> None:
    state = _round_with_raw([FILL, FILL, FILL], closer=1, totals=[40, 0, 40])
    assert eng.is_over(state)  # seat 1: 0 + 2 x 67 >= 100
    result = eng.result(state)
    assert result["winners"] == [0, 2] and result["placements"] == [1, 3, 1]


def test_sk_27_face_down_values_are_hidden_even_from_their_owner() -> None:
    state = eng.new_game(2, seed=9)
    for viewer in (None, 0, 1):
        view = eng.view(state, viewer)
        assert set(view["grids"][0]) == {"hidden"}
        assert cards_in(view, eng.card_codes) == Counter({view["discard_top"]: 1})
    assert eng.visible_cards(state, 0) == Counter({str(state.discard[-1]): 1})


def test_sk_28_29_public_information_and_a_squared_up_discard_pile() -> None:
    state = started([FILL, FILL], 4, [9, 3, 3])
    state = edit(state, discard=[1, 2, 3, 12], current=0)
    view = eng.view(state, None)
    assert view["seat"] is None and view["discard_top"] == "12" and view["discard_size"] == 4
    assert cards_in(view, eng.card_codes)["1"] == 2  # both seats' face-up 1s; not the discard's 1
    for key in ("totals", "rounds", "draw_size", "current", "closer", "grids"):
        assert key in view


def test_sk_30_reveal_timeout_picks_random_face_down_cards() -> None:
    state = eng.new_game(3, seed=4)
    timers = eng.timers(state)
    assert [(t["name"], t["seat"], t["seconds"]) for t in timers] == [("reveal", s, 30) for s in range(3)]
    state = play(state, 1, {"type": "reveal", "pos": 0})
    assert eng.timers(state) == timers  # the same deadlines keep running
    state = play(state, 1, {"type": "timeout", "timer": "reveal"})
    assert sum(c != "hidden" for c in grid_view(state, 0, 1)) == 2 and grid_view(state, 0, 1)[0] != "hidden"
    state = play(state, 0, {"type": "timeout", "timer": "reveal"})
    assert sum(c != "hidden" for c in grid_view(state, 0, 0)) == 2
    assert rejects(eng, state, 0, {"type": "timeout", "timer": "reveal"}).code == "no_timer"
    no_timers = eng.new_game(3, seed=4, options={"turn_seconds": None})
    assert eng.timers(no_timers) == []


def test_sk_31_turn_timeout_with_nothing_taken_draws_discards_and_reveals_first_face_down() -> None:
    state = started([FILL, FILL], 4, [11, 1, 1], turn_seconds=20)
    state = edit(state, current=0)
    (timer,) = eng.timers(state)
    assert timer["name"] == "turn" and timer["seat"] == 0 and timer["seconds"] == 20
    state = play(state, 0, {"type": "timeout", "timer": "turn"})
    assert eng.view(state, 1)["discard_top"] == "11"
    assert grid_view(state, 1, 0)[2] == str(FILL[2])  # first face-down in reading order
    assert eng.to_act(state) == [1] and eng.timers(state)[0]["id"] != timer["id"]


def test_sk_31_turn_timeout_holding_a_drawn_card_discards_it_and_reveals() -> None:
    state = started([FILL, FILL], 4, [11, 1, 1])
    state = edit(state, current=0)
    timer_id = eng.timers(state)[0]["id"]
    state = play(state, 0, {"type": "draw"})
    assert eng.timers(state)[0]["id"] == timer_id  # one deadline for the whole turn
    state = play(state, 0, {"type": "timeout", "timer": "turn"})
    assert eng.view(state, 1)["discard_top"] == "11" and grid_view(state, 1, 0)[2] == str(FILL[2])


def test_sk_31_turn_timeout_holding_the_discard_swaps_into_first_face_down() -> None:
    state = started([FILL, FILL], 11, [1, 1])
    state = edit(state, current=0)
    state = play(state, 0, {"type": "take_discard"})
    state = play(state, 0, {"type": "timeout", "timer": "turn"})
    assert grid_view(state, 1, 0)[2] == "11" and eng.view(state, 1)["discard_top"] == str(FILL[2])


def test_sk_31_turn_timeout_without_face_down_cards_swaps_into_first_position() -> None:
    state = started([FILL, FILL], 4, [11, 1, 1])
    state = edit(state, current=0)
    state = play(state, 0, {"type": "draw"})
    state = edit(state, up=[True] * 12 + [True, True] + [False] * 10)
    state = play(state, 0, {"type": "timeout", "timer": "turn"})
    assert grid_view(state, 1, 0)[0] == "11" and eng.view(state, 1)["discard_top"] == str(FILL[0])


def test_sk_32_score_screen_ends_when_everyone_is_ready() -> None:
    state = _round_with_raw([LOW, LOW], closer=0)
    timer_id = eng.timers(state)[0]["id"]
    state = play(state, 1, {"type": "ready"})
    assert eng.to_act(state) == [0] and eng.timers(state)[0]["id"] == timer_id
    assert rejects(eng, state, 1, {"type": "ready"}).code == "not_your_turn"
    assert rejects(eng, state, 0, {"type": "draw"}).code == "wrong_phase"
    state = play(state, 0, {"type": "ready"})
    assert state.phase == "reveal" and state.round_no == 2
    practice = _round_with_raw([LOW, LOW], closer=0)
    practice = edit(practice, turn_seconds=None)
    assert [t["name"] for t in eng.timers(practice)] == ["score"]  # a table pause stays (PF/SK-32)


def test_sk_25_33_the_game_ends_at_exactly_100_which_is_not_an_option() -> None:
    below = _round_with_raw([LOW, LOW], closer=1, totals=[92, 0])
    assert below.totals == [99, 14] and not eng.is_over(below)
    at = _round_with_raw([LOW, LOW], closer=1, totals=[93, 0])
    assert at.totals == [100, 14] and eng.is_over(at)
    assert eng.result(at)["winners"] == [1]
    # there is no option for the threshold: an unknown option changes nothing
    options = {"deck": make_deck([LOW, LOW], 4, [9] * 40), "end_at": 10}
    assert eng.dump(eng.new_game(2, seed=1, options=options)) == eng.dump(
        eng.new_game(2, seed=1, options={"deck": options["deck"]})
    )
    with pytest.raises(IllegalAction):
        eng.new_game(2, seed=1, options={"turn_seconds": 0})


def test_sk_34_legal_actions_per_decision_point() -> None:
    state = eng.new_game(2, seed=3)
    assert eng.legal_actions(state, 0) == [{"type": "reveal", "pos": p} for p in range(12)]
    state = started([FILL, FILL], 4, [9, 9])
    state = edit(state, current=0)
    assert eng.legal_actions(state, 1) == []
    assert eng.legal_actions(state, 0) == [{"type": "take_discard"}, {"type": "draw"}]
    drawn = play(state, 0, {"type": "draw"})
    legal = eng.legal_actions(drawn, 0)
    assert [a for a in legal if a["type"] == "swap"] == [{"type": "swap", "pos": p} for p in range(12)]
    assert [a["pos"] for a in legal if a["type"] == "discard_and_reveal"] == list(range(2, 12))


# -- fixed decks, options, contract details -----------------------------------------------------------
def test_fixed_decks_for_later_rounds_and_a_short_deck() -> None:
    deck = make_deck([LOW, LOW], 4, [9] * 3)
    later = list(reversed(deck))
    state = eng.new_game(2, seed=1, options={"deck": deck, "decks": [later]})
    assert eng.all_cards(state) == Counter(deck)
    state = reveal_all(state)
    up = [True] * 11 + [False] + [True, True] + [False] * 10
    state = edit(state, up=up, current=0)
    state = finish_turn(state)
    state = finish_turn(state)
    state = play(state, None, {"type": "timeout", "timer": "score"})
    assert state.cards[:12] == [int(c) for c in later[:12]]
    with pytest.raises(IllegalAction):
        eng.new_game(2, seed=1, options={"deck": deck[:24]})  # no discard starter
    with pytest.raises(IllegalAction):
        eng.new_game(2, seed=1, options={"deck": deck, "decks": [deck[:-1]]})


def test_a_short_deck_that_runs_dry_still_lets_the_turn_and_its_timeout_happen() -> None:
    state = started([FILL, FILL], 4, [])
    state = edit(state, current=0)
    assert eng.legal_actions(state, 0) == [{"type": "take_discard"}]
    assert rejects(eng, state, 0, {"type": "draw"}).code == "empty_draw_pile"
    state = play(state, 0, {"type": "timeout", "timer": "turn"})
    assert grid_view(state, 1, 0)[2] == "4"


def test_malformed_actions_are_rejected_with_codes() -> None:
    state = started([FILL, FILL], 4, [9, 9])
    state = edit(state, current=0)
    cases = [
        (None, "bad_action"),
        ({"type": "fly"}, "bad_action"),
        ({"type": "swap"}, "bad_action"),
        ({"type": "swap", "pos": "3"}, "bad_action"),
        ({"type": "swap", "pos": True}, "bad_action"),
        ({"type": "swap", "pos": 12}, "bad_position"),
        ({"type": "swap", "pos": -1}, "bad_position"),
        ({"type": "reveal", "pos": 3}, "wrong_phase"),
        ({"type": "ready"}, "wrong_phase"),
        ({"type": "timeout"}, "bad_action"),
        ({"type": "timeout", "timer": "score"}, "no_timer"),
    ]
    for action, code in cases:
        assert rejects(eng, state, 0, action).code == code, action
    assert rejects(eng, state, 1, {"type": "draw"}).code == "not_your_turn"
    assert rejects(eng, state, 1, {"type": "timeout", "timer": "turn"}).code == "no_timer"
    for seat in (-1, 2, "0", 1.5, True):
        assert rejects(eng, state, seat, {"type": "draw"}).code == "bad_seat"
    assert rejects(eng, state, None, {"type": "draw"}).code == "bad_seat"
    with pytest.raises(IllegalAction):
        eng.new_game(2, seed=1, options={"deck": ["13"] * 30})


def test_dump_load_round_trip_and_state_size() -> None:
    state = eng.new_game(8, seed=2)
    data = eng.dump(state)
    assert len(json.dumps(data)) < 20_000
    assert eng.dump(eng.load(json.loads(json.dumps(data)))) == data
    assert isinstance(eng.load(data), SkyjoState)


def test_views_carry_no_numeric_strings_except_card_codes() -> None:
    state = _round_with_raw([LOW, LOW, LOW], closer=1)
    view = eng.view(state, 0)
    stack: list[Any] = [view]
    strings = []
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            strings.append(item)
    numeric = [s for s in strings if s.lstrip("-").isdigit()]
    assert Counter(numeric) == eng.visible_cards(state, 0)


def test_random_games_keep_the_scoring_rules_sk_21_to_sk_26() -> None:
    """Whole random games: every round scored by SK-22, totals add up, the game ends at the first 100."""
    for n, seed in [(2, 1), (3, 2), (5, 3), (8, 4)]:
        state = final_state(eng, n, seed)
        totals = [0] * n
        for i, entry in enumerate(state.history):
            assert entry["scores"] == round_scores(entry["raw"], entry["closer"])
            totals = [t + s for t, s in zip(totals, entry["scores"], strict=True)]
            assert (max(totals) >= 100) == (i == len(state.history) - 1)
        assert totals == state.totals == eng.result(state)["scores"]
