"""The league's API, its page (/liga/, the player's own row highlighted) and its admin
(standings per week with every point one click from its table, recompute with a diff,
corrections with who and why)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from cardgames.tables.models import GameResult
from league import selectors, services
from league.models import LeaguePoint
from tests.league.factories import SIM, finished_game, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def now_week() -> Any:
    return selectors.current_week()


@pytest.fixture
def boss() -> Any:
    return make_player("boss", is_staff=True, is_superuser=True)


def at(week: Any, minutes: int = 1) -> Any:
    return week.start + timedelta(minutes=minutes)


def many_players(week: Any, boss: Any, n: int) -> list[Any]:
    """n players with n, n-1, … 1 points (corrections: quick to make)."""
    players = [make_player(f"jugador{i:02d}") for i in range(n)]
    for i, player in enumerate(players):
        services.add_correction(
            user=player, week=week, points=n - i, reason="semilla", actor=boss, now=at(week, i)
        )
    return players


# --- API -----------------------------------------------------------------------------------


def test_api_standings_of_the_current_week_public_with_my_own_line(client: Client, now_week: Any) -> None:
    ana, bea, carla = make_player("ana"), make_player("bea"), make_player("carla")
    finished_game(seats=[ana, bea, carla], placements=[2, 1, 3], at=at(now_week))
    finished_game(seats=[ana, SIM], placements=[1, 2], at=at(now_week, 2), game="skyjo")
    anonymous = client.get("/api/league/standings/").json()
    assert anonymous["week"]["key"] == now_week.key and anonymous["week"]["current"] is True
    assert anonymous["frozen"] is False and anonymous["me"] is None and anonymous["game"] is None
    assert [
        (r["position"], r["username"], r["points"], r["wins"], r["games"]) for r in anonymous["results"]
    ] == [
        (1, "bea", 30, 1, 1),
        (2, "ana", 30, 1, 2),  # equal points and wins: bea reached 30 first
        (3, "carla", 10, 0, 1),
    ]
    client.force_login(ana)
    mine = client.get("/api/league/standings/", {"game": "skyjo"}).json()
    assert mine["game"] == "skyjo" and [r["username"] for r in mine["results"]] == ["ana"]
    assert mine["me"]["points"] == 10 and mine["results"][0]["is_me"] is True


def test_api_pages_through_the_standings_and_refuses_bad_input(
    client: Client, now_week: Any, boss: Any
) -> None:
    players = many_players(now_week, boss, 55)
    first = client.get("/api/league/standings/", {"week": now_week.key}).json()
    assert first["count"] == 55 and len(first["results"]) == 50 and first["next"]
    second = client.get(first["next"]).json()
    assert [r["position"] for r in second["results"]] == [51, 52, 53, 54, 55]
    client.force_login(players[-1])
    assert client.get("/api/league/standings/").json()["me"]["position"] == 55
    bad_week = client.get("/api/league/standings/", {"week": "2026-W99"})
    assert bad_week.status_code == 400 and bad_week.json()["code"] == "invalid_week"
    bad_game = client.get("/api/league/standings/", {"game": "poker"})
    assert bad_game.status_code == 400 and bad_game.json()["code"] == "unknown_game"


def test_api_a_closed_week_is_frozen_with_its_prizes_and_listed_among_weeks(client: Client) -> None:
    a, b = make_player("ana"), make_player("bea")
    past = selectors.previous_week(selectors.previous_week(selectors.current_week()))
    finished_game(seats=[a, b], placements=[1, 2], at=at(past))
    services.close_week(week=past, now=past.end)
    data = client.get("/api/league/standings/", {"week": past.key}).json()
    assert data["frozen"] is True and data["week"]["paid"] is True
    assert [(p["place"], p["username"], p["amount"], p["paid"]) for p in data["prizes"]] == [
        (1, "ana", 1000, True),
        (2, "bea", 500, True),
    ]
    weeks = client.get("/api/league/weeks/").json()["results"]
    assert weeks[0]["key"] == selectors.current_week().key and weeks[0]["current"] is True
    assert {"key": past.key, "frozen": True, "paid": True, "current": False}.items() <= next(
        w for w in weeks if w["key"] == past.key
    ).items()


def test_api_my_points_link_each_point_to_its_table(client: Client, now_week: Any) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    result = finished_game(seats=[ana, bea], placements=[1, 2], at=at(now_week))
    assert client.get("/api/league/me/points/").status_code == 403
    client.force_login(ana)
    rows = client.get("/api/league/me/points/", {"week": now_week.key}).json()["results"]
    assert [
        (r["points"], r["table"], r["game_result"], r["place"], r["players"], r["kind"]) for r in rows
    ] == [(20, result.table_id, result.pk, 1, 2, "game")]


# --- the page ------------------------------------------------------------------------------


def test_page_shows_the_standings_in_spanish_with_my_row_highlighted(client: Client, now_week: Any) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    result = finished_game(seats=[ana, bea, SIM], placements=[2, 1, 3], at=at(now_week))
    html = client.get("/liga/").content.decode()
    assert "Liga semanal" in html and 'href="/liga/"' in html  # the header's link
    assert "is-me" not in html and "bea" in html
    client.force_login(ana)
    html = client.get("/liga/").content.decode()
    row = re.search(r'<tr class="is-me"[^>]*>(.*?)</tr>', html, re.S)
    assert row and "ana" in row.group(1) and '<td class="num">10</td>' in row.group(1)  # 2nd of 3, halved
    assert "Vas en el puesto 2 con 10 puntos." in html
    assert f"Mesa n.º {result.table_id}" in html and "a mitad: había jugadores simulados" in html


def test_page_links_to_my_row_on_another_page_and_filters_by_game(
    client: Client, now_week: Any, boss: Any
) -> None:
    players = many_players(now_week, boss, 53)
    client.force_login(players[-1])
    html = client.get("/liga/").content.decode()
    assert "Vas en el puesto 53" in html and "pagina=2" in html and 'class="is-me"' not in html
    assert 'class="is-me"' in client.get("/liga/", {"pagina": 2}).content.decode()
    skyjo = client.get("/liga/", {"juego": "skyjo"}).content.decode()
    assert "Todavía nadie ha sumado puntos esta semana." in skyjo


def test_page_survives_bad_input_and_speaks_english(client: Client) -> None:
    html = client.get("/liga/", {"semana": "nunca"}).content.decode()
    assert "Esa semana no existe" in html
    client.cookies["django_language"] = "en"
    assert "Weekly league" in client.get("/liga/").content.decode()


# --- admin ---------------------------------------------------------------------------------


def test_admin_standings_link_every_point_to_its_table_in_one_click(
    client: Client, boss: Any, now_week: Any
) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    results = [finished_game(seats=[ana, bea], placements=[1, 2], at=at(now_week, i)) for i in range(3)]
    client.force_login(boss)
    assert client.get("/admin/league/leagueweek/").status_code == 200
    html = client.get(f"/admin/league/leagueweek/standings/{now_week.key}/").content.decode()
    links = set(re.findall(r'href="(/admin/cardgames/table/\d+/change/)"', html))
    assert links == {f"/admin/cardgames/table/{r.table_id}/change/" for r in results}
    for link in links:
        assert client.get(link).status_code == 200
    assert (
        client.get(f"/admin/league/leagueweek/standings/{now_week.key}/", {"game": "skyjo"}).status_code
        == 200
    )
    assert client.get("/admin/league/leagueweek/standings/2026-W99/").status_code == 404
    row = services.ensure_week(now_week)
    assert client.get(f"/admin/league/leagueweek/{row.pk}/change/").url.endswith(f"standings/{now_week.key}/")
    assert client.get("/admin/league/leaguepoint/").status_code == 200
    assert client.get("/admin/league/leagueprize/").status_code == 200


def test_admin_recompute_shows_an_empty_diff_when_all_is_well_and_the_difference_when_not(
    client: Client, boss: Any, now_week: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    finished_game(seats=[ana, bea], placements=[1, 2], at=at(now_week))
    client.force_login(boss)
    row = services.ensure_week(now_week)
    changelist = "/admin/league/leagueweek/"
    html = client.post(changelist, {"action": "recompute", "_selected_action": [row.pk]}).content.decode()
    assert 'data-testid="diff-empty"' in html
    # a game whose signal was lost: missing rows and different standings
    monkeypatch.setattr(services, "record_game", lambda **kwargs: 0)
    lost = finished_game(seats=[ana, bea], placements=[2, 1], at=at(now_week, 5))
    monkeypatch.undo()
    diff = selectors.recompute_week(week=now_week)
    assert [(d.change, d.game_result_id) for d in diff.rows] == [("missing", lost.pk), ("missing", lost.pk)]
    assert {d.username for d in diff.standings} == {"ana", "bea"}
    html = client.get(f"/admin/league/leagueweek/recompute/{now_week.key}/").content.decode()
    assert 'data-testid="diff-found"' in html and "missing" in html
    services.record_missing_games(week=now_week)
    assert selectors.recompute_week(week=now_week).empty
    # a row nobody earned shows as unexpected
    LeaguePoint.objects.create(
        week=row,
        user=boss,
        kind="game",
        game="pika",
        table_id=lost.table_id,
        game_result=lost,
        seat=0,
        place=1,
        players=2,
        points=20,
        earned_at=lost.finished_at,
    )
    changes = [d.change for d in selectors.recompute_week(week=now_week).rows]
    assert changes == ["unexpected"]


def test_admin_correction_is_a_new_row_with_who_and_why(client: Client, boss: Any, now_week: Any) -> None:
    ana = make_player("ana")
    client.force_login(boss)
    url = "/admin/league/leagueweek/correction/"
    assert client.get(url).status_code == 200
    form = {
        "username": "ANA",
        "week": now_week.key,
        "points": "-15",
        "game": "",
        "reason": "",
        "request_id": "r1",
    }
    assert "Este campo es requerido" in client.post(url, form).content.decode()
    form["reason"] = "Abandonó adrede"
    assert client.post(url, form).status_code == 302
    assert client.post(url, form).status_code == 302  # the same form posted twice
    point = LeaguePoint.objects.get()
    assert (point.user_id, point.points, point.kind, point.actor_id, point.reason) == (
        ana.pk,
        -15,
        "correction",
        boss.pk,
        "Abandonó adrede",
    )
    html = client.get(f"/admin/league/leagueweek/standings/{now_week.key}/").content.decode()
    assert f"/admin/league/leaguepoint/{point.pk}/change/" in html
    assert client.get(f"/admin/league/leaguepoint/{point.pk}/change/").status_code == 200
    unknown = client.post(url, {**form, "username": "nadie", "request_id": "r2"}).content.decode()
    assert "Ese jugador no existe." in unknown


def test_admin_corrections_need_the_permission_and_an_open_week(client: Client, boss: Any) -> None:
    helper = make_player("helper", is_staff=True)
    client.force_login(helper)
    assert client.get("/admin/league/leagueweek/correction/").status_code == 403
    past = selectors.previous_week(selectors.current_week())
    services.close_week(week=past, now=past.end)
    client.force_login(boss)
    html = client.post(
        "/admin/league/leagueweek/correction/",
        {"username": "helper", "week": past.key, "points": "5", "reason": "tarde", "request_id": "x"},
    ).content.decode()
    assert "La semana ya está cerrada" in html
    assert not LeaguePoint.objects.exists()


def test_corrections_refuse_bad_input(boss: Any, now_week: Any) -> None:
    ana = make_player()
    cases = [
        ({"actor": ana}, "not_staff"),
        ({"points": 0}, "invalid_points"),
        ({"points": True}, "invalid_points"),
        ({"points": 10**7}, "invalid_points"),
        ({"reason": "  "}, "reason_required"),
        ({"game": "poker"}, "unknown_game"),
        ({"user": None}, "unknown_user"),
        ({"week": selectors.next_week(now_week)}, "week_not_started"),
    ]
    for change, code in cases:
        args = {"user": ana, "week": now_week, "points": 5, "reason": "ok", "actor": boss, **change}
        with pytest.raises(services.LeagueError) as err:
            services.add_correction(**args)
        assert err.value.code == code
    assert not LeaguePoint.objects.exists()
    assert not GameResult.objects.exists()
