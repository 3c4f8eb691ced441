"""League admin: weeks with their standings (every point one click from its table), the
recompute that compares the stored league with one rebuilt from the game results, and
corrections as new rows with the admin and the reason. Points and prizes are read-only."""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.catalogue import CATALOGUE
from config.readonly_admin import ReadOnly

from . import selectors, services
from .errors import LeagueError
from .models import LeaguePoint, LeaguePrize, LeagueWeek


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    """League rows change only through the services: view only here."""


def table_link(table_id: int | None) -> str:
    if table_id is None:
        return "—"
    return format_html(
        '<a href="{}">{}</a>', reverse("admin:cardgames_table_change", args=[table_id]), f"#{table_id}"
    )


class CorrectionForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Jugador (nombre de usuario)"), max_length=20)
    week = forms.CharField(label=gettext_lazy("Semana (2026-W49)"), max_length=10)
    points = forms.IntegerField(
        label=gettext_lazy("Puntos (+ para sumar, − para restar)"),
        min_value=-services.MAX_CORRECTION,
        max_value=services.MAX_CORRECTION,
    )
    game = forms.ChoiceField(
        label=gettext_lazy("Juego"),
        required=False,
        choices=[("", gettext_lazy("— ninguno: solo la clasificación general"))]
        + [(slug, spec.name) for slug, spec in CATALOGUE.items()],
    )
    reason = forms.CharField(label=gettext_lazy("Motivo"), widget=forms.Textarea, max_length=2000)
    request_id = forms.CharField(widget=forms.HiddenInput, max_length=64)


@admin.register(LeagueWeek)
class LeagueWeekAdmin(ReadOnlyAdmin):
    list_display = ("key", "local_start", "state", "players", "prize_list", "links")
    search_fields = ("key",)
    actions = ["recompute"]

    @admin.display(description=gettext_lazy("empieza (hora de la liga)"), ordering="start")
    def local_start(self, row: LeagueWeek) -> str:
        return row.start.astimezone(selectors.league_zone()).strftime("%d/%m/%Y %H:%M %Z")

    @admin.display(description=gettext_lazy("estado"))
    def state(self, row: LeagueWeek) -> str:
        return row.status

    @admin.display(description=gettext_lazy("jugadores"))
    def players(self, row: LeagueWeek) -> int:
        return row.points.values("user_id").distinct().count()

    @admin.display(description=gettext_lazy("premios"))
    def prize_list(self, row: LeagueWeek) -> str:
        return format_html_join(
            ", ",
            "{}. {} ({})",
            ((p.place, p.user, _("pagado") if p.transfer_id else _("pendiente")) for p in row.prizes.all()),
        )

    @admin.display(description=gettext_lazy("acciones"))
    def links(self, row: LeagueWeek) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("admin:league_week_standings", args=[row.key]),
            _("Clasificación"),
            reverse("admin:league_week_recompute", args=[row.key]),
            _("Recalcular"),
        )

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).prefetch_related("prizes__user")

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("standings/<str:key>/", view(self.standings_view), name="league_week_standings"),
            path("recompute/<str:key>/", view(self.recompute_view), name="league_week_recompute"),
            path("correction/", view(self.correction_view), name="league_week_correction"),
            *super().get_urls(),
        ]

    def change_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        row = get_object_or_404(LeagueWeek, pk=object_id)
        return redirect("admin:league_week_standings", row.key)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        extra = {
            "current_week": selectors.current_week().key,
            "correction_url": reverse("admin:league_week_correction"),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context=extra)

    def _week(self, key: str) -> Any:
        try:
            return selectors.parse_week(key)
        except LeagueError as exc:
            raise Http404(exc.message) from exc

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}

    def standings_view(self, request: HttpRequest, key: str) -> HttpResponse:
        """A week's standings (frozen or live, overall or ``?game=``), and under each player
        every point row with a link to its table."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        week = self._week(key)
        try:
            table = selectors.standings(week=week, game=request.GET.get("game"))
        except LeagueError as exc:
            raise Http404(exc.message) from exc
        points = (
            LeaguePoint.objects.filter(week__key=week.key).select_related("actor").order_by("earned_at", "id")
        )
        if table.game is not None:
            points = points.filter(game=table.game)
        by_user: dict[int, list[LeaguePoint]] = defaultdict(list)
        for point in points:
            by_user[point.user_id].append(point)
        rows = [(entry, by_user.get(entry.user_id, [])) for entry in table.entries]
        context = self._context(
            request,
            _("Liga: semana %(week)s") % {"week": week.key},
            week=week,
            row=selectors.week_row(week),
            standings=table,
            rows=rows,
            games=[(slug, spec.name) for slug, spec in CATALOGUE.items()],
            correction_url=reverse("admin:league_week_correction") + f"?week={week.key}",
        )
        return TemplateResponse(request, "admin/league/standings.html", context)

    def recompute_view(self, request: HttpRequest, key: str) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return self._recompute_response(request, [self._week(key)])

    @admin.action(description=gettext_lazy("Recalcular desde las partidas y comparar"))
    def recompute(self, request: HttpRequest, queryset: Any) -> HttpResponse:
        return self._recompute_response(
            request, [selectors.week_of_row(row) for row in queryset.order_by("-start")]
        )

    def _recompute_response(self, request: HttpRequest, weeks: list[Any]) -> HttpResponse:
        diffs = [selectors.recompute_week(week=week) for week in weeks]
        context = self._context(request, _("Liga: recálculo"), diffs=diffs)
        return TemplateResponse(request, "admin/league/recompute.html", context)

    def correction_view(self, request: HttpRequest) -> HttpResponse:
        """Record a correction: a new signed row with the admin and the reason (never an edit)."""
        if not (request.user.is_staff and request.user.has_perm("league.add_leaguepoint")):
            raise PermissionDenied
        initial = {
            "week": request.GET.get("week") or selectors.current_week().key,
            "request_id": uuid.uuid4().hex,
        }
        form = CorrectionForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            user = get_user_model().objects.filter(username__iexact=data["username"]).first()
            try:
                week = selectors.parse_week(data["week"])
                services.add_correction(
                    user=user,
                    week=week,
                    points=data["points"],
                    reason=data["reason"],
                    actor=request.user,
                    game=data["game"],
                    request_id=data["request_id"],
                )
            except LeagueError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Corrección registrada."))
                return redirect("admin:league_week_standings", week.key)
        context = self._context(request, _("Liga: corrección"), form=form)
        return TemplateResponse(request, "admin/league/correction.html", context)


@admin.register(LeaguePoint)
class LeaguePointAdmin(ReadOnlyAdmin):
    list_display = (
        "earned_at",
        "week",
        "user",
        "game",
        "table_admin_link",
        "game_result",
        "place_of",
        "points",
        "halved",
        "kind",
        "actor",
        "reason",
    )
    list_filter = ("kind", "game", "halved", "week")
    search_fields = ("user__username", "reason", "week__key")
    list_select_related = ("week", "user", "actor", "game_result")
    readonly_fields = [f.name for f in LeaguePoint._meta.fields] + ["table_admin_link"]
    date_hierarchy = "earned_at"

    @admin.display(description=gettext_lazy("mesa"), ordering="table_id")
    def table_admin_link(self, point: LeaguePoint) -> str:
        return table_link(point.table_id)

    @admin.display(description=gettext_lazy("puesto"))
    def place_of(self, point: LeaguePoint) -> str:
        return f"{point.place}/{point.players}" if point.place else "—"


@admin.register(LeaguePrize)
class LeaguePrizeAdmin(ReadOnlyAdmin):
    list_display = ("week", "place", "user", "points", "amount", "transfer_link", "paid_at")
    list_filter = ("place",)
    search_fields = ("user__username", "week__key")
    list_select_related = ("week", "user", "transfer")
    readonly_fields = [f.name for f in LeaguePrize._meta.fields] + ["transfer_link"]

    @admin.display(description=gettext_lazy("pago"))
    def transfer_link(self, prize: LeaguePrize) -> str:
        if prize.transfer_id is None:
            return _("pendiente")
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:economy_transfer_change", args=[prize.transfer_id]),
            prize.transfer.key if prize.transfer else prize.transfer_id,
        )
