"""The Celery app: configured from Django settings, tasks autodiscovered, beat schedule here."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tapete")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic work; each task is idempotent, so a missed or doubled beat is harmless.
app.conf.beat_schedule = {}
