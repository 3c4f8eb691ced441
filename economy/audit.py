"""The ledger audit: proves the books balance, and reports (never fixes) what does not.

Checks (docs/economy.md, "Audit"): every transfer has two or more entries summing to zero;
every cached balance equals the sum of its entries; no wallet or pot is negative; every
settled or cancelled pot is at 0 and every open pot holds exactly its seated entries; every
returned entry has its return transfer; minted - spent == the coins in wallets and pots
(equivalently, all entries sum to zero); and the welcome grant is where the site pays it: every
account but a superuser's has had it once it is no longer waiting for its first finished game,
none still waiting has, and each paid exactly ``payouts.WELCOME_GRANT`` into the wallet.

Run by the hourly task and the admin's «run now» (``run_ledger_audit``: a stored report) and
by ``manage.py audit_ledger``; ``describe`` says a finding in a sentence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from . import payouts
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

    _audit_welcome(result)

    result.stats = {
        "transfers": Transfer.objects.count(),
        "entries": Entry.objects.count(),
        "accounts": len(accounts),
        "pots": len(pots),  # count of pot rows
        **totals,
    }
    return result


def _audit_welcome(result: AuditResult) -> None:
    """PF-57 as the site pays it: a sign-up's welcome waits for its first finished game with a
    move of its own (``welcome_pending``, cardgames/welcome.py); an account made otherwise gets
    it at creation; superusers never (economy/signals.py)."""
    users = get_user_model().objects
    welcomed = Transfer.objects.filter(kind=Transfer.Kind.WELCOME).values("user_id")
    missing = (
        users.exclude(pk__in=welcomed)
        .exclude(welcome_pending=True)
        .exclude(is_superuser=True)
        .values_list("pk", flat=True)[:LIMIT]
    )
    for user_id in missing:
        result.add("missing_welcome_grant", user=user_id)
    early = users.filter(welcome_pending=True, pk__in=welcomed).values_list("pk", flat=True)[:LIMIT]
    for user_id in early:
        result.add("welcome_before_first_game", user=user_id)
    wrong = (
        Entry.objects.filter(transfer__kind=Transfer.Kind.WELCOME, account__kind=Account.Kind.WALLET)
        .exclude(amount=payouts.WELCOME_GRANT)
        .values("transfer_id", "transfer__user_id", "amount")[:LIMIT]
    )
    for e in wrong:
        result.add(
            "welcome_amount",
            transfer=e["transfer_id"],
            user=e["transfer__user_id"],
            amount=e["amount"],
            expected=payouts.WELCOME_GRANT,
        )


#: a finding in a sentence, by check (``describe``); the fields are the problem's own
SENTENCES = {
    "transfer_not_balanced": "transfer {transfer} ({key}) does not balance: its {entries} entries sum to "
    "{total}",
    "cache_mismatch": "account {account} caches a balance of {cached} but its entries sum to {entries}",
    "negative_balance": "account {account} is negative: cached {cached}, entries {entries}",
    "unknown_house_account": "account {account} is a house account the ledger does not know",
    "minted_minus_spent": "minted {minted} - spent {spent} is not what wallets ({in_wallets}) and pots "
    "({in_pots}) hold",
    "ledger_not_zero": "all the ledger's entries sum to {total}, not 0",
    "pot_not_reconciled": "pot {pot} ({reference}, {status}) holds {held} coins but its seated entries make "
    "{expected}",
    "buyin_return_mismatch": "buy-in {buyin} of pot {pot} is {status} but its return transfer says otherwise",
    "missing_welcome_grant": "user {user} never got the welcome grant, and is not waiting for a first game",
    "welcome_before_first_game": "user {user} got the welcome grant while still waiting for a first "
    "finished game",
    "welcome_amount": "the welcome transfer {transfer} paid user {user} {amount} coins, not {expected}",
}


def describe(problem: dict[str, Any], sentences: dict[str, str] = SENTENCES) -> str:
    """One finding as a sentence an operator reads (``manage.py audit_ledger``; the league's
    audit passes its own ``sentences``)."""
    try:
        return sentences[problem["check"]].format(**problem)
    except (KeyError, IndexError):  # a check without a sentence still shows every field
        return ", ".join(f"{k}={v}" for k, v in problem.items())


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


__all__ = ["AuditResult", "audit_ledger", "describe", "run_ledger_audit"]
