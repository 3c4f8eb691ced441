"""The daily housekeeping (issue 26 item 10): expired sessions and guests' leftovers.

Guest identities are free and live in the session (PF-61), so without a purge the session
table grows with every visitor for ever. Once a day (Celery beat, ``cardgames.tasks``):

- ``clear_expired_sessions``: what ``manage.py clearsessions`` does, for the configured
  session engine;
- ``purge_guest_tables``: closed rooms at which no account ever sat — practice against bots
  and friends rooms of guests only — whose last move or chat line is older than
  ``GUEST_TABLE_RETENTION_DAYS`` (default: a session's life, ``SESSION_COOKIE_AGE``, so the
  guest sessions that played there have lapsed too unless used since). Nothing references
  those rows: guests have no wallet, no league points and no rating (PF-61), such rooms have
  no pot or queue entry, and no account's history lists them. Their seats, log, chat,
  invitations and result go with them. A table an account sat at is history and stays.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from cardgames.tables.models import GameResult, Seat, Table

log = logging.getLogger(__name__)
#: tables deleted per transaction
BATCH = 200


def clear_expired_sessions() -> int:
    """Delete expired sessions (Django's ``clearsessions``); returns how many database rows went
    (0 for engines that expire on their own, such as the cache)."""
    engine = import_module(settings.SESSION_ENGINE)
    database_backed = settings.SESSION_ENGINE.endswith(("db", "cached_db"))
    before = Session.objects.count() if database_backed else 0
    engine.SessionStore.clear_expired()
    return before - Session.objects.count() if database_backed else 0


def guest_retention() -> timedelta:
    days = settings.GUEST_TABLE_RETENTION_DAYS
    return timedelta(days=days) if days is not None else timedelta(seconds=settings.SESSION_COOKIE_AGE)


def guest_tables(*, now: datetime | None = None) -> list[int]:
    """Ids of the closed tables no account sat at, with no move or chat for longer than the
    retention."""
    cutoff = (now or timezone.now()) - guest_retention()
    account_seat = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False)
    return list(
        Table.objects.filter(
            status=Table.Status.CLOSED,
            mode__in=(Table.Mode.BOTS, Table.Mode.FRIENDS),
            pot__isnull=True,
            last_activity_at__lt=cutoff,
        )
        .exclude(Exists(account_seat))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def purge_guest_tables(*, now: datetime | None = None) -> int:
    """Delete ``guest_tables`` with everything that hangs on them; returns how many tables."""
    ids = guest_tables(now=now)
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        with transaction.atomic():
            GameResult.objects.filter(table_id__in=batch).delete()  # protects its table
            Table.objects.filter(pk__in=batch).delete()  # seats, log, chat, invitations cascade
    return len(ids)


def daily(*, now: datetime | None = None) -> dict[str, int]:
    done = {"sessions": clear_expired_sessions(), "guest_tables": purge_guest_tables(now=now)}
    log.info("housekeeping: %(sessions)s expired sessions, %(guest_tables)s guest tables removed", done)
    return done
