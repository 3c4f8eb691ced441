from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from .games import GAME_LIST, GAMES_BY_SLUG
from .rules_render import render_rules


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"games": GAME_LIST})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    game = GAMES_BY_SLUG.get(slug)
    if game is None:
        raise Http404("unknown game")
    language = translation.get_language() or "es"
    body = render_rules(game.rules_source("en" if language.startswith("en") else "es"))
    return render(request, "frontend/rules.html", {"game": game, "body": body})
