"""The league's weeks (PF-60): Monday 00:00 to the next Monday 00:00 in the league time zone.

Pure: no Django, no clock; the zone is an argument (the app passes
``settings.LEAGUE_TIME_ZONE``, default Europe/Madrid). Bounds are returned in UTC, as they
are stored. Local midnights are resolved by ``zoneinfo``, so the week in which summer time
starts is 167 hours long and the one in which it ends 169, and both still run from a local
Monday midnight to the next. A zone that skips or repeats midnight itself starts the week
at the first instant of the local Monday.

A week's key is the ISO week of its Monday, ``"2026-W49"``; ``parse_week`` also takes a
date (``"2026-11-30"``, any day of the week).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

KEY_PATTERN: Final = re.compile(r"^(\d{4})-W(\d{2})$")
DATE_PATTERN: Final = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, order=True)
class Week:
    """One league week: its local Monday and its UTC bounds, ``start`` ≤ t < ``end``."""

    monday: date
    start: datetime
    end: datetime

    @property
    def key(self) -> str:
        year, number, _ = self.monday.isocalendar()
        return f"{year}-W{number:02d}"

    def contains(self, moment: datetime) -> bool:
        return self.start <= _aware(moment) < self.end

    def __str__(self) -> str:
        return self.key


def _zone(zone: str | ZoneInfo) -> ZoneInfo:
    return zone if isinstance(zone, ZoneInfo) else ZoneInfo(zone)


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{moment!r} has no time zone: the league counts instants, not wall times")
    return moment


def local_midnight(day: date, zone: str | ZoneInfo) -> datetime:
    """The first instant of ``day`` in ``zone``, in UTC."""
    return datetime.combine(day, time(0), tzinfo=_zone(zone)).astimezone(UTC)


def week_starting(monday: date, zone: str | ZoneInfo) -> Week:
    """The week that starts on the local Monday ``monday``."""
    if monday.weekday() != 0:
        raise ValueError(f"{monday} is not a Monday")
    return Week(monday, local_midnight(monday, zone), local_midnight(monday + timedelta(days=7), zone))


def week_of(moment: datetime, zone: str | ZoneInfo) -> Week:
    """The week that contains the instant ``moment`` (an aware datetime)."""
    local = _aware(moment).astimezone(_zone(zone))
    week = week_starting(local.date() - timedelta(days=local.weekday()), zone)
    # a zone that turns its clocks back across midnight shows some instants after the
    # Monday's first midnight with Sunday's date: the bounds, not the wall date, decide
    if moment >= week.end:
        return next_week(week, zone)
    if moment < week.start:
        return previous_week(week, zone)
    return week


def previous_week(week: Week, zone: str | ZoneInfo) -> Week:
    return week_starting(week.monday - timedelta(days=7), zone)


def next_week(week: Week, zone: str | ZoneInfo) -> Week:
    return week_starting(week.monday + timedelta(days=7), zone)


def parse_week(text: str, zone: str | ZoneInfo) -> Week:
    """The week named by ``"2026-W49"`` or by a date in it (``"2026-12-02"``); ``ValueError`` else."""
    text = text.strip()
    match = KEY_PATTERN.match(text)
    if match:
        monday = date.fromisocalendar(int(match.group(1)), int(match.group(2)), 1)
        return week_starting(monday, zone)
    if DATE_PATTERN.match(text):
        day = date.fromisoformat(text)
        return week_starting(day - timedelta(days=day.weekday()), zone)
    raise ValueError(f"{text!r} is not a week (2026-W49) or a date (2026-12-02)")


__all__ = [
    "Week",
    "local_midnight",
    "next_week",
    "parse_week",
    "previous_week",
    "week_of",
    "week_starting",
]
