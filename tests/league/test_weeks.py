"""PF-60: the league week runs Monday 00:00 → Monday 00:00 in the league time zone, stored in UTC
(league/weeks.py is pure; these tests need no database)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.weeks import Week, next_week, parse_week, previous_week, week_of, week_starting

MADRID = "Europe/Madrid"
US = timedelta(microseconds=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_pf60_a_winter_week_is_monday_midnight_in_madrid_stored_in_utc() -> None:
    week = week_of(utc(2026, 12, 2, 12), MADRID)
    assert week.key == "2026-W49"
    assert week.monday == date(2026, 11, 30)
    assert week.start == utc(2026, 11, 29, 23)  # Monday 00:00 CET = Sunday 23:00 UTC
    assert week.end == utc(2026, 12, 6, 23)
    assert week.end - week.start == timedelta(days=7)
    assert week.start.tzinfo is UTC and week.end.tzinfo is UTC


def test_pf60_a_summer_week_starts_at_22_utc() -> None:
    week = week_of(utc(2026, 7, 1, 9), MADRID)
    assert (week.key, week.start, week.end) == ("2026-W27", utc(2026, 6, 28, 22), utc(2026, 7, 5, 22))


def test_pf60_the_week_summer_time_starts_is_167_hours() -> None:
    # Sunday 29 March 2026, 02:00 CET → 03:00 CEST
    week = week_of(utc(2026, 3, 25, 12), MADRID)
    assert week.key == "2026-W13"
    assert week.start == utc(2026, 3, 22, 23)  # Monday 23 March 00:00 CET
    assert week.end == utc(2026, 3, 29, 22)  # Monday 30 March 00:00 CEST
    assert week.end - week.start == timedelta(hours=167)
    # the instant of the change itself, and the last hour of Sunday in summer time, are in it
    assert week_of(utc(2026, 3, 29, 1), MADRID) == week
    assert week_of(utc(2026, 3, 29, 22) - US, MADRID) == week
    assert week_of(utc(2026, 3, 29, 22), MADRID).key == "2026-W14"


def test_pf60_the_week_summer_time_ends_is_169_hours() -> None:
    # Sunday 25 October 2026, 03:00 CEST → 02:00 CET: 02:00–03:00 happens twice
    week = week_of(utc(2026, 10, 21, 12), MADRID)
    assert week.key == "2026-W43"
    assert week.start == utc(2026, 10, 18, 22)  # Monday 19 October 00:00 CEST
    assert week.end == utc(2026, 10, 25, 23)  # Monday 26 October 00:00 CET
    assert week.end - week.start == timedelta(hours=169)
    both_halves = [utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30)]  # 02:30 CEST and 02:30 CET
    assert [week_of(t, MADRID) for t in both_halves] == [week, week]
    assert week_of(utc(2026, 10, 25, 23) - US, MADRID) == week
    assert week_of(utc(2026, 10, 25, 23), MADRID).key == "2026-W44"


def test_pf60_boundaries_are_half_open_to_the_microsecond() -> None:
    week = week_of(utc(2026, 12, 2), MADRID)
    assert week.contains(week.start)
    assert not week.contains(week.end)
    assert week_of(week.start - US, MADRID) == previous_week(week, MADRID)
    assert week_of(week.end, MADRID) == next_week(week, MADRID)
    # Sunday 23:59:59.999999 in Madrid is still this week, though it is Sunday 22:59 UTC
    assert week_of(datetime(2026, 12, 6, 23, 59, 59, 999999, tzinfo=ZoneInfo(MADRID)), MADRID) == week


def test_pf60_the_zone_is_configurable() -> None:
    moment = utc(2026, 12, 7, 3)  # Monday 04:00 in Madrid, still Sunday 22:00 in New York
    assert week_of(moment, MADRID).key == "2026-W50"
    ny = week_of(moment, "America/New_York")
    assert ny.key == "2026-W49"
    assert ny.start == utc(2026, 11, 30, 5)
    assert week_of(moment, "UTC").start == utc(2026, 12, 7)


def test_keys_follow_iso_weeks_across_new_year() -> None:
    assert week_of(utc(2026, 12, 31, 12), MADRID).key == "2026-W53"
    assert week_of(utc(2027, 1, 1, 12), MADRID).key == "2026-W53"
    assert week_of(utc(2027, 1, 4, 12), MADRID).key == "2027-W01"
    assert week_of(utc(2027, 1, 3, 22, 59), MADRID).key == "2026-W53"  # Sunday 23:59 in Madrid


def test_parse_week_takes_a_key_or_any_date_of_the_week() -> None:
    week = parse_week("2026-W13", MADRID)
    assert week.monday == date(2026, 3, 23)
    assert parse_week("2026-03-29", MADRID) == week
    assert parse_week(" 2026-03-23 ", MADRID) == week
    for bad in ["2026-W54", "2025-W53", "2026-13-01", "W13", "", "2026-W1"]:
        with pytest.raises(ValueError):
            parse_week(bad, MADRID)


def test_week_starting_refuses_a_day_other_than_monday_and_naive_times_are_refused() -> None:
    with pytest.raises(ValueError):
        week_starting(date(2026, 3, 24), MADRID)
    with pytest.raises(ValueError):
        week_of(datetime(2026, 3, 24, 12), MADRID)


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)))
def test_every_instant_is_in_exactly_one_week_that_starts_on_a_local_monday_midnight(
    moment: datetime,
) -> None:
    zone = ZoneInfo(MADRID)
    week = week_of(moment, MADRID)
    assert week.start <= moment < week.end
    local = week.start.astimezone(zone)
    assert (local.weekday(), local.hour, local.minute, local.second) == (0, 0, 0, 0)
    assert week.end.astimezone(zone).weekday() == 0
    assert timedelta(hours=167) <= week.end - week.start <= timedelta(hours=169)
    assert parse_week(week.key, MADRID) == week
    assert isinstance(week, Week) and next_week(previous_week(week, MADRID), MADRID) == week
