from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.forms import GuestForm
from accounts.guests import start_guest
from accounts.identity import Player, player_from_request
from accounts.throttling import client_ip
from cardgames.catalogue import CATALOGUE
from cardgames.tables import access, selectors, services
from cardgames.tables.errors import TableError

from .games import GAME_LIST, GAMES_BY_SLUG
from .rules_render import render_rules
from .table_strings import table_strings


def home(request: HttpRequest) -> HttpResponse:
    player = player_from_request(request)
    context = {
        "games": GAME_LIST,
        "rooms": home_games(request),
        "levels": BOT_LEVELS,
        "stakes": STAKES,
        "needs_name": player is None,
        "invitations": home_invitations(player),
        "my_tables": home_tables(player),
        "game_names": {game.slug: game.name for game in GAME_LIST},
    }
    return render(request, "frontend/home.html", context)


#: the buy-ins a player may queue with, besides a free table (PF-17)
STAKES: tuple[int, ...] = (100, 250, 500, 1000)
#: how many live tables and invitations the home page lists
HOME_LIST_LIMIT = 10


def home_invitations(player: Player | None) -> list[dict[str, Any]]:
    """The signed-in player's pending invitations, newest first, with the game's name."""
    if player is None or player.user_id is None:
        return []
    rows = selectors.pending_invitations(user_id=player.user_id)[:HOME_LIST_LIMIT]
    return [{**services.invitation_dict(i), "game_name": _game_name(i.table.game)} for i in rows]


def home_tables(player: Player | None) -> list[dict[str, Any]]:
    """The live tables and waiting rooms where the player holds a seat, to go back to."""
    if player is None:
        return []
    tables = selectors.tables_to_go_back_to(player=player)[:HOME_LIST_LIMIT]
    return [
        {
            "code": table.code,
            "game_name": _game_name(table.game),
            "mode": table.get_mode_display(),
            "waiting": table.status == table.Status.WAITING,
        }
        for table in tables
    ]


def _game_name(slug: str) -> str:
    game = GAMES_BY_SLUG.get(slug)
    return game.name if game else slug


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


# -- rooms and tables ---------------------------------------------------------------------------
def home_games(request: HttpRequest) -> list[dict[str, Any]]:
    """The home page's games with the room choices of each (players, catalogue options)."""
    out = []
    for game in GAME_LIST:
        spec = CATALOGUE[game.slug]
        choices = [
            {
                "name": choice.name,
                "label": OPTION_LABELS.get(choice.name, choice.name),
                "values": [(v, VALUE_LABELS.get(str(v), str(v))) for v in choice.values],
            }
            for choice in spec.choices
        ]
        out.append(
            {
                "info": game,
                "players": list(spec.player_range()),
                "max_classic": spec.max_players_for({}),
                "default_players": spec.default_players,
                "choices": choices,
            }
        )
    return out


#: the room options' words (cardgames.catalogue choices, PT-50/PT-51)
OPTION_LABELS: dict[str, Promise] = {"lives": _("Vidas"), "mode": _("Modo")}
VALUE_LABELS: dict[str, Promise] = {"classic": _("clásico"), "big": _("grande")}
BOT_LEVELS: list[tuple[str, Promise]] = [
    ("easy", _("fácil")),
    ("normal", _("normal")),
    ("hard", _("difícil")),
]


def join_by_code(request: HttpRequest) -> HttpResponse:
    """ "Unirse con código": a room's code typed on the home page (PF-3, PF-23)."""
    code = (request.GET.get("code") or "").strip().upper()
    try:
        table = access.find_room(code=code, address=client_ip(request), player=player_from_request(request))
    except TableError as exc:
        if exc.code == "too_many_guesses":
            messages.error(request, exc.message)
            return redirect("frontend:home")
        messages.error(request, _("No hay ninguna sala con ese código."))
        return redirect("frontend:home")
    return redirect("frontend:table", code=table.code)


def table_page(request: HttpRequest, code: str) -> HttpResponse:
    """The room and its table (PF-22–PF-26): a name to type, the waiting room, then the game.

    A POST joins: a visitor with no identity becomes a guest under the name typed (PF-24);
    latecomers and full rooms get a spectator's place (PF-26). Everything live comes over
    the table socket from ``static/frontend/table.js``.
    """
    try:
        table = access.find_room(code=code, address=client_ip(request), player=player_from_request(request))
    except TableError as exc:
        if exc.code == "too_many_guesses":
            messages.error(request, exc.message)
            return redirect("frontend:home")
        raise Http404("no such room") from None
    if table.code != code:
        return redirect("frontend:table", code=table.code)
    player = player_from_request(request)
    form = GuestForm(request.POST or None) if player is None else None
    if request.method == "POST":
        if form is not None and form.is_valid():
            try:
                start_guest(request, name=form.cleaned_data["name"])
            except ValidationError as err:
                form.add_error("name", err.messages[0])
            player = player_from_request(request)
        if player is not None:
            try:
                services.join_room(table_id=table.pk, player=player, code=table.code)
            except TableError as exc:
                messages.error(request, exc.message)
            return redirect("frontend:table", code=table.code)
    seat = selectors.seat_for(table, player)
    can_join = (
        player is not None
        and seat is None
        and table.mode == table.Mode.FRIENDS
        and table.status == table.Status.WAITING
    )
    config = {
        "id": table.pk,
        "code": table.code,
        "game": table.game,
        # the page's code opens the socket of a room one watches (issue 26: the code is its key)
        "socket": f"/ws/tables/{table.pk}/?code={table.code}",
        "api": f"/api/tables/{table.pk}",
        "link": request.build_absolute_uri(reverse("frontend:table", args=[table.code])),
        "home": reverse("frontend:home"),
        "strings": table_strings(),
        "levels": [[value, str(label)] for value, label in BOT_LEVELS],
    }
    context = {
        "table": table,
        "game": GAMES_BY_SLUG.get(table.game),
        "player": player,
        "seat": seat,
        "form": form,
        "can_join": can_join,
        "config": config,
        "needs_name": player is None,
    }
    return render(request, "frontend/table.html", context, status=400 if form and form.errors else 200)


# -- the installable app (PF-35) --------------------------------------------------------------
#: static files the service worker stores at install, so the offline page and shell draw at once
SHELL_FILES: tuple[str, ...] = (
    "frontend/site.css",
    "frontend/theme.js",
    "frontend/api.js",
    "frontend/lobby.js",
    "frontend/notices.js",
    "frontend/tabs.js",
    "frontend/home.js",
    "frontend/queue.js",
    "frontend/pwa.js",
    "frontend/favicon.svg",
    "frontend/icons/icon.svg",
    "frontend/icons/icon-192.png",
)


#: the top folders of the project's own static files (the service worker caches these too)
OWN_STATIC = frozenset({"frontend", "vendor", "league", "economy", "cardgames", "accounts"})


@lru_cache(maxsize=1)
def static_version() -> str:
    """A short hash of our static files' content: a new one makes browsers take the new files."""
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in sorted(finder.list([]), key=lambda item: item[0]):
            if path.split("/", 1)[0] not in OWN_STATIC:
                continue  # Django's and DRF's admin files change only with an upgrade
            digest.update(path.encode())
            with storage.open(path) as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:12]


def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js, at the root so its scope is the whole site; never cached by the HTTP cache."""
    from .practice import offline_caches

    context = {
        "version": static_version(),
        "offline_caches": offline_caches(),
        "shell": [static(name) for name in SHELL_FILES],
        "fresh_static": settings.DEBUG,
    }
    response = render(request, "frontend/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def manifest(request: HttpRequest) -> HttpResponse:
    return render(
        request, "frontend/manifest.webmanifest", content_type="application/manifest+json; charset=utf-8"
    )


def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the network is gone."""
    return render(request, "frontend/offline.html")
