"""Admin: the ledger is read-only; pots have an audit page; wallets a history and an adjustment form."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.readonly_admin import ReadOnly

from . import services
from .audit import run_ledger_audit
from .errors import EconomyError
from .models import Account, AuditReport, BuyIn, Entry, GameReward, Pot, Purchase, Transfer, XpAward
from .payouts import MAX_AMOUNT
from .selectors import pot_audit


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """Ledger rows are immutable: view only, no add, change or delete from the admin."""


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("account", "amount", "balance_after")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "key", "user", "pot", "actor", "reason")
    list_filter = ("kind",)
    search_fields = ("key", "reference", "user__username", "reason")
    list_select_related = ("user", "pot", "actor")
    inlines = [EntryInline]
    date_hierarchy = "created_at"


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_on", "account", "amount", "balance_after", "transfer_kind", "transfer")
    list_filter = ("account__kind", "transfer__kind")
    search_fields = ("account__code", "account__user__username", "transfer__key")
    list_select_related = ("account", "transfer")

    @admin.display(description=gettext_lazy("fecha"), ordering="transfer__created_at")
    def created_on(self, entry: Entry) -> Any:
        return entry.transfer.created_at

    @admin.display(description=gettext_lazy("tipo"), ordering="transfer__kind")
    def transfer_kind(self, entry: Entry) -> str:
        return entry.transfer.get_kind_display()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        return lookup in {"account__id__exact", "transfer__pot__id__exact"} or super().lookup_allowed(
            lookup, value, request
        )


class AdjustmentForm(forms.Form):
    amount = forms.IntegerField(
        label=gettext_lazy("Monedas (+ para dar, − para quitar)"), min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT
    )
    reason = forms.CharField(label=gettext_lazy("Motivo"), widget=forms.Textarea, max_length=2000)
    request_id = forms.CharField(widget=forms.HiddenInput, max_length=64)


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("code", "kind", "user", "balance", "links")
    list_filter = ("kind",)
    search_fields = ("code", "user__username")
    list_select_related = ("user",)
    readonly_fields = ("code", "kind", "user", "balance", "created_at", "links")
    actions = ["adjust_wallet"]

    @admin.action(description=gettext_lazy("Ajustar el monedero seleccionado (con motivo)"))
    def adjust_wallet(self, request: HttpRequest, queryset: Any) -> HttpResponseRedirect | None:
        wallets = list(queryset.filter(kind=Account.Kind.WALLET)[:2])
        if len(wallets) != 1 or queryset.count() != 1:
            self.message_user(request, _("Elige exactamente un monedero."), messages.ERROR)
            return None
        return redirect("admin:economy_account_adjust", wallets[0].pk)

    @admin.display(description=gettext_lazy("acciones"))
    def links(self, account: Account) -> str:
        history = reverse("admin:economy_entry_changelist") + f"?account__id__exact={account.pk}"
        html = format_html('<a href="{}">{}</a>', history, _("Historial"))
        if account.kind == Account.Kind.WALLET:
            adjust = reverse("admin:economy_account_adjust", args=[account.pk])
            html += format_html(' · <a href="{}">{}</a>', adjust, _("Ajustar"))
        return html

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<int:account_id>/adjust/",
                self.admin_site.admin_view(self.adjust_view),
                name="economy_account_adjust",
            ),
            *super().get_urls(),
        ]

    def adjust_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        """Correct a wallet with a new 'adjustment' transfer recording the admin and the reason."""
        account = get_object_or_404(Account, pk=account_id, kind=Account.Kind.WALLET)
        if not (request.user.is_staff and request.user.has_perm("economy.add_transfer")):
            raise PermissionDenied
        form = AdjustmentForm(request.POST or None, initial={"request_id": uuid.uuid4().hex})
        if request.method == "POST" and form.is_valid():
            try:
                services.adjust_wallet(
                    user=account.user,
                    amount=form.cleaned_data["amount"],
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                    request_id=form.cleaned_data["request_id"],
                )
            except EconomyError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Ajuste registrado."))
                return redirect(
                    reverse("admin:economy_entry_changelist") + f"?account__id__exact={account.pk}"
                )
        context = {
            **self.admin_site.each_context(request),
            "title": _("Ajustar el monedero de %(user)s") % {"user": account.user},
            "account": account,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/economy/adjust.html", context)


@admin.register(Pot)
class PotAdmin(ReadOnlyAdmin):
    list_display = ("id", "reference", "stake", "status", "balance", "created_at", "closed_at", "audit_link")
    list_filter = ("status", "stake")
    search_fields = ("reference",)
    list_select_related = ("account",)
    readonly_fields = ("reference", "stake", "status", "account", "created_at", "closed_at", "audit_link")

    @admin.display(description=gettext_lazy("saldo"))
    def balance(self, pot: Pot) -> int:
        return pot.account.balance

    @admin.display(description=gettext_lazy("auditoría"))
    def audit_link(self, pot: Pot) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:economy_pot_audit", args=[pot.pk]), _("Auditar")
        )

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<int:pot_id>/audit/", self.admin_site.admin_view(self.audit_view), name="economy_pot_audit"
            ),
            *super().get_urls(),
        ]

    def audit_view(self, request: HttpRequest, pot_id: int) -> HttpResponse:
        """Every entry, payout and refund of one pot, its balance, owner and reconciliation."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        pot = get_object_or_404(Pot, pk=pot_id)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Auditoría del bote %(ref)s") % {"ref": pot.reference},
            "audit": pot_audit(pot=pot),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/economy/pot_audit.html", context)


@admin.register(BuyIn)
class BuyInAdmin(ReadOnlyAdmin):
    list_display = ("id", "pot", "user", "seq", "amount", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("pot__reference", "user__username")
    list_select_related = ("pot", "user")


@admin.register(Purchase)
class PurchaseAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "item", "starts_at", "ends_at")
    list_filter = ("item",)
    search_fields = ("user__username",)
    list_select_related = ("user",)


@admin.register(XpAward)
class XpAwardAdmin(ReadOnlyAdmin):
    list_display = ("id", "user", "amount", "reference", "created_at")
    search_fields = ("user__username", "reference")
    list_select_related = ("user",)


@admin.register(GameReward)
class GameRewardAdmin(ReadOnlyAdmin):
    """What each rewarded game was rewarded for (a repeat with other input is refused)."""

    list_display = ("id", "reference", "game", "mode", "created_at")
    list_filter = ("mode", "game")
    search_fields = ("reference",)


@admin.register(AuditReport)
class AuditReportAdmin(ReadOnlyAdmin):
    list_display = ("started_at", "ok", "problem_count", "finished_at")
    list_filter = ("ok",)
    readonly_fields = ("started_at", "finished_at", "ok", "problems", "stats")
    change_list_template = "admin/economy/auditreport_change_list.html"

    @admin.display(description=gettext_lazy("problemas"))
    def problem_count(self, report: AuditReport) -> int:
        return len(report.problems)

    def get_urls(self) -> list[Any]:
        return [
            path("run/", self.admin_site.admin_view(self.run_view), name="economy_auditreport_run"),
            *super().get_urls(),
        ]

    def run_view(self, request: HttpRequest) -> HttpResponseRedirect:
        """POST: audit the whole ledger now and store the report."""
        if request.method != "POST" or not self.has_view_permission(request):
            raise PermissionDenied
        report = run_ledger_audit()
        if report.ok:
            messages.success(request, _("La contabilidad cuadra."))
        else:
            messages.error(
                request, _("La auditoría encontró %(n)d problema(s).") % {"n": len(report.problems)}
            )
        return redirect("admin:economy_auditreport_change", report.pk)
