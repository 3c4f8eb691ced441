"""Celery tasks of the live tables: thin, take ids, safe to run twice (docs/architecture.md)."""

from __future__ import annotations

from celery import shared_task

from . import deadlines, services, settlement


@shared_task(name="tables.wake_table", ignore_result=True)
def wake_table(table_id: int) -> None:
    """A countdown task for one table's next deadline or bot move (the sweeper is the backstop)."""
    services.wake_table(table_id=table_id, skip_locked=True)


@shared_task(name="tables.sweep", ignore_result=True)
def sweep() -> int:
    """Every second: wake every table whose deadline, bot move or settlement is due."""
    return deadlines.sweep()


@shared_task(name="tables.finish_table", ignore_result=True)
def finish_table(table_id: int) -> None:
    settlement.finish_table(table_id=table_id)


@shared_task(name="tables.close_idle_rooms", ignore_result=True)
def close_idle_rooms() -> int:
    return services.close_idle_rooms()
