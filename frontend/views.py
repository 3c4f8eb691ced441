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


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, which also remembers the choice in a signed-in profile."""
    from django.views.i18n import set_language as django_set_language

    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.method == "POST" and request.user.is_authenticated and language in {"es", "en"}:
        from accounts.services import set_language as save_language

        save_language(user=request.user, language=language)  # type: ignore[arg-type]
    return response
