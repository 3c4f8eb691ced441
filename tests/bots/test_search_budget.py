"""The hard bots' search: only the viewer's information, and a decision by its deadline.

docs/bots.md ("Thinking time"): a searching hard bot gets a budget per decision
(``cardgames.bots.get_bot(..., budget=…)``, ``settings.BOT_HARD_BUDGET_SECONDS`` at live tables)
and answers by the deadline (``cardgames.bots.budget.Deadline``). Time is a fake clock here, so
no test depends on the machine's speed.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from cardgames.bots import decide, get_bot
from cardgames.bots.budget import Budget, Deadline
from cardgames.bots.guandan import search as guandan_search
from cardgames.bots.guandan.common import parse as guandan_parse
from cardgames.bots.guandan.policies import HardBot as GuandanHard
from cardgames.bots.guandan.policies import NormalBot as GuandanNormal
from cardgames.bots.puteo import BOTS as PUTEO_BOTS
from cardgames.bots.puteo import HardBot as PuteoHard
from cardgames.engines import get_engine
from cardgames.engines.puteo.cards import CODES

PUTEO = get_engine("puteo")
GUANDAN = get_engine("guandan")
A, B, C, D = 0, 1, 2, 3


class FakeClock:
    """A clock that moves ``tick`` seconds each time it is read, and counts the reads."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.reads = 0.0, tick, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now


def puteo_deal(hands: list[list[str]], **options: Any) -> Any:
    top = [card for hand in hands for card in hand]
    deck = top + [code for code in CODES if code not in top]
    return PUTEO.new_game(len(hands), seed=1, options={"turn_seconds": None, "deck": deck, **options})


# Seat A holds the same cards in both deals; B, C and D hold each other's (PT-12: hidden from A).
MINE = ["12E", "7O", "3C", "1B"]
OTHERS = [["5E", "2C", "11O", "6B"], ["4O", "10C", "1C", "2E"], ["7E", "3B", "12O", "5C"]]


def two_deals_seat_a_cannot_tell_apart(dealer: int = D) -> tuple[Any, Any]:
    first = puteo_deal([MINE, *OTHERS], start_round=2, first_dealer=dealer)
    second = puteo_deal([MINE, OTHERS[2], OTHERS[0], OTHERS[1]], start_round=2, first_dealer=dealer)
    assert PUTEO.view(first, A) == PUTEO.view(second, A)  # what A may see is the same …
    assert PUTEO.view(first, B) != PUTEO.view(second, B)  # … the hidden deals are not
    return first, second


def hard_choices(state: Any, seat: int, seeds: range, **bot: Any) -> Counter[str]:
    choices: Counter[str] = Counter()
    for seed in seeds:
        action, _ = PuteoHard(**bot).choose(
            PUTEO.view(state, seat), PUTEO.legal_actions(state, seat), random.Random(seed), {}
        )
        assert action is not None
        choices[str(action.get("k", action.get("card")))] += 1
    return choices


def test_puteo_hard_bid_depends_only_on_the_view_pt12() -> None:
    # given: two deals that differ only in the cards A cannot see (PT-12), A to bid first
    first, second = two_deals_seat_a_cannot_tell_apart()
    assert PUTEO.to_act(first) == [A]
    # when: the hard bot searches from each with the same seeds
    seeds = range(12)
    # then: the same choice for every seed, so the same distribution of choices
    assert hard_choices(first, A, seeds) == hard_choices(second, A, seeds)


def test_puteo_hard_play_depends_only_on_the_view_pt12() -> None:
    first, second = two_deals_seat_a_cannot_tell_apart(dealer=C)
    bids = {A: 2, B: 0, C: 1, D: 0}
    for seat in PUTEO.view(first, A)["bid_order"]:
        first = PUTEO.apply(first, seat, {"type": "bid", "k": bids[seat]})[0]
        second = PUTEO.apply(second, seat, {"type": "bid", "k": bids[seat]})[0]
    assert PUTEO.to_act(first) == [A]
    assert PUTEO.view(first, A) == PUTEO.view(second, A)
    seeds = range(12)
    choices = hard_choices(first, A, seeds)
    assert choices == hard_choices(second, A, seeds)
    # the search does decide something: its answer is not just the first legal card
    assert set(choices) != {PUTEO.legal_actions(first, A)[0]["card"]}


def test_a_budgeted_bot_stops_searching_at_its_deadline() -> None:
    # given: a clock that moves 1 ms per read and a budget of 5 ms
    state, _ = two_deals_seat_a_cannot_tell_apart()
    clock = FakeClock(0.001)
    bot = PuteoHard(budget=Budget(0.005, clock))
    action, _ = bot.choose(PUTEO.view(state, A), PUTEO.legal_actions(state, A), random.Random(0), {})
    # then: a legal answer after reading the clock once to start and once a deal until it passed
    assert action in PUTEO.legal_actions(state, A)
    assert clock.reads <= 6


def test_with_no_time_left_the_hard_bot_answers_as_the_rule_policy() -> None:
    # a budget that has passed before the first deal: the anytime search's fallback is normal's move
    state, _ = two_deals_seat_a_cannot_tell_apart()
    view, legal = PUTEO.view(state, A), PUTEO.legal_actions(state, A)
    hard, _ = PuteoHard(budget=Budget(0.0, FakeClock(0.001))).choose(view, legal, random.Random(0), {})
    normal, _ = PUTEO_BOTS["normal"]().choose(view, legal, random.Random(0), {})
    assert hard == normal


def test_a_budgeted_search_that_never_runs_out_stops_at_its_cap() -> None:
    frozen = FakeClock(0.0)
    state, _ = two_deals_seat_a_cannot_tell_apart()
    bot = PuteoHard(budget=Budget(1.0, frozen), max_samples=40)
    action, _ = bot.choose(PUTEO.view(state, A), PUTEO.legal_actions(state, A), random.Random(0), {})
    assert action in PUTEO.legal_actions(state, A)
    assert frozen.reads == 1 + 40  # the start, then one read before each of the 40 deals


def test_no_budget_means_no_clock() -> None:
    assert not Deadline(None).timed and not Deadline(None).passed()


def test_the_budget_reaches_only_the_bots_that_search() -> None:
    budget = Budget(0.02, time.perf_counter)
    searching = get_bot("puteo", "hard", budget=budget)
    assert isinstance(searching, PuteoHard) and searching.budget == budget
    assert get_bot("puteo", "hard").budget is None  # type: ignore[attr-defined]
    for level in ("easy", "normal"):
        assert not hasattr(get_bot("puteo", level, budget=budget), "budget")
        assert not hasattr(get_bot("pika", level, budget=budget), "budget")
    assert isinstance(get_bot("guandan", "hard", budget=budget), GuandanHard)
    assert get_bot("guandan", "hard", budget=budget).budget == budget  # type: ignore[attr-defined]
    for game in ("one_card", "pika", "skyjo"):  # hard bots that do not search take no budget
        assert not hasattr(get_bot(game, "hard", budget=budget), "budget")


def test_decide_passes_the_budget_and_answers_with_a_real_clock() -> None:
    # a real clock and a 1 ms budget: a legal move (no timing asserted, so nothing flaky)
    state, _ = two_deals_seat_a_cannot_tell_apart()
    legal = PUTEO.legal_actions(state, A)
    move = decide(
        "puteo",
        "hard",
        PUTEO.view(state, A),
        legal,
        rng=random.Random(3),
        memory=None,
        budget=Budget(0.001, time.perf_counter),
    )
    assert move.action in legal and move.memory == {}


def test_timed_hard_bots_play_whole_games_legally_in_every_mode() -> None:
    # a 1 ms budget on the real clock: what the search manages varies, every answer must be legal
    for seed, (n, options) in enumerate([(2, {}), (4, {"lives": 3}), (10, {"mode": "big"})]):
        bots = [
            PuteoHard(budget=Budget(0.001, time.perf_counter)) if s % 2 == 0 else PUTEO_BOTS["normal"]()
            for s in range(n)
        ]
        state = PUTEO.new_game(n, seed=seed, options={"turn_seconds": None, **options})
        while not PUTEO.is_over(state):
            seat = PUTEO.to_act(state)[0]
            legal = PUTEO.legal_actions(state, seat)
            action, _ = bots[seat].choose(PUTEO.view(state, seat), legal, random.Random(seed), {})
            assert action in legal
            state = PUTEO.apply(state, seat, action)[0]


# -- Guandan ---------------------------------------------------------------------------------------
def guandan_endgame(seed: int) -> tuple[Any, int]:
    """A seeded deal played by normal bots until a seat follows an opponent with a choice, the
    active hands holding few enough cards for the search to run without a budget."""
    state = GUANDAN.new_game(4, seed=seed, options={"turn_seconds": None})
    normal = GuandanNormal()
    while True:
        seat = GUANDAN.to_act(state)[0]
        view, legal = GUANDAN.view(state, seat), GUANDAN.legal_actions(state, seat)
        if view["phase"] == "play":
            ctx = guandan_parse(view, legal)
            held = sum(guandan_search._unseen(ctx)) + sum(ctx.hand)
            following = ctx.table is not None and ctx.table_seat != ctx.partner
            if following and len(ctx.moves) > 2 and held <= guandan_search.FIXED_MAX_CARDS:
                return state, seat
        action, _ = normal.choose(view, legal, random.Random(0), {})
        assert action is not None
        state = GUANDAN.apply(state, seat, action)[0]


def hidden_cards_dealt_again(state: Any, seat: int, seed: int) -> Any:
    """The same position with the cards ``seat`` cannot see dealt again to the others, each keeping
    its hand's size (GD-60: sizes are public, at 10 or fewer)."""
    other = GUANDAN.load(GUANDAN.dump(state))
    seats = [s for s in range(4) if s != seat]
    pool = [c for s in seats for c, n in enumerate(other["hands"][s]) for _ in range(n)]
    random.Random(seed).shuffle(pool)
    start = 0
    for s in seats:
        size = sum(other["hands"][s])
        hand = [0] * len(other["hands"][s])
        for c in pool[start : start + size]:
            hand[c] += 1
        other["hands"][s] = hand
        start += size
    return other


def guandan_choices(state: Any, seat: int, seeds: range, **bot: Any) -> Counter[str]:
    choices: Counter[str] = Counter()
    for seed in seeds:
        view, legal = GUANDAN.view(state, seat), GUANDAN.legal_actions(state, seat)
        action, _ = GuandanHard(**bot).choose(view, legal, random.Random(seed), {})
        assert action in legal
        choices[str(action.get("cards"))] += 1
    return choices


def test_guandan_hard_search_depends_only_on_the_view_gd60(monkeypatch: Any) -> None:
    played_out = [0]
    play_out = guandan_search.play_out

    def counted(*args: Any, **kwargs: Any) -> float | None:
        played_out[0] += 1
        return play_out(*args, **kwargs)

    monkeypatch.setattr(guandan_search, "play_out", counted)
    for deal in (0, 1, 2):
        # given: two positions that differ only in the cards the seat to act cannot see
        first, seat = guandan_endgame(deal)
        second = hidden_cards_dealt_again(first, seat, seed=deal)
        assert GUANDAN.view(first, seat) == GUANDAN.view(second, seat)
        assert first["hands"] != second["hands"]
        # when: the hard bot (no budget: its fixed-size search) decides from each, seed for seed
        before = played_out[0]
        choices = guandan_choices(first, seat, range(8))
        # then: it did search, and the same choice for every seed: the same distribution
        assert played_out[0] > before
        assert choices == guandan_choices(second, seat, range(8))


def test_a_budgeted_guandan_hard_bot_stops_at_its_deadline() -> None:
    state, seat = guandan_endgame(0)
    view, legal = GUANDAN.view(state, seat), GUANDAN.legal_actions(state, seat)
    clock = FakeClock(0.001)
    action, _ = GuandanHard(budget=Budget(0.005, clock)).choose(view, legal, random.Random(0), {})
    assert action in legal
    assert clock.reads <= 12  # a few play-outs at most, each looking at the clock


def test_a_guandan_hard_bot_with_no_time_left_makes_its_heuristic_move() -> None:
    state, seat = guandan_endgame(1)
    view, legal = GUANDAN.view(state, seat), GUANDAN.legal_actions(state, seat)
    timed, _ = GuandanHard(budget=Budget(0.0, FakeClock(0.001))).choose(view, legal, random.Random(0), {})
    heuristic = GuandanHard()
    heuristic.flags = GuandanHard.flags - {"search"}
    assert timed == heuristic.choose(view, legal, random.Random(0), {})[0]


def test_a_timed_guandan_hard_team_plays_a_deal_legally() -> None:
    # a 1 ms budget on the real clock: every answer legal, whatever the search managed
    bots = [
        GuandanHard(budget=Budget(0.001, time.perf_counter)) if s % 2 == 0 else GuandanNormal()
        for s in range(4)
    ]
    state = GUANDAN.new_game(4, seed=5, options={"turn_seconds": None})
    while GUANDAN.view(state, None)["phase"] == "play":
        seat = GUANDAN.to_act(state)[0]
        legal = GUANDAN.legal_actions(state, seat)
        action, _ = bots[seat].choose(GUANDAN.view(state, seat), legal, random.Random(5), {})
        assert action in legal
        state = GUANDAN.apply(state, seat, action)[0]
