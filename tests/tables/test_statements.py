"""The move's hand-compiled statements return and write exactly what the ORM would.

They run on the site's database, whichever it is: SQLite here, PostgreSQL in the real-service tier.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, models, transaction

from cardgames.tables import services, statements
from cardgames.tables.models import ActionLog, Seat, Table

from .helpers import Clock, play_out, started_table, user_player

pytestmark = pytest.mark.django_db(transaction=True)


def _fields(instance: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def played() -> Table:
    """A One Card table of Ana and three bots, a few moves in (JSON, dates and nulls all set)."""
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock)
    services.mark_connected(table_id=table.pk, player=ana, connected=True)  # watching: it plays on
    for _ in range(6):
        services.wake_table(table_id=table.pk, now=clock.tick(31))
    table.refresh_from_db()
    return table


def test_a_table_read_is_the_orms_row_with_its_json_and_dates_decoded(played: Table) -> None:
    read = statements.table(played.pk)
    assert read is not None and _fields(read) == _fields(Table.objects.get(pk=played.pk))
    assert isinstance(read.state, dict) and isinstance(read.timer_starts, dict)
    assert read.deadline_at is not None and read.deadline_at.tzinfo is not None
    assert statements.table(10**9) is None
    assert statements.version(played.pk) == played.version and statements.version(10**9) is None


def test_a_locked_read_inside_the_move_transaction_is_the_same_row(played: Table) -> None:
    with transaction.atomic():
        locked = statements.table(played.pk, lock=True)
        skipped = statements.table(played.pk, lock=True, skip_locked=True)  # our own lock: readable
    assert locked is not None and skipped is not None and locked.version == played.version


def test_seats_come_in_seat_order_knowing_their_table_without_another_query(
    played: Table, django_assert_num_queries: Any
) -> None:
    seats = statements.seats(played)
    assert [_fields(s) for s in seats] == [
        _fields(s) for s in Seat.objects.filter(table=played).order_by("index")
    ]
    with django_assert_num_queries(0):
        assert all(s.table is played for s in seats)


def test_the_last_action_and_the_dedupe_read_the_log(played: Table) -> None:
    last = statements.last_action(played)
    orm_last = ActionLog.objects.filter(table=played).order_by("-seq").first()
    assert last is not None and orm_last is not None and _fields(last) == _fields(orm_last)
    mine = ActionLog.objects.filter(table=played).exclude(seat=None).first()
    assert mine is not None
    assert not statements.applied_before(played, mine.seat or 0, "never-sent")
    ActionLog.objects.filter(pk=mine.pk).update(action_id="a-1")
    assert statements.applied_before(played, mine.seat or 0, "a-1")
    assert not statements.applied_before(played, (mine.seat or 0) + 1, "a-1")


def test_an_insert_writes_every_field_and_sets_the_key(played: Table) -> None:
    row = ActionLog(
        table=played,
        seq=played.version + 1,
        seat=2,
        action={"type": "draw", "note": "ñ \u2603"},
        events=[{"type": "drew", "count": 1}],
        source=ActionLog.Source.PLAYER,
        action_id="x-9",
        at=played.deadline_at,
    )
    statements.insert(row)
    assert row.pk is not None and not row._state.adding
    assert _fields(ActionLog.objects.get(pk=row.pk)) == _fields(row)


def test_an_update_writes_the_named_fields_only(played: Table) -> None:
    table = statements.table(played.pk)
    assert table is not None
    table.version += 1
    table.timer_starts = {"turn:9": 12.5}
    table.result = {"winners": [0]}
    table.code = "CHANGED"  # not named: stays as stored
    statements.update(table, ["version", "timer_starts", "result"])
    stored = Table.objects.get(pk=played.pk)
    assert (stored.version, stored.timer_starts, stored.result) == (
        played.version + 1,
        {"turn:9": 12.5},
        {"winners": [0]},
    )
    assert stored.code == played.code


def test_an_update_of_a_row_that_is_gone_is_an_error_as_the_orm_makes_it(played: Table) -> None:
    table = statements.table(played.pk)
    assert table is not None
    Table.objects.filter(pk=played.pk).delete()
    table.version += 1
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        statements.update(table, ["version"])
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        table.save(update_fields=["version"])  # the ORM's own answer, for comparison


def test_an_insert_on_a_database_without_returning_takes_the_drivers_last_row_id(
    played: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither SQLite ≥ 3.35 nor PostgreSQL takes this path; a backend without RETURNING does,
    as Django does (``connection.ops.last_insert_id``). SQLite's driver has a last row id."""
    if connection.vendor != "sqlite":
        pytest.skip("only a driver with a last row id (SQLite's here) can stand in for such a backend")
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)
    statements._insert_sql.cache_clear()
    try:
        row = ActionLog(table=played, seq=played.version + 1, seat=1, action={"type": "draw"}, events=[])
        row.at = played.deadline_at
        statements.insert(row)
        assert row.pk == ActionLog.objects.latest("pk").pk
        assert _fields(ActionLog.objects.get(pk=row.pk)) == _fields(row)
    finally:
        statements._insert_sql.cache_clear()


def test_a_whole_game_through_the_statements_replays_from_its_log() -> None:
    """The move path writes through these statements; the log they wrote replays to the stored state."""
    from cardgames.tables import selectors

    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock)
    table = play_out(table, {0: ana}, clock, seed=3)
    assert table.status == Table.Status.FINISHED
    verdict = selectors.verify_table(table=table)
    assert verdict["ok"] and verdict["result_matches"], verdict


def test_an_id_beyond_any_key_names_no_table() -> None:
    """Bad input such as /ws/tables/99999999999999999999999/ is "no such table", not a crash of
    the database driver (SQLite refuses integers over 64 bits)."""
    assert statements.table(10**23) is None and statements.table(-(10**23), lock=True) is None
    assert statements.version(10**23) is None
