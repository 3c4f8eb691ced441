"""Who wakes the tables: the in-process runner of the embedded defaults (``bin/run`` with no
Redis plays live), the Celery tasks, and the sweeper with several workers at once."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from cardgames.tables import deadlines, runner, services, settlement, tasks
from cardgames.tables.models import GameResult, Seat, Table
from economy.models import Transfer
from tests.tables.helpers import Clock, play_out, started_table, user_player
from tests.tables.test_socket import Client_, signed_in, started_practice


def _stand_in(table_id: int) -> None:
    """A bot stands in for seat 0 from now on, and the table is due (as after PF-63's 2nd timeout)."""
    Seat.objects.filter(table_id=table_id, index=0).update(stand_in=True)
    now = timezone.now()
    Table.objects.filter(pk=table_id).update(bots_at=now, wake_at=now)
    connection.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_in_process_runner_plays_a_table_live_with_no_worker(settings) -> None:  # type: ignore[no-untyped-def]
    """The embedded defaults: daphne's own runner wakes the bots, the socket sees every move."""
    settings.TABLE_RUNNER = "inprocess"
    settings.TABLE_RUNNER_INTERVAL = 0.02
    settings.TABLE_BOT_THINK_SECONDS = 0.01
    ana, cookie = await signed_in("Ana")

    table_id = await started_practice(ana, "one_card", players=2, bot_level="easy")
    watcher = Client_(table_id, cookie)
    try:
        assert await watcher.connect()  # opening a socket starts the runner
        await watcher.until(lambda f: f.get("type") == "chat_history")  # the socket is all set up
        # connecting gave Ana her seat back (PF-63); she walks away again: a stand-in plays for her
        await sync_to_async(_stand_in)(table_id)
        final = await watcher.until(
            lambda f: f.get("type") == "snapshot" and f["table"]["status"] == "finished", timeout=20
        )
        assert final["table"]["result"]["placements"]
        versions = [f["version"] for f in watcher.frames if f.get("type") == "snapshot"]
        assert versions == sorted(versions)
    finally:
        await runner.stop()
        await watcher.close()


@pytest.mark.django_db(transaction=True)
def test_celery_tasks_are_thin_and_safe_to_run_twice() -> None:
    clock = Clock(timezone.now())
    ana = user_player("Ana")
    table = started_table("pika", ana, clock, players=2)
    table = play_out(table, {0: ana}, clock)
    table.refresh_from_db()
    assert table.settled_at is not None
    tasks.finish_table(table.pk)
    tasks.wake_table(table.pk)
    assert tasks.sweep() == 0
    assert GameResult.objects.filter(table=table).count() == 1
    assert tasks.close_idle_rooms() == 0


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_wakes_only_due_tables_and_retries_an_unsettled_finish() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    assert deadlines.due_tables(now=clock.now) == []
    assert deadlines.due_tables(now=clock.tick(31)) == [table.pk]  # a bot's move or Ana's turn timer
    assert deadlines.sweep(now=clock.now) == 1
    # a finished table whose settlement failed after the commit is settled by the next sweep
    table = play_out(table, {0: ana}, clock)
    Table.objects.filter(pk=table.pk).update(settled_at=None, wake_at=clock.now)
    GameResult.objects.filter(table=table).delete()
    assert deadlines.sweep(now=clock.tick(1)) == 1
    table.refresh_from_db()
    assert table.settled_at is not None and GameResult.objects.filter(table=table).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_settlement_is_exactly_once_when_processes_race_to_finish(require_postgres: None) -> None:
    """Eight workers finish the same table at once: one GameResult, one reward, no error. Two
    people play, so the winner is paid (issue 26 item 3: a person alone with bots is not)."""
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="one_card", mode="friends", players=2, now=clock.now)
    services.join_room(table_id=room.pk, player=bea, code=room.code, now=clock.now)
    table = services.start_table(table_id=room.pk, player=ana, now=clock.now)
    table = play_out(table, {0: ana, 1: bea}, clock)
    Table.objects.filter(pk=table.pk).update(settled_at=None)
    GameResult.objects.filter(table=table).delete()
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def finish() -> None:
        try:
            barrier.wait()
            settlement.finish_table(table_id=table.pk)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert GameResult.objects.filter(table=table).count() == 1
    assert Transfer.objects.filter(key__startswith=f"reward:table:{table.pk}:").count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_apply_each_due_move_once(require_postgres: None) -> None:
    clock = Clock()
    tables = [started_table("skyjo", user_player(f"P{i}"), clock, players=3) for i in range(6)]
    moment = clock.tick(1.5)
    before = {t.pk: t.version for t in tables}
    threads = [
        threading.Thread(target=lambda: (deadlines.sweep(now=moment), connection.close())) for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for table in tables:
        table.refresh_from_db()
        assert table.version == before[table.pk] + 1  # one bot move each, never two for one version


def test_runner_is_a_no_op_unless_in_process(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TABLE_RUNNER = "celery"

    async def start() -> None:
        runner.ensure_started()
        assert runner._task is None

    asyncio.run(start())
