"""Matchmaking's Celery glue and runners: beat's waves per shard, the wave kicked on join (once
per burst), thin tasks safe to run twice, the in-process runner's waves on the embedded defaults,
and the broadcast batching a wave uses."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from cardgames.matchmaking import online, schedule, services, tasks
from cardgames.matchmaking.models import QueueEntry
from cardgames.matchmaking.pairing import shard_of
from cardgames.tables import broadcast, hooks, runner
from cardgames.tables.models import Table

pytestmark = pytest.mark.django_db


def test_beat_runs_one_wave_per_shard_only_when_celery_runs_the_tables(monkeypatch) -> None:
    monkeypatch.setenv("MATCHMAKING_WAVE_SHARDS", "3")
    beat = schedule.beat_schedule("celery")
    assert sorted(beat) == ["matchmaking-wave-0", "matchmaking-wave-1", "matchmaking-wave-2"]
    assert beat["matchmaking-wave-1"]["task"] == "matchmaking.run_wave"
    assert beat["matchmaking-wave-1"]["kwargs"] == {"shard": 1, "shards": 3}
    assert beat["matchmaking-wave-1"]["schedule"].total_seconds() == schedule.WAVE_SECONDS
    assert schedule.beat_schedule("inprocess") == {} and schedule.beat_schedule("manual") == {}
    monkeypatch.setenv("MATCHMAKING_WAVE_SHARDS", "nope")
    assert schedule.wave_shards() == schedule.DEFAULT_SHARDS


def test_the_tasks_are_registered_with_celery() -> None:
    from config.celery import app

    app.loader.import_default_modules()
    assert {"matchmaking.run_wave", "matchmaking.table_deadline"} <= set(app.tasks)
    assert tasks.table_deadline.max_retries == 5


def test_a_join_kicks_its_shards_wave_once_per_burst_under_celery(
    settings, monkeypatch, make_player, clock, django_capture_on_commit_callbacks
) -> None:
    settings.TABLE_RUNNER = "celery"
    monkeypatch.setenv("MATCHMAKING_WAVE_SHARDS", "2")
    sent = []
    monkeypatch.setattr(tasks.run_wave, "apply_async", lambda kwargs, countdown: sent.append(kwargs))
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            services.join_queue(player=make_player(), game="pika", players=4, now=clock.now)
    shard = shard_of(("pika", 4, 0), 2)
    assert sent == [{"shard": shard, "shards": 2}]  # one kick for the burst, deduplicated by the cache
    # the wave task clears the key when it starts: the next join kicks again
    assert tasks.run_wave.run(shard=shard, shards=2) == 1  # three of four: one partial table opened
    assert Table.objects.get().seats.count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        services.join_queue(player=make_player(), game="pika", players=4, now=clock.now)
    assert len(sent) == 2


def test_the_wave_task_is_safe_to_run_twice(make_player, clock) -> None:
    for _ in range(4):
        services.join_queue(player=make_player(), game="skyjo", players=4, now=clock.now)
    assert tasks.run_wave.run() == 1
    assert tasks.run_wave.run() == 0
    assert Table.objects.get().status == "playing"
    assert not QueueEntry.objects.filter(status="waiting").exists()


def test_the_deadline_task_of_a_missing_or_non_online_table_does_nothing(make_player, clock) -> None:
    from cardgames.tables import services as table_services

    room = table_services.create_room(player=make_player(), game="pika", mode="friends", now=clock.now)
    assert tasks.table_deadline.run(room.pk) == "closed"
    assert tasks.table_deadline.run(10**9) == "closed"


def test_on_the_embedded_defaults_a_join_asks_the_in_process_runner_for_a_wave(
    settings, make_player, clock, django_capture_on_commit_callbacks
) -> None:
    settings.TABLE_RUNNER = "inprocess"
    runner._wave_wanted = False
    with django_capture_on_commit_callbacks(execute=True):
        services.join_queue(player=make_player(), game="one_card", players=2, now=clock.now)
    assert runner._wave_wanted  # the runner's next tick runs services.run_wave()
    runner._wave_wanted = False


def test_matchmaking_hands_the_tables_its_online_table_hooks_at_start_up() -> None:
    """Issue 26: the tables import no matchmaking; CardgamesConfig.ready() registered these."""
    registered = hooks.online()
    assert registered.wake_waiting is online.wake_waiting
    assert registered.stand_up is online.stand_up
    assert registered.abort_table is online.abort_table
    assert registered.run_wave is services.run_wave


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_in_process_runner_seats_the_queue_with_the_registered_wave(settings, make_player) -> None:
    """The runner (tables) runs matchmaking's wave through the hook: two people queued, one table."""
    settings.TABLE_RUNNER = "inprocess"
    settings.TABLE_RUNNER_INTERVAL = 0.02

    def queue_two() -> None:
        for person in (make_player(), make_player()):
            services.join_queue(player=person, game="one_card", players=2)

    def seated() -> int:
        return QueueEntry.objects.filter(status=QueueEntry.Status.SEATED).count()

    await sync_to_async(queue_two)()
    runner.ensure_started()
    try:
        for _ in range(250):
            if await sync_to_async(seated)() == 2:
                break
            await asyncio.sleep(0.02)
        assert await sync_to_async(seated)() == 2
    finally:
        await runner.stop()


def test_a_batch_delivers_after_the_block_in_order_within_each_group(monkeypatch) -> None:
    delivered = []
    monkeypatch.setattr(broadcast, "_deliver", lambda items: delivered.append(list(items)))
    with broadcast.batched(max_delay=60, max_messages=100):
        broadcast._send("user.1", {"n": 1})
        broadcast._send_many(["user.1", "user.2"], {"n": 2})
        assert delivered == []  # held until the block ends (or 100 ms / 500 messages pass)
    assert delivered == [[("user.1", {"n": 1}), ("user.1", {"n": 2}), ("user.2", {"n": 2})]]
    with broadcast.batched(max_delay=60, max_messages=2):
        broadcast._send_many(["user.1", "user.2", "user.3"], {"n": 3})  # over the limit: flushed at once
        assert len(delivered) == 2
    assert len(delivered) == 2


def test_a_wave_that_finds_its_shard_busy_runs_again_shortly(settings, monkeypatch) -> None:
    """A join made while its shard's wave runs kicks a wave that finds the lock held: that one
    queues itself again half a second later (once, however many were skipped), so the entry is
    seated then rather than at beat's next wave."""
    settings.TABLE_RUNNER = "celery"
    sent = []
    monkeypatch.setattr(
        tasks.run_wave, "apply_async", lambda kwargs, countdown: sent.append((kwargs, countdown))
    )
    monkeypatch.setattr(services, "run_wave", lambda **kw: services.Wave(skipped=True))
    assert tasks.run_wave.run(shard=1, shards=2) == 0
    assert tasks.run_wave.run(shard=1, shards=2) == 0
    assert sent == [({"shard": 1, "shards": 2}, services.AGAIN_SECONDS)] * 2  # each task clears the key first
    monkeypatch.setattr(services, "run_wave", lambda **kw: services.Wave())
    assert tasks.run_wave.run(shard=1, shards=2) == 0
    assert len(sent) == 2  # a wave that ran queues nothing
