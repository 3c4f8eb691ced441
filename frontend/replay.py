"""After the game (issue 10): the replay page of a finished table, as its viewer may see it.

``/partida/<id>/repeticion/`` rebuilds the game from the seed and the action log
(``selectors.replay_for``): a seated player gets their own seat's view at every step,
anyone else the spectator's. The steps, the result and the shuffle check
(``selectors.verify_table``) go to ``static/frontend/replay.js`` in one ``json_script``
block, with the words of the table page (``table_strings``) and the replay's own; the
script draws each step with the table page's renderers (``static/frontend/render.js``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.identity import player_from_request
from accounts.throttling import client_ip
from cardgames.tables import access, selectors
from cardgames.tables.errors import TableError
from cardgames.tables.models import Table

from .games import GAMES_BY_SLUG
from .table_strings import table_strings

#: the replay page's own words for its script (``%(name)s`` marks a value it fills in)
REPLAY_STRINGS: dict[str, Promise] = {
    "step_of": _("Paso %(n)s de %(total)s"),
    "deal_step": _("Reparto inicial"),
    "table_move": _("La mesa: %(move)s"),
    "source_player": _("jugador"),
    "source_bot": _("bot"),
    "source_timeout": _("tiempo agotado"),
    "play": _("Reproducir"),
    "pause": _("Pausa"),
    "as_player": _("Ves la partida como la viste tú: tu mano y lo público."),
    "as_spectator": _("Ves la partida como un espectador: solo lo público."),
}


def replay_strings() -> dict[str, str]:
    """The table page's words plus the replay's, in the active language."""
    return {**table_strings(), **{key: str(value) for key, value in REPLAY_STRINGS.items()}}


def replay_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """A finished (or closed) game step by step; any other table gets a page saying why not."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404("no such table")
    game = GAMES_BY_SLUG.get(table.game)
    viewer = player_from_request(request)
    try:  # a room's game is shown to its seats, invitees, staff and its code (issue 26)
        access.require_watch(table, viewer, request.GET.get("code"), address=client_ip(request))
    except TableError as exc:
        raise PermissionDenied(exc.message) from None
    try:
        replay = selectors.replay_for(table=table, viewer=viewer)
    except TableError:
        context = {"table": table, "game": game}
        return render(request, "frontend/replay_unavailable.html", context, status=400)
    check = selectors.verify_table(table=table)
    config = {
        "replay": replay,
        "verify": check,
        "verify_url": reverse("api-table-verify", args=[table.pk])
        + (f"?code={table.code}" if table.code else ""),
        "strings": replay_strings(),
    }
    context = {"table": table, "game": game, "replay": replay, "check": check, "config": config}
    return render(request, "frontend/replay.html", context)
