"""The league page (/liga/): a week's standings, overall or per game, the signed-in player's
row highlighted and their own points with the tables that earned them. Thin: read, render."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cardgames.catalogue import CATALOGUE

from . import selectors
from .errors import LeagueError

PAGE_SIZE = 50


def standings_page(request: HttpRequest) -> HttpResponse:
    error = None
    try:
        week = selectors.parse_week(request.GET["semana"]) if request.GET.get("semana") else None
        game = selectors.check_game(request.GET.get("juego"))
    except LeagueError as exc:
        error, week, game = exc.message, None, None
    current = selectors.current_week()
    week = week or current
    table = selectors.standings(week=week, game=game)
    user_id = request.user.pk if request.user.is_authenticated else None
    mine = table.entry_for(user_id)
    paginator = Paginator(table.entries, PAGE_SIZE)
    page = paginator.get_page(request.GET.get("pagina"))
    context = {
        "error": error,
        "week": week,
        "sunday": week.monday + timedelta(days=6),
        "current": current,
        "is_current": week.key == current.key,
        "previous": selectors.previous_week(week),
        "next": selectors.next_week(week) if week.key != current.key else None,
        "weeks": selectors.known_weeks(),
        "zone": selectors.league_zone(),
        "game": game,
        "games": [(slug, spec.name) for slug, spec in CATALOGUE.items()],
        "game_name": CATALOGUE[game].name if game else None,
        "standings": table,
        "page": page,
        "mine": mine,
        "my_page": (mine.position - 1) // PAGE_SIZE + 1 if mine else None,
        "my_points": [
            (point, CATALOGUE[point.game].name if point.game in CATALOGUE else "")
            for point in (selectors.user_points(user=request.user, week=week) if user_id else [])
        ],
    }
    return render(request, "league/standings.html", context)
