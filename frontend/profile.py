"""The profile pages (PF-58, issue 12): a player's own page and their public page.

They live with the other pages that show games (``frontend``), not in ``accounts``: they
read finished games, ratings, levels and coins from ``cardgames`` and ``economy``
(``profile_data``), and ``accounts`` stays below the games (``tests/test_service_boundary.py``).
The account settings on the own page (language, password) post to ``accounts``' views.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.identity import player_from_request
from accounts.models import User
from cardgames.ratings.selectors import ratings_of
from cardgames.tables.models import GameResult, Table
from cardgames.tables.selectors import finished_games, finished_games_shown_to

from .games import GAMES_BY_SLUG
from .profile_data import profile_context

#: the profile's «Partidas»: finished games a page
GAMES_PER_PAGE = 20
#: the public profile's recent games
PUBLIC_GAMES = 10


def _game_row(result: GameResult, user_id: int) -> dict[str, Any]:
    """One line of «Partidas»: the game, mode, date, the user's place, the players, the links."""
    mine = next((s for s in result.seats if s.get("user_id") == user_id), None)
    game = GAMES_BY_SLUG.get(result.game)
    modes = dict(Table.Mode.choices)
    return {
        "id": result.table_id,
        "game": game.name if game else result.game,
        "mode": modes.get(result.mode, result.mode),
        "finished_at": result.finished_at,
        "place": mine["place"] if mine else None,
        "of": len(result.seats),
        "players": [s["name"] for s in sorted(result.seats, key=lambda s: s["seat"])],
        "replay_url": reverse("frontend:replay", args=[result.table_id]),
        "verify_url": reverse("api-table-verify", args=[result.table_id]),
    }


@login_required
def profile_view(request: HttpRequest) -> HttpResponse:
    user_id = request.user.pk
    page = Paginator(finished_games(user_id=user_id), GAMES_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "profile_user": request.user,
        "games_page": page,
        "games": [_game_row(result, user_id) for result in page],
        "ratings": ratings_of(user_id),
        **profile_context(request.user, private=True),
    }
    return render(request, "frontend/profile.html", context)


def public_profile_view(request: HttpRequest, username: str) -> HttpResponse:
    """Another player's page: stats, rating, level, badges, recent games; never coins or email."""
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    if user.username != username:
        return redirect("frontend:public_profile", username=user.username)
    shown = finished_games_shown_to(user_id=user.pk, viewer=player_from_request(request))
    context = {
        "profile_user": user,
        # a friends or practice game is shown to those who sat at it (issue 26: rooms are private)
        "games": [_game_row(result, user.pk) for result in shown[:PUBLIC_GAMES]],
        "ratings": ratings_of(user.pk),
        "is_me": request.user.is_authenticated and request.user.pk == user.pk,
        **profile_context(user, private=False),
    }
    return render(request, "frontend/public_profile.html", context)
