"""The ledger audit: proves the books balance, and reports (never fixes) what does not.

Checks (docs/economy.md): every transfer has two or more entries summing to zero; every
cached balance equals the sum of its entries; no wallet or pot is negative; every settled
or cancelled pot is at 0 and every open pot holds exactly its seated entries; every
returned entry has its return transfer; minted - spent == the coins in wallets and
pots (equivalently, all entries sum to zero); and every user has had the welcome grant.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from .ledger import SINK_CODES, SOURCE_CODES
from .models import Account, AuditReport, BuyIn, Entry, Pot, Transfer

logger = logging.getLogger("economy.audit")
LIMIT = 50  # problems listed per check


@dataclass
class AuditResult:
    problems: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, check: str, **detail: Any) -> None:
        self.problems.append({"check": check, **detail})


def _entry_sum(prefix: str = "entries__amount") -> Any:
    return Coalesce(Sum(prefix), Value(0))


def audit_ledger() -> AuditResult:
    """Run every check over the whole ledger in a few aggregate queries; read only."""
    result = AuditResult()

    bad_transfers = (
        Transfer.objects.annotate(total=_entry_sum(), n=Count("entries"))
        .filter(~Q(total=0) | Q(n__lt=2))
        .values("id", "key", "total", "n")[:LIMIT]
    )
    for t in bad_transfers:
        result.add("transfer_not_balanced", transfer=t["id"], key=t["key"], total=t["total"], entries=t["n"])

    accounts = list(
        Account.objects.annotate(entries_total=_entry_sum()).values(
            "id", "code", "kind", "balance", "entries_total"
        )
    )
    totals = {"in_wallets": 0, "in_pots": 0, "minted": 0, "spent": 0, "all": 0}
    for a in accounts:
        if a["balance"] != a["entries_total"]:
            result.add("cache_mismatch", account=a["code"], cached=a["balance"], entries=a["entries_total"])
        if a["kind"] in (Account.Kind.WALLET, Account.Kind.POT) and min(a["balance"], a["entries_total"]) < 0:
            result.add("negative_balance", account=a["code"], cached=a["balance"], entries=a["entries_total"])
        totals["all"] += a["entries_total"]
        if a["kind"] == Account.Kind.WALLET:
            totals["in_wallets"] += a["entries_total"]
        elif a["kind"] == Account.Kind.POT:
            totals["in_pots"] += a["entries_total"]
        elif a["code"] in SOURCE_CODES:
            totals["minted"] -= a["entries_total"]
        elif a["code"] in SINK_CODES:
            totals["spent"] += a["entries_total"]
        else:
            result.add("unknown_house_account", account=a["code"])
    if totals["minted"] - totals["spent"] != totals["in_wallets"] + totals["in_pots"]:
        result.add("minted_minus_spent", **totals)
    if totals["all"] != 0:
        result.add("ledger_not_zero", total=totals["all"])

    pots = Pot.objects.annotate(
        held=Coalesce(Sum("account__entries__amount"), Value(0)),
    ).values("id", "reference", "status", "held")
    seated = dict(
        BuyIn.objects.filter(status=BuyIn.Status.SEATED)
        .values("pot_id")
        .annotate(total=Sum("amount"))
        .values_list("pot_id", "total")
    )
    for p in pots:
        closed = p["status"] in (Pot.Status.SETTLED, Pot.Status.CANCELLED)
        expected = 0 if closed else seated.get(p["id"], 0)
        if p["held"] != expected:
            result.add(
                "pot_not_reconciled",
                pot=p["id"],
                reference=p["reference"],
                status=p["status"],
                held=p["held"],
                expected=expected,
            )
    unreturned = BuyIn.objects.filter(
        Q(status__in=[BuyIn.Status.STOOD_UP, BuyIn.Status.REFUNDED], return_transfer__isnull=True)
        | Q(status__in=[BuyIn.Status.SEATED, BuyIn.Status.PLAYED], return_transfer__isnull=False)
    ).values("id", "pot_id", "status")[:LIMIT]
    for b in unreturned:
        result.add("buyin_return_mismatch", buyin=b["id"], pot=b["pot_id"], status=b["status"])

    missing = (
        get_user_model()
        .objects.exclude(pk__in=Transfer.objects.filter(kind=Transfer.Kind.WELCOME).values("user_id"))
        .exclude(welcome_pending=True)  # a sign-up's coins wait for its first game (cardgames/welcome.py)
        .exclude(is_superuser=True)  # superusers get no welcome (economy/signals.py)
        .values_list("pk", flat=True)[:LIMIT]
    )
    for user_id in missing:
        result.add("missing_welcome_grant", user=user_id)

    result.stats = {
        "transfers": Transfer.objects.count(),
        "entries": Entry.objects.count(),
        "accounts": len(accounts),
        "pots": len(pots),  # count of pot rows
        **totals,
    }
    return result


def run_ledger_audit() -> AuditReport:
    """Audit the ledger, store an ``AuditReport`` for the admin and log problems loudly."""
    started = timezone.now()
    result = audit_ledger()
    report = AuditReport.objects.create(
        started_at=started,
        finished_at=timezone.now(),
        ok=result.ok,
        problems=result.problems,
        stats=result.stats,
    )
    if result.ok:
        logger.info("economy audit clean: %s", result.stats)
    else:
        logger.error("economy audit found %d problem(s): %s", len(result.problems), result.problems[:10])
    return report


__all__ = ["AuditResult", "audit_ledger", "run_ledger_audit"]
