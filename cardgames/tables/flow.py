"""What happens next at a table, as pure functions of the engine's timers and stored times.

No Django, no clock, no I/O: the table service, the sweeper and the bot driver of the
benchmarks all pass ``now`` in (seconds, wall clock or simulated), so one module decides,
for every game, which timer is due and which bot seats to ask.

- A timer is known by its **id** (design.md): the server keeps the wall-clock start of each
  id, and a timeout applies only while that id is still among ``engine.timers(state)``; a
  late ``catch:3`` never closes ``catch:5`` and a late turn timer never plays a later turn.
- PF-63: a seat's timeouts in a row are counted by the service; after ``TIMEOUTS_BEFORE_BOT``
  a bot plays the seat (normal level) until its player is back.
- PF-50: One Card bots wait their level's reaction time before a catch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

Timer = Mapping[str, Any]

#: seconds a bot "thinks" before it moves, so people can follow the table (docs/decisions.md)
THINK_SECONDS: Final[float] = 1.0
#: PF-63: after this many timeouts in a row a bot plays an absent player's seat
TIMEOUTS_BEFORE_BOT: Final[int] = 2
#: PF-63: "a bot plays the seat at normal speed"
STAND_IN_LEVEL: Final[str] = "normal"


def sync_starts(timers: Iterable[Timer], starts: Mapping[str, float], now: float) -> dict[str, float]:
    """The start of every live timer id: kept while the id lives, ``now`` for a new one.

    Ids no longer live are dropped, so a later timer that reuses an id starts afresh.
    """
    return {t["id"]: starts.get(t["id"], now) for t in timers}


def deadline(timer: Timer, starts: Mapping[str, float]) -> float:
    """The absolute deadline of a live ``timer`` (its id must be in ``starts``)."""
    return float(starts[timer["id"]]) + float(timer["seconds"])


def due(
    timers: Iterable[Timer], starts: Mapping[str, float], now: float, *, names: Iterable[str] | None = None
) -> list[Timer]:
    """The live timers whose deadline has passed at ``now``, earliest deadline first (ties in
    the engine's order), so a late sweeper applies them in the order they lapsed: a One Card
    catch window that closed at 5 s goes before a turn timer that ran out at 30 s, although
    the engine lists the turn first. A timer whose id has no start yet is not due.

    ``names`` restricts to those timer names (the bot driver lets only windows and pauses
    lapse, never turns: its bots always act).
    """
    wanted = set(names) if names is not None else None
    lapsed = [
        t
        for t in timers
        if (wanted is None or t["name"] in wanted) and t["id"] in starts and deadline(t, starts) <= now
    ]
    return sorted(lapsed, key=lambda t: deadline(t, starts))  # stable: ties keep the engine's order


def next_deadline(timers: Iterable[Timer], starts: Mapping[str, float]) -> float | None:
    """The earliest deadline among the live timers, or None when nothing is timed."""
    times = [deadline(t, starts) for t in timers if t["id"] in starts]
    return min(times) if times else None


def find_timer(timers: Iterable[Timer], timer_id: str) -> Timer | None:
    """The live timer with ``timer_id``, or None once it ended or was replaced."""
    return next((t for t in timers if t["id"] == timer_id), None)


def timeout_action(timer: Timer) -> dict[str, Any]:
    """The action the server applies for ``timer``'s seat when it lapses (design.md)."""
    return {"type": "timeout", "timer": timer["name"]}


#: windows a seat may use but need not: letting one lapse is not being away (PF-63)
WINDOW_TIMERS: Final[frozenset[str]] = frozenset({"catch", "pika"})


def counts_as_absence(timer: Timer) -> bool:
    """PF-63: a lapsed decision of one seat (a turn, a bid, a reveal, a return) counts toward a stand-in;
    a lapsed window or a table-wide pause does not."""
    return timer.get("seat") is not None and timer["name"] not in WINDOW_TIMERS


def everyone_gone(people: Iterable[tuple[bool, bool]]) -> bool:
    """PF-63 (issue 26): has every person at a table been gone for their timeouts? ``people`` is
    (stand-in playing the seat, a socket open) per person's seat. Then the table waits — no bot
    moves, no timers — until someone comes back or it expires (PF-54); a table with no person
    (a test's, or one whose people all left before the start) is never "gone"."""
    seen = False
    for stand_in, connected in people:
        if connected or not stand_in:
            return False
        seen = True
    return seen


def played_themselves(own_moves: int, made_for_them: int) -> bool:
    """PF-13/PF-14 (issue 26): did a person play a game themselves? At least one move of their own,
    and at least as many as were made for them (lapsed decisions of their own and the stand-in
    bot's moves, PF-63): a second account that sits and goes has not; a friend who drops out
    near the end has."""
    return own_moves > 0 and own_moves >= made_for_them


def wanted_bot_seats(to_act: Iterable[int], bot_seats: Iterable[int]) -> list[int]:
    """The seats a bot plays that may act now, in ``to_act`` order."""
    bots = set(bot_seats)
    return [seat for seat in to_act if seat in bots]


def bot_wake(changed_at: float, *, delay: float = THINK_SECONDS) -> float:
    """When to ask the bots after the table changed at ``changed_at``."""
    return changed_at + delay


def catch_ready_at(window_start: float, reaction_seconds: float) -> float:
    """PF-50: the earliest time a bot may send a catch for a window opened at ``window_start``."""
    return window_start + reaction_seconds


def reaction_ready_at(
    action: Mapping[str, Any], reaction_seconds: float, timers: Iterable[Timer], starts: Mapping[str, float]
) -> float | None:
    """PF-50: when a bot's ``action`` may be sent: a catch ``reaction_seconds`` after the catch window
    of its target opened; None when nothing waits (no reaction time, or no such window live)."""
    if not reaction_seconds:
        return None
    target = action.get("target")
    window = next((t for t in timers if t["name"] == "catch" and t["seat"] == target), None)
    if window is None or window["id"] not in starts:
        return None
    return catch_ready_at(starts[window["id"]], reaction_seconds)
