"""The Celery app: configured from Django settings, tasks autodiscovered, beat schedule here."""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery

from economy.tasks import BEAT_SCHEDULE as ECONOMY_BEAT_SCHEDULE

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tapete")
app.config_from_object("django.conf:settings", namespace="CELERY")

# The embedded file-system broker needs its folders before the first message.
if app.conf.broker_url == "filesystem://":
    for option in ("data_folder_in", "data_folder_out", "processed_folder"):
        Path(app.conf.broker_transport_options[option]).mkdir(parents=True, exist_ok=True)
app.autodiscover_tasks()

# Periodic work; each task is idempotent, so a missed or doubled beat is harmless.
app.conf.beat_schedule = {**ECONOMY_BEAT_SCHEDULE}
