"""Rulezz pages (PF-38, PF-39): thin views over ``services`` and ``selectors``, no JavaScript needed.

A view works out the sheets' owner (``sheet_owner``) and passes it on; no service sees the request.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.identity import player_from_request

from . import selectors, services
from .messages import parse_points, rulezz_message
from .scoring import MAX_PLAYERS, RulezzError
from .stores import SheetData, SheetNotFound, SheetOwner


def sheet_owner(request: Any) -> SheetOwner:
    """Whose sheets, for a page's ``HttpRequest`` or the API's DRF ``Request``: a signed-in user's
    ``Player``; anyone else (a guest or a first-time visitor) keeps them in the session (PF-61)."""
    player = player_from_request(request)
    if player is not None and player.is_user:
        return player
    return request.session


def _sheet_or_404(owner: SheetOwner, sheet_id: str) -> SheetData:
    try:
        return selectors.sheet_get(owner=owner, sheet_id=sheet_id)
    except SheetNotFound as err:
        raise Http404("no such sheet") from err


def _round_input(request: HttpRequest, sheet: SheetData) -> tuple[dict[str, Any], Any]:
    points = {name: parse_points(request.POST.get(f"points-{i}", "")) for i, name in enumerate(sheet.players)}
    closers = request.POST.getlist("closer")
    return points, closers


@require_http_methods(["GET", "POST"])
def rulezz_list(request: HttpRequest) -> HttpResponse:
    owner = sheet_owner(request)
    error = ""
    entered = {"title": "", "players": [""] * MAX_PLAYERS}
    if request.method == "POST":
        players = [request.POST.get(f"player-{i}", "") for i in range(MAX_PLAYERS)]
        entered = {"title": request.POST.get("title", ""), "players": players}
        try:
            sheet = services.sheet_create(owner=owner, players=players, title=entered["title"])
        except RulezzError as err:
            error = rulezz_message(err)
        else:
            return redirect("cardgames:rulezz_sheet", sheet_id=sheet.id)
    sheets = [(s, s.result()) for s in selectors.sheet_list(owner=owner)]
    return render(
        request,
        "rulezz/list.html",
        {"sheets": sheets, "error": error, "entered": entered, "slots": range(MAX_PLAYERS)},
        status=400 if error else 200,
    )


@require_http_methods(["GET", "POST"])
def rulezz_sheet(request: HttpRequest, sheet_id: str) -> HttpResponse:
    owner = sheet_owner(request)
    sheet = _sheet_or_404(owner, sheet_id)
    error = ""
    entered: dict[str, Any] = {}
    if request.method == "POST":
        points, closers = _round_input(request, sheet)
        try:
            services.round_add(owner=owner, sheet_id=sheet.id, points=points, closer=closers)
        except RulezzError as err:
            error, entered = rulezz_message(err), {"points": request.POST, "closers": closers}
        else:
            messages.success(request, _("Ronda añadida."))
            return redirect("cardgames:rulezz_sheet", sheet_id=sheet.id)
    return _render_sheet(request, sheet, error=error, entered=entered)


def _render_sheet(
    request: HttpRequest, sheet: SheetData, *, error: str, entered: dict[str, Any], editing: int = 0
) -> HttpResponse:
    result = sheet.result()
    if editing and not entered:
        current = sheet.rounds[editing - 1]
        entered = {
            "points": {f"points-{i}": current["points"][n] for i, n in enumerate(sheet.players)},
            "closers": [current["closer"]],
        }
    inputs = [
        (i, name, (entered.get("points") or {}).get(f"points-{i}", ""))
        for i, name in enumerate(sheet.players)
    ]
    if error and result.over and not editing:
        # the round form (and its error line) is gone from a finished sheet: say it up top
        messages.error(request, error)
    context = {
        "sheet": sheet,
        "result": result,
        "error": error,
        "inputs": inputs,
        "closers": entered.get("closers", []),
        "editing": editing,
        "rows": [
            (r, [(r.scores[n], r.points[n], r.totals[n]) for n in sheet.players]) for r in result.rounds
        ],
        "totals": [(n, result.totals[n], result.placements[n]) for n in sheet.players],
    }
    return render(request, "rulezz/sheet.html", context, status=400 if error else 200)


@require_http_methods(["GET", "POST"])
def rulezz_round_edit(request: HttpRequest, sheet_id: str, number: int) -> HttpResponse:
    owner = sheet_owner(request)
    sheet = _sheet_or_404(owner, sheet_id)
    if not 1 <= number <= len(sheet.rounds):
        raise Http404("no such round")
    error, entered = "", {}
    if request.method == "POST":
        points, closers = _round_input(request, sheet)
        try:
            services.round_replace(
                owner=owner, sheet_id=sheet.id, number=number, points=points, closer=closers
            )
        except RulezzError as err:
            error, entered = rulezz_message(err), {"points": request.POST, "closers": closers}
        else:
            messages.success(request, _("Ronda %(n)d corregida.") % {"n": number})
            return redirect("cardgames:rulezz_sheet", sheet_id=sheet.id)
    return _render_sheet(request, sheet, error=error, entered=entered, editing=number)


@require_POST
def rulezz_round_delete(request: HttpRequest, sheet_id: str, number: int) -> HttpResponse:
    owner = sheet_owner(request)
    sheet = _sheet_or_404(owner, sheet_id)
    try:
        services.round_delete(owner=owner, sheet_id=sheet.id, number=number)
    except RulezzError as err:
        messages.error(request, rulezz_message(err))
    else:
        messages.success(request, _("Ronda %(n)d borrada.") % {"n": number})
    return redirect("cardgames:rulezz_sheet", sheet_id=sheet.id)


@require_POST
def rulezz_sheet_delete(request: HttpRequest, sheet_id: str) -> HttpResponse:
    owner = sheet_owner(request)
    sheet = _sheet_or_404(owner, sheet_id)
    services.sheet_delete(owner=owner, sheet_id=sheet.id)
    messages.success(request, _("Hoja borrada."))
    return redirect("cardgames:rulezz_list")
