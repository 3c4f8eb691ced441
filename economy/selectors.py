"""Economy reads: balances, histories, XP, shop state and pot reconciliation."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Prefetch, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from . import payouts
from .models import Account, BuyIn, Entry, Pot, Purchase, Transfer, XpAward


def league_date(now: datetime | None = None) -> str:
    """The date (ISO) in the league time zone: the daily bonus's calendar day (PF-57)."""
    return (now or timezone.now()).astimezone(ZoneInfo(settings.LEAGUE_TIME_ZONE)).date().isoformat()


def wallet_balance(*, user: Any) -> int:
    """The cached balance of the user's wallet (0 without one)."""
    return Account.objects.filter(user_id=user.pk).values_list("balance", flat=True).first() or 0


def welcome_pending(*, user: Any) -> bool:
    """Whether the user's welcome coins (PF-57) still wait for their first finished game
    (cardgames/welcome.py: a sign-up's grant is paid when a game they moved in ends)."""
    return bool(getattr(user, "welcome_pending", False))


def wallet_history(*, user: Any) -> QuerySet[Entry]:
    """The user's wallet entries, newest first, with their transfers."""
    return (
        Entry.objects.filter(account__user_id=user.pk)
        .select_related("transfer", "transfer__pot", "transfer__actor")
        .order_by("-id")
    )


def entry_description(entry: Entry) -> str:
    """A readable reason for a wallet entry (translated)."""
    transfer = entry.transfer
    label = str(Transfer.Kind(transfer.kind).label)
    if transfer.kind == Transfer.Kind.PURCHASE:
        return f"{label}: {Purchase.Item(transfer.reference).label}"
    if transfer.kind == Transfer.Kind.ADJUSTMENT and transfer.reason:
        return f"{label}: {transfer.reason}"
    if transfer.reference:
        return f"{label} ({transfer.reference})"
    return label


def user_xp(*, user: Any) -> int:
    return int(XpAward.objects.filter(user_id=user.pk).aggregate(total=Sum("amount"))["total"] or 0)


def user_level(*, user: Any) -> int:
    return payouts.level_for_xp(user_xp(user=user))


def active_purchases(*, user: Any, at: datetime | None = None) -> list[Purchase]:
    now = at or timezone.now()
    return list(
        Purchase.objects.filter(user_id=user.pk, starts_at__lte=now, ends_at__gt=now).order_by("ends_at")
    )


def has_vip(*, user: Any, at: datetime | None = None) -> bool:
    """Whether the user wears the VIP badge now (an active VIP pass)."""
    now = at or timezone.now()
    return Purchase.objects.filter(
        user_id=user.pk, item=Purchase.Item.VIP_PASS, starts_at__lte=now, ends_at__gt=now
    ).exists()


def item_ends_at(*, user: Any, item: str, at: datetime | None = None) -> datetime | None:
    """When the user's current or queued window of ``item`` ends (None if none)."""
    now = at or timezone.now()
    return (
        Purchase.objects.filter(user_id=user.pk, item=item, ends_at__gt=now)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )


def bonus_claimed_today(*, user: Any, now: datetime | None = None) -> bool:
    return Transfer.objects.filter(key=f"bonus:{user.pk}:{league_date(now)}").exists()


@dataclass
class PotAudit:
    """Everything about one pot an admin needs to trust it."""

    pot: Pot
    entries: list[Entry]
    movements: list[Transfer]
    buyins: list[BuyIn]
    cached_balance: int
    entries_balance: int
    seated_total: int
    paid_in: int
    paid_out: int
    problems: list[str] = field(default_factory=list)

    @property
    def reconciles(self) -> bool:
        return not self.problems


def pot_audit(*, pot: Pot) -> PotAudit:
    """Reconcile one pot: entries vs cached balance, balance vs seated entries, closed pots at 0."""
    pot = Pot.objects.select_related("account").get(pk=pot.pk)
    entries = list(
        Entry.objects.filter(account=pot.account).select_related("transfer", "transfer__user").order_by("id")
    )
    movements = list(
        Transfer.objects.filter(pot=pot)
        .select_related("user")
        .prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("account__user").order_by("id"))
        )
        .order_by("id")
    )
    buyins = list(pot.buyins.select_related("user", "transfer", "return_transfer").order_by("id"))
    entries_balance = sum(e.amount for e in entries)
    seated_total = sum(b.amount for b in buyins if b.status in (BuyIn.Status.SEATED, BuyIn.Status.PLAYED))
    paid_in = sum(e.amount for e in entries if e.amount > 0)
    paid_out = -sum(e.amount for e in entries if e.amount < 0)
    problems: list[str] = []
    if pot.account.balance != entries_balance:
        problems.append(
            _("El saldo guardado (%(cached)d) no coincide con los apuntes (%(entries)d).")
            % {"cached": pot.account.balance, "entries": entries_balance}
        )
    if pot.status in (Pot.Status.SETTLED, Pot.Status.CANCELLED):
        if entries_balance != 0:
            problems.append(
                _("El bote está cerrado pero guarda %(coins)d monedas.") % {"coins": entries_balance}
            )
    elif entries_balance != seated_total:
        problems.append(
            _("El bote guarda %(coins)d monedas, pero las entradas sentadas suman %(seated)d.")
            % {"coins": entries_balance, "seated": seated_total}
        )
    for b in buyins:
        returned = b.status in (BuyIn.Status.STOOD_UP, BuyIn.Status.REFUNDED)
        if returned != (b.return_transfer_id is not None):
            problems.append(
                _("La entrada %(id)d (%(status)s) no cuadra con su devolución.")
                % {"id": b.pk, "status": b.get_status_display()}
            )
    if pot.status == Pot.Status.SETTLED:
        settled = [e for e in entries if e.transfer.kind == Transfer.Kind.SETTLE]
        if len(settled) != 1:
            problems.append(_("El bote tiene %(n)d repartos en vez de uno.") % {"n": len(settled)})
    moved = sum(e.amount for t in movements for e in t.entries.all() if e.account_id == pot.account_id)
    if moved != entries_balance:
        problems.append(
            _("Hay apuntes del bote fuera de sus propias transferencias (%(moved)d ≠ %(entries)d).")
            % {"moved": moved, "entries": entries_balance}
        )
    return PotAudit(
        pot=pot,
        entries=entries,
        movements=movements,
        buyins=buyins,
        cached_balance=pot.account.balance,
        entries_balance=entries_balance,
        seated_total=seated_total,
        paid_in=paid_in,
        paid_out=paid_out,
        problems=problems,
    )
