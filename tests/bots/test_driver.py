"""The bot driver's table: windows lapse at their deadline while turns go on (PK-32, OC-41), on the
pure flow module's timers by id; a forgetful bot decides once per countdown (its memory)."""

from __future__ import annotations

import random

from cardgames.bots import ask, get_bot
from cardgames.bots.driver import MOVE_SECONDS, BotTable, play_game, step
from cardgames.bots.pika import EasyBot
from cardgames.engines import get_engine


class Forgetful(EasyBot):
    forget_pika = 1.0


def test_a_window_lapses_at_its_deadline_and_a_turn_timer_never() -> None:
    """A Pika countdown nobody calls lapses once the table's moves have used up its 5 s (PK-33)."""
    eng = get_engine("pika")
    for seed in range(40):
        state = eng.new_game(4, seed=seed, options={"turn_seconds": 30})
        table = BotTable([Forgetful() for _ in range(4)], [random.Random(s) for s in range(4)])
        while not eng.is_over(state):
            before = table.now
            countdowns = [t for t in eng.timers(state) if t["name"] == "pika"]
            state = step(eng, state, table)
            if countdowns and table.now == before:  # no bot moved: a deadline lapsed
                start = table.starts[countdowns[0]["id"]]
                assert before - start >= 5  # not before the countdown's 5 s
                return
    raise AssertionError("no countdown ever lapsed")


def test_turn_timers_never_lapse_at_a_bot_table() -> None:
    """With 30 s turns and 2 s a move, hundreds of moves pass: only windows ever time out."""
    eng = get_engine("one_card")
    cls = type(eng)
    timeouts: list[str] = []
    original = cls.apply

    def spy(self, state, seat, action):  # type: ignore[no-untyped-def]
        if action["type"] == "timeout":
            timeouts.append(action["timer"])
        return original(self, state, seat, action)

    cls.apply = spy  # type: ignore[method-assign]
    try:
        for seed in range(10):
            play_game("one_card", ["easy"] * 4, seed=seed, options={"turn_seconds": 30})
    finally:
        cls.apply = original  # type: ignore[method-assign]
    assert timeouts and set(timeouts) == {"catch"}


def test_a_timer_seen_again_under_a_new_id_starts_afresh() -> None:
    """The table keeps starts only for live ids (flow.sync_starts): a new id starts at the table's now."""
    eng = get_engine("pika")
    state = eng.new_game(2, seed=3, options={"turn_seconds": 30})
    table = BotTable.seated("pika", ["easy", "easy"], seed=3)
    for _ in range(6):
        state = step(eng, state, table)
    live = {t["id"] for t in eng.timers(state)}
    step_now = table.now
    state = step(eng, state, table)
    assert set(table.starts) == live  # synced before the move: exactly the ids live then
    assert all(table.starts[i] <= step_now for i in live)
    assert table.now in (step_now, step_now + MOVE_SECONDS)


def test_pk_32_a_forgotten_pika_call_costs_two_cards_when_the_countdown_lapses() -> None:
    eng = get_engine("pika")
    for seed in range(40):
        state = eng.new_game(4, seed=seed, options={"turn_seconds": None})
        table = BotTable([Forgetful() for _ in range(4)], [random.Random(seat) for seat in range(4)])
        seen: dict[str, float] = {}
        while not eng.is_over(state):
            running = [t for t in eng.timers(state) if t["name"] == "pika"]
            for timer in running:
                seen.setdefault(timer["id"], table.now)
            before, now = [len(h) for h in state.hands], table.now
            state = step(eng, state, table)
            if running and table.now == now:  # no bot moved: the driver let a deadline lapse
                owner = running[0]["seat"]
                assert len(state.hands[owner]) == before[owner] + 2  # PK-32, PK-37
                assert now - seen[running[0]["id"]] >= 5  # not before the countdown's 5 s (PK-33)
                return
    raise AssertionError("no forgotten countdown ever lapsed into a penalty")


def test_the_driver_keeps_each_seats_memory_even_when_the_bot_passes() -> None:
    """A bot that decided to forget its call passes, and its memory says so until the countdown ends."""
    eng = get_engine("pika")
    for seed in range(40):
        state = eng.new_game(4, seed=seed, options={"turn_seconds": None})
        table = BotTable([Forgetful() for _ in range(4)], [random.Random(s) for s in range(4)])
        while not eng.is_over(state):
            running = [t for t in eng.timers(state) if t["name"] == "pika"]
            state = step(eng, state, table)
            if running and table.memories[running[0]["seat"]] == {"forgetting": True}:
                return
    raise AssertionError("no seat ever remembered a forgotten countdown")


def test_an_easy_bot_decides_once_per_countdown_whatever_how_often_it_is_asked() -> None:
    bot = get_bot("pika", "easy")
    legal_in_countdown = [{"type": "call_pika"}]
    first = ask(bot, {}, legal_in_countdown, rng=random.Random(0), memory={})
    answers = {
        repr(ask(bot, {}, legal_in_countdown, rng=random.Random(i), memory=first.memory).action)
        for i in range(50)
    }
    assert answers == {repr(first.action)}  # asked fifty times with fifty different dice: one decision
    over = ask(bot, {"hand": ["R1", "R2"]}, [{"type": "draw"}], rng=random.Random(0), memory=first.memory)
    assert over.memory == {}  # the countdown is over: nothing left to remember
    fresh = {
        repr(ask(bot, {}, legal_in_countdown, rng=random.Random(i), memory=over.memory).action)
        for i in range(50)
    }
    assert fresh == {"{'type': 'call_pika'}", "None"}  # a new countdown is decided afresh (20 % forget)
