"""Fixtures of the matchmaking suite: players with wallets, a fixed clock, the lobby events sent."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.identity import Player, player_for_user
from cardgames.tables import broadcast
from tests.tables.helpers import T0, Clock  # noqa: F401  (the tests import them from here too)

_names = itertools.count(1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_player() -> Callable[..., Player]:
    """A signed-in player (the welcome grant gives their wallet 1,000 coins, PF-57)."""

    def make(name: str | None = None) -> Player:
        user = get_user_model().objects.create_user(username=name or f"jugador{next(_names)}", password=None)
        return player_for_user(user)

    return make


class Events:
    """The lobby events handed to ``broadcast.to_user(s)`` (at call time, before the commit)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, dict[str, Any]]] = []

    def of(self, player: Player, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            p for uid, p in self.sent if uid == player.user_id and (kind is None or p.get("type") == kind)
        ]

    def last(self, player: Player) -> dict[str, Any]:
        return self.of(player)[-1]

    def states(self, player: Player) -> list[str]:
        return [p.get("state", p["type"]) for p in self.of(player)]


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> Iterator[Events]:
    recorder = Events()
    real, real_many = broadcast.to_user, broadcast.to_users

    def record(user_id: int, payload: dict[str, Any]) -> None:
        recorder.sent.append((user_id, payload))
        real(user_id, payload)

    def record_many(user_ids: Any, payload: dict[str, Any]) -> None:
        user_ids = list(user_ids)
        recorder.sent.extend((user_id, payload) for user_id in user_ids)
        real_many(user_ids, payload)

    monkeypatch.setattr(broadcast, "to_user", record)
    monkeypatch.setattr(broadcast, "to_users", record_many)
    yield recorder
