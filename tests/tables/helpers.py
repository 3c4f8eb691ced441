"""Helpers for live-table tests: players, a fake clock, and playing a table to its end."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model

from accounts.identity import Player, player_for_user
from cardgames.tables import services
from cardgames.tables.errors import TableError
from cardgames.tables.models import Table

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def user_player(username: str) -> Player:
    user = get_user_model().objects.create_user(username=username, password="mesa-verde-2026")
    return player_for_user(user)


def guest_player(name: str, gid: str = "g1") -> Player:
    return Player(kind="guest", id=gid, name=name)


class Clock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def tick(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def started_table(game: str, host: Player, clock: Clock, *, level: str = "easy", **room: Any) -> Table:
    """A friends room of ``host`` and bots, started."""
    table = services.create_room(player=host, game=game, mode="friends", now=clock.now, **room)
    while table.seats.count() < table.num_players:
        services.add_bot(table_id=table.pk, player=host, level=level, now=clock.now)
    return services.start_table(table_id=table.pk, player=host, now=clock.now)


def play_out(
    table: Table, humans: dict[int, Player], clock: Clock, *, seed: int = 0, max_steps: int = 20_000
) -> Table:
    """Play to the end: humans pick a seeded random legal action when asked, time runs 1.1 s a step."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        acted = False
        from cardgames.engines import get_engine

        eng = get_engine(table.game)
        state = eng.load(table.state)
        for seat, player in humans.items():
            if seat in eng.to_act(state):
                legal = eng.legal_actions(state, seat)
                if legal and rng.random() < 0.9:
                    action = dict(rng.choice(legal))
                    try:
                        services.submit_action(
                            table_id=table.pk,
                            player=player,
                            action=action,
                            action_id=f"a{table.version}",
                            version=table.version,
                            now=clock.now,
                        )
                    except TableError as exc:
                        # a live server's runner (browser tests) moved the bots in between
                        if exc.code not in ("stale", "not_your_turn", "not_playing"):
                            raise
                    acted = True
                    break
        if not acted:
            services.wake_table(table_id=table.pk, now=clock.tick(1.1))
    raise AssertionError(f"{table.game} table {table.pk} did not finish")
