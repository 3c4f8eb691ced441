"""bench/tables.py's seatings: the harness makes the rooms each seating asks for (people's friends
rooms, or one person and three bots of a level, PF-13)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from bench.live_harness import _cmd_rooms
from bench.tables import Seating
from cardgames.tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def _users(count: int) -> list[int]:
    model = get_user_model()
    return [model.objects.create_user(username=f"bench{i}", password=None).pk for i in range(count)]


def test_a_hard_bots_seating_makes_bots_rooms_of_one_person_and_three_hard_bots() -> None:
    seating = Seating(game="puteo", bots="hard")
    users = _users(2)
    rooms = _cmd_rooms(seating.rooms_request([[u] for u in users], per_group=2))
    assert [len(r["tables"]) for r in rooms] == [2, 2]
    for table in Table.objects.all():
        assert (table.game, table.mode, table.num_players) == ("puteo", "bots", 4)
        seats = list(table.seats.order_by("index"))
        assert seats[0].kind == Seat.Kind.HUMAN
        assert [(s.kind, s.bot_level) for s in seats[1:]] == [(Seat.Kind.BOT, "hard")] * 3


def test_the_default_seating_makes_one_card_friends_rooms_of_four_people() -> None:
    seating = Seating()
    users = _users(4)
    rooms = _cmd_rooms(seating.rooms_request([users], per_group=1))
    table = Table.objects.get(pk=rooms[0]["tables"][0])
    assert (table.game, table.mode, seating.people) == ("one_card", "friends", 4)
    assert table.seats.filter(kind=Seat.Kind.HUMAN).count() == 4
