"""Players' pages: the wallet (balance, bonus, history) and the shop. Thin: call, render."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import payouts, selectors, services
from .api import shop_items, wallet_data
from .errors import EconomyError
from .models import Entry

HISTORY_PAGE_SIZE = 20


@login_required
def wallet_page(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.wallet_history(user=request.user), HISTORY_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [(entry, selectors.entry_description(entry), table_link(entry)) for entry in page.object_list]
    context = {
        "wallet": wallet_data(request.user),
        "active": [(i["name"], i["active_until"]) for i in shop_items(request.user) if i["active_until"]],
        "page": page,
        "rows": rows,
        "next_level_xp": payouts.xp_for_level(payouts.level_for_xp(selectors.user_xp(user=request.user)) + 1),
    }
    return render(request, "economy/wallet.html", context)


def table_id_of(entry: Entry) -> int | None:
    """The table a wallet movement belongs to: rewards and pots are referenced "table:<id>"."""
    transfer = entry.transfer
    reference = transfer.reference or (transfer.pot.reference if transfer.pot else "")
    prefix, _sep, rest = reference.partition(":")
    return int(rest) if prefix == "table" and rest.isdigit() else None


def table_link(entry: Entry) -> str:
    """The movement's table as a link: its replay, which also covers a table still in play."""
    table_id = table_id_of(entry)
    return reverse("frontend:replay", args=[table_id]) if table_id is not None else ""


@login_required
@require_POST
def claim_bonus(request: HttpRequest) -> HttpResponseRedirect:
    try:
        services.claim_daily_bonus(user=request.user)
    except EconomyError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("¡Bono diario recogido: +%(coins)d monedas!") % {"coins": payouts.DAILY_BONUS}
        )
    return redirect("economy:wallet")


@login_required
def shop_page(request: HttpRequest) -> HttpResponse:
    context = {
        "wallet": wallet_data(request.user),
        "items": shop_items(request.user),
        "request_id": uuid.uuid4().hex,  # one purchase per rendered form, even if posted twice
    }
    return render(request, "economy/shop.html", context)


@login_required
@require_POST
def buy(request: HttpRequest) -> HttpResponseRedirect:
    item = request.POST.get("item", "")
    try:
        purchase = services.purchase_item(
            user=request.user, item=item, request_id=(request.POST.get("request_id") or "")[:64] or None
        )
    except EconomyError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Compra hecha: %(item)s, activo hasta el %(end)s.")
            % {
                "item": purchase.get_item_display(),
                "end": localtime(purchase.ends_at).strftime("%d/%m/%Y %H:%M"),
            },
        )
    return redirect("economy:shop")
