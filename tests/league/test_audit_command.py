"""``manage.py audit_league`` (issue 26): the admin's recompute of every week, the points'
provenance, the prizes and the closes — a sentence per finding, exit status 0 on a clean league
and 1 on any finding."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from league import audit, selectors, services
from league.models import LeaguePoint, LeaguePrize
from tests.audits import manage, tampered
from tests.league.factories import SIM, SUMMER_MONDAY, finished_game, make_player

pytestmark = pytest.mark.django_db


def run(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, str, str]:
    return manage(capsys, "audit_league", *options)


@pytest.fixture
def closed_week() -> dict[str, Any]:
    """Week 2026-W27: an online game of four, a buy-in game of two and a free game with a
    simulated player (PF-16: halved), closed and its prizes paid."""
    ana, bea, cris, dani = (make_player(n) for n in ("ana", "bea", "cris", "dani"))
    monday = SUMMER_MONDAY
    first = finished_game(
        seats=[ana, bea, cris, dani], placements=[1, 2, 3, 4], at=monday + timedelta(hours=10)
    )
    finished_game(seats=[bea, ana], placements=[1, 2], mode="buyin", stake=100, at=monday + timedelta(days=1))
    finished_game(seats=[cris, SIM, dani], placements=[1, 2, 3], at=monday + timedelta(days=2))
    week = selectors.week_for(monday + timedelta(days=1))
    services.close_week(week=week, now=week.end + timedelta(minutes=10))
    return {"week": week, "first": first, "ana": ana, "dani": dani}


def test_a_clean_league_exits_0_and_says_what_it_checked(closed_week, capsys) -> None:
    status, out, err = run(capsys)
    assert status == 0 and err == ""
    assert "every point, standing and prize checks out" in out
    assert "Checked 1 week(s), 3 games, 8 points." in out
    assert run(capsys, "--week", "2026-W27")[0] == 0


def test_a_point_without_its_table_a_forged_point_and_a_raised_prize_are_reported_and_exit_1(
    closed_week, capsys
) -> None:
    first, ana = closed_week["first"], closed_week["ana"]
    # given 40 points for Eva, who never played the first game: a copy of Ana's row past the services ...
    point = LeaguePoint.objects.get(game_result=first, user=ana)
    eva = make_player("eva")
    fields = ("week_id", "kind", "game", "table_id", "game_result_id", "seat", "place", "players", "points")
    row = LeaguePoint.objects.filter(pk=point.pk).values(*fields, "earned_at").get()
    LeaguePoint.objects.create(**row, user=eva)
    # ... Ana's own point pointing at a table that does not exist ...
    tampered(
        "league_leaguepoint", "UPDATE league_leaguepoint SET table_id = 999999 WHERE id = %s", [point.pk]
    )
    # ... and first place's prize raised in its row
    LeaguePrize.objects.filter(week=point.week, place=1).update(amount=2000)
    try:
        # when the operator audits
        status, out, err = run(capsys)
    finally:  # the database checks its foreign keys when the test ends: the table comes back
        tampered(
            "league_leaguepoint",
            "UPDATE league_leaguepoint SET table_id = %s WHERE id = %s",
            [first.table_id, point.pk],
        )
    # then each finding is a sentence, and the status says "found something"
    assert status == 1 and "the league audit found" in err
    week = "week 2026-W27: "
    assert f"{week}point {point.pk} of user {ana.pk} links to table 999999, which is not there" in out
    assert f"{week}user {eva.pk} has points for game result {first.pk} it does not earn" in out
    eva_line = (
        f"all: eva (user {eva.pk}) stands #3 with 40 points (1 won of 1); rebuilt from the points: nowhere"
    )
    assert week + eva_line in out  # the live standings count the forged row
    prize = (
        f"prize place 1 is user {ana.pk} for 50 points, 2000 coins; the frozen standings give user {ana.pk}"
    )
    assert week + prize in out


def test_a_week_left_unclosed_is_reported_an_hour_after_its_close_was_due() -> None:
    ana, bea = make_player("ana"), make_player("bea")
    finished_game(seats=[ana, bea], placements=[1, 2], at=SUMMER_MONDAY + timedelta(hours=10))
    week = selectors.week_for(SUMMER_MONDAY)
    on_time = audit.audit_league(now=week.end + services.close_delay() + timedelta(minutes=59))
    late = audit.audit_league(now=week.end + services.close_delay() + timedelta(hours=1))
    assert on_time.ok, on_time.problems
    assert [p["check"] for p in late.problems] == ["week_not_closed"]
    assert (
        audit.describe(late.problems[0])
        == f"week 2026-W27: ended at {week.end.isoformat()} and is never closed"
    )


def test_a_bad_week_is_a_usage_error(capsys) -> None:
    status, _out, err = run(capsys, "--week", "next tuesday")
    assert status == 2 and "not a week" in err
