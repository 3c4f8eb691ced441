"""Finished online games for league tests, without matchmaking.

``finished_game`` builds a ``Table`` (mode online or buyin) with its seats, marks it finished
with the given placements and calls ``cardgames.tables.settlement.finish_table``, exactly as
the table service does after the last move: rewards are paid, a buy-in pot is settled, the
``GameResult`` is recorded and ``game_finished`` reaches the league (its on-commit callback is
run here, also inside a test's transaction).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.test import TestCase

from cardgames.tables.models import GameResult, Seat, Table
from cardgames.tables.settlement import finish_table
from economy.services import buy_in, cancel_pot, open_pot, start_pot

SIM = "sim"  # a simulated player's seat
GUEST = "guest"  # a guest's seat (no account)
_names = itertools.count(1)

# A Monday 00:00 in Madrid (winter: 23:00 UTC the day before) and one in summer time.
WINTER_MONDAY = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)  # Mon 2026-11-30 00:00 CET
SUMMER_MONDAY = datetime(2026, 6, 28, 22, 0, tzinfo=UTC)  # Mon 2026-06-29 00:00 CEST


def make_player(name: str | None = None, **extra: Any) -> Any:
    """A registered player (with the welcome grant, through the economy's post_save)."""
    return get_user_model().objects.create_user(username=name or f"p{next(_names)}", password=None, **extra)


def _seat_row(table: Table, index: int, who: Any) -> Seat:
    if who == SIM:
        return Seat(
            table=table, index=index, kind=Seat.Kind.SIMULATED, name=f"Sim{index}", bot_level="normal"
        )
    if who == GUEST:
        return Seat(
            table=table, index=index, kind=Seat.Kind.GUEST, name=f"Guest{index}", player_key=f"guest:{index}"
        )
    return Seat(
        table=table,
        index=index,
        kind=Seat.Kind.HUMAN,
        user=who,
        name=who.username,
        player_key=f"user:{who.pk}",
    )


def new_table(
    *, game: str, mode: str, seats: Sequence[Any], at: datetime, stake: int | None = None, start: bool = True
) -> Table:
    """A table of ``mode`` with these seats (users, ``SIM`` or ``GUEST``), playing; a buy-in
    table (``mode="buyin"``) opens its pot, takes every human's entry and (``start``) starts it."""
    table = Table.objects.create(
        game=game,
        mode=mode,
        status=Table.Status.PLAYING,
        host_key="test",
        num_players=len(seats),
        simulated=SIM in seats,
        started_at=at,
        last_activity_at=at,
    )
    Seat.objects.bulk_create([_seat_row(table, i, who) for i, who in enumerate(seats)])
    if mode == Table.Mode.BUYIN:
        pot = open_pot(reference=f"table:{table.pk}", stake=stake or 100)
        for who in seats:
            if who not in (SIM, GUEST):
                buy_in(user=who, pot=pot)
        if start:
            start_pot(pot=pot)
        table.pot = pot
        table.save(update_fields=["pot"])
    return table


def finish(table: Table, placements: Sequence[int], at: datetime) -> GameResult:
    """End the table with these placements at ``at`` and settle it as the table service does."""
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED,
        result={
            "placements": list(placements),
            "winners": [i for i, p in enumerate(placements) if p == 1],
            "scores": [0] * len(placements),
        },
        finished_at=at,
        wake_at=at,
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        result = finish_table(table_id=table.pk, now=at)
    assert result is not None
    return result


def finished_game(
    *,
    seats: Sequence[Any],
    placements: Sequence[int],
    at: datetime,
    game: str = "pika",
    mode: str = "online",
    stake: int | None = None,
) -> GameResult:
    """A finished, settled online (or buy-in) game: the league has heard ``game_finished``."""
    return finish(new_table(game=game, mode=mode, seats=seats, at=at, stake=stake), placements, at)


def cancelled_buyin(*, seats: Sequence[Any], at: datetime, game: str = "pika", stake: int = 100) -> Table:
    """A buy-in table that did not fill in time (PF-18, PF-52): cancelled, entries refunded, no game."""
    table = new_table(game=game, mode="buyin", seats=seats, at=at, stake=stake, start=False)
    assert table.pot is not None
    cancel_pot(pot=table.pot)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    return table
