"""The bot driver's table clock: windows lapse at their deadline while turns go on (PK-32, OC-41),
and a forgetful bot decides once per countdown."""

from __future__ import annotations

import random

from cardgames.bots import get_bot
from cardgames.bots.driver import MOVE_SECONDS, TableClock, step
from cardgames.bots.pika import EasyBot
from cardgames.engines import get_engine


def test_a_window_lapses_at_its_deadline_and_a_turn_timer_never() -> None:
    clock = TableClock()
    timers = [
        {"id": "pika:1", "name": "pika", "seat": 1, "seconds": 5},
        {"id": "turn:7", "name": "turn", "seat": 2, "seconds": 4},
    ]
    assert clock.due(timers) is None  # both start now
    moves_before_deadline = int(5 // MOVE_SECONDS)
    for _ in range(moves_before_deadline):
        clock.tick()
        assert clock.due(timers) is None
    clock.tick()
    assert clock.due(timers) == timers[0]
    assert clock.due(timers[1:]) is None  # the turn clock is the bots' to beat: they always act


def test_a_timer_seen_again_under_a_new_id_starts_afresh() -> None:
    clock = TableClock()
    clock.due([{"id": "pika:1", "name": "pika", "seat": 0, "seconds": 5}])
    for _ in range(3):
        clock.tick()
    assert clock.due([{"id": "pika:2", "name": "pika", "seat": 0, "seconds": 5}]) is None


class Forgetful(EasyBot):
    forget_pika = 1.0


def test_pk_32_a_forgotten_pika_call_costs_two_cards_when_the_countdown_lapses() -> None:
    eng = get_engine("pika")
    for seed in range(40):
        state = eng.new_game(4, seed=seed, options={"turn_seconds": None})
        bots = [Forgetful() for _ in range(4)]
        rngs = [random.Random(seat) for seat in range(4)]
        clock = TableClock()
        seen: dict[str, float] = {}
        while not eng.is_over(state):
            running = [t for t in eng.timers(state) if t["name"] == "pika"]
            for timer in running:
                seen.setdefault(timer["id"], clock.now)
            before, now = [len(h) for h in state.hands], clock.now
            state = step(eng, state, bots, rngs, clock)
            if running and clock.now == now:  # no bot moved: the driver let a deadline lapse
                owner = running[0]["seat"]
                assert len(state.hands[owner]) == before[owner] + 2  # PK-32, PK-37
                assert now - seen[running[0]["id"]] >= 5  # not before the countdown's 5 s (PK-33)
                return
    raise AssertionError("no forgotten countdown ever lapsed into a penalty")


def test_an_easy_bot_decides_once_per_countdown_whatever_how_often_it_is_asked() -> None:
    bot = get_bot("pika", "easy")
    legal_in_countdown = [{"type": "call_pika"}]
    answers = {repr(bot.choose({}, legal_in_countdown, random.Random(i))) for i in range(50)}
    assert len(answers) == 1  # asked fifty times with fifty different dice: one decision
    bot.choose({"hand": ["R1", "R2"]}, [{"type": "draw"}], random.Random(0))  # the countdown is over
    fresh = {
        repr(get_bot("pika", "easy").choose({}, legal_in_countdown, random.Random(i))) for i in range(50)
    }
    assert fresh == {"{'type': 'call_pika'}", "None"}  # a new countdown is decided afresh (20 % forget)
