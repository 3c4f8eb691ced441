"""Admin of live tables: read-only, for audits (the table service is the only writer)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.readonly_admin import ReadOnly

from . import hooks
from .errors import TableError
from .models import ActionLog, ChatMessage, GameResult, Invitation, Seat, Table


class SeatInline(ReadOnly, admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    fields = [
        "index",
        "kind",
        "name",
        "user",
        "bot_level",
        "connections",
        "timeouts_in_row",
        "stand_in",
        "muted",
    ]
    readonly_fields = fields
    extra = 0


class ActionLogInline(ReadOnly, admin.TabularInline):  # type: ignore[type-arg]
    model = ActionLog
    fields = ["seq", "seat", "source", "action", "timer_id", "at"]
    readonly_fields = fields
    extra = 0
    max_num = 0
    show_change_link = False


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = [
        "id",
        "game",
        "mode",
        "code",
        "status",
        "num_players",
        "simulated",
        "created_at",
        "settled_at",
    ]
    list_filter = ["game", "mode", "status", "simulated"]
    search_fields = ["code", "seats__name"]
    readonly_fields = [*(f.name for f in Table._meta.fields), "abort_link"]
    inlines = [SeatInline, ActionLogInline]

    @admin.display(description=gettext_lazy("anular"))
    def abort_link(self, table: Table) -> str:
        """A buy-in game that cannot finish is aborted here, explicitly (issue 11, PF-63)."""
        if table.pot_id is None or table.status not in (Table.Status.WAITING, Table.Status.PLAYING):
            return "-"
        url = reverse("admin:tables_abort", args=[table.pk])
        return format_html('<a href="{}">{}</a>', url, _("Anular la partida y devolver las entradas"))

    def get_urls(self) -> list[Any]:
        return [
            path("<int:table_id>/abort/", self.admin_site.admin_view(self.abort_view), name="tables_abort"),
            *super().get_urls(),
        ]

    def abort_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """Abort a buy-in table's game and refund every entry once, recording the admin and the reason."""
        table = get_object_or_404(Table, pk=table_id)
        if not (request.user.is_staff and request.user.has_perm("economy.add_transfer")):
            raise PermissionDenied
        form = AbortForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                refunded = hooks.online().abort_table(
                    table_id=table.pk, actor=request.user, reason=form.cleaned_data["reason"]
                )
            except TableError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Partida anulada: %(n)d entradas devueltas.") % {"n": refunded})
                return redirect("admin:cardgames_table_change", table.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Anular la mesa %(table)s") % {"table": table},
            "table": table,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/tables/abort.html", context)


class AbortForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Motivo"), max_length=200)


@admin.register(GameResult)
class GameResultAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "game", "mode", "simulated", "finished_at"]
    list_filter = ["game", "mode", "simulated"]
    readonly_fields = [f.name for f in GameResult._meta.fields]


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "name", "text", "at"]
    search_fields = ["name", "text"]
    readonly_fields = [f.name for f in ChatMessage._meta.fields]


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "index", "kind", "name", "bot_level", "stand_in"]
    list_filter = ["kind"]
    search_fields = ["name"]
    readonly_fields = [f.name for f in Seat._meta.fields]


@admin.register(ActionLog)
class ActionLogAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "seq", "seat", "source", "timer_id", "at"]
    list_filter = ["source"]
    readonly_fields = [f.name for f in ActionLog._meta.fields]


@admin.register(Invitation)
class InvitationAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["table", "sender", "recipient", "status", "created_at", "expires_at"]
    list_filter = ["status"]
    readonly_fields = [f.name for f in Invitation._meta.fields]
