"""The Celery app: configured from Django settings, tasks autodiscovered, beat schedule here."""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery

from cardgames.matchmaking.schedule import beat_schedule as matchmaking_beat_schedule
from cardgames.tables.schedule import beat_schedule as tables_beat_schedule
from cardgames.tasks import BEAT_SCHEDULE as HOUSEKEEPING_BEAT_SCHEDULE
from economy.tasks import BEAT_SCHEDULE as ECONOMY_BEAT_SCHEDULE
from league.tasks import BEAT_SCHEDULE as LEAGUE_BEAT_SCHEDULE

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tapete")
app.config_from_object("django.conf:settings", namespace="CELERY")

# The embedded file-system broker needs its folders before the first message.
if app.conf.broker_url == "filesystem://":
    for option in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        Path(app.conf.broker_transport_options[option]).mkdir(parents=True, exist_ok=True)
app.autodiscover_tasks()
app.autodiscover_tasks(["cardgames.tables"])  # the live tables' tasks live in their own wing
app.autodiscover_tasks(["cardgames.matchmaking"])  # and matchmaking's in its own

# Periodic work; each task is idempotent, so a missed or doubled beat is harmless.
_table_runner = os.environ.get("TABLE_RUNNER", "celery" if os.environ.get("REDIS_URL") else "inprocess")
app.conf.beat_schedule = {
    **ECONOMY_BEAT_SCHEDULE,
    **LEAGUE_BEAT_SCHEDULE,
    **HOUSEKEEPING_BEAT_SCHEDULE,
    **tables_beat_schedule(_table_runner),
    **matchmaking_beat_schedule(_table_runner),
}
