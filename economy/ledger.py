"""The one posting function of the ledger, and the accounts it posts to.

Every coin movement in Tapete is ``post_transfer``: two or more entries summing to zero,
written in one database transaction under a unique idempotency key. A repeated call with
the same key returns the first transfer and moves nothing.

Locking protocol (docs/economy.md): a transaction takes row locks in a fixed order:
at most one ``Pot`` row first (the services do that), then ``Account`` rows in
ascending primary key (``lock_accounts``). Funds are checked after the locks are held,
and cached balances change only here, in the same transaction as their entries.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from .errors import EconomyError
from .models import Account, Entry, Pot, Transfer
from .payouts import MAX_AMOUNT

# House accounts. Sources mint coins (their balance goes negative); the sink absorbs
# what players spend. minted - spent == the coins held by wallets and pots.
HOUSE_WELCOME = "house:welcome"
HOUSE_BONUS = "house:bonus"
HOUSE_REWARD = "house:reward"
HOUSE_PRIZE = "house:prize"
HOUSE_ADJUSTMENT = "house:adjustment"
HOUSE_SHOP = "house:shop"
SOURCE_CODES = (HOUSE_WELCOME, HOUSE_BONUS, HOUSE_REWARD, HOUSE_PRIZE, HOUSE_ADJUSTMENT)
SINK_CODES = (HOUSE_SHOP,)

# Test hook for failure injection: called with a checkpoint name inside the transaction.
fault_hook: Callable[[str], None] | None = None


def checkpoint(name: str) -> None:
    """A named point inside a money transaction where tests may inject a failure."""
    if fault_hook is not None:
        fault_hook(name)


@dataclass(frozen=True)
class Posted:
    transfer: Transfer
    created: bool


def house_account(code: str) -> Account:
    """The house account ``code`` (created on first use)."""
    if code not in SOURCE_CODES and code not in SINK_CODES:
        raise ValueError(f"unknown house account {code!r}")
    account, _ = Account.objects.get_or_create(code=code, defaults={"kind": Account.Kind.HOUSE})
    return account


def wallet_for(user: Any) -> Account:
    """The user's wallet (created empty on first use; coins only arrive by transfers)."""
    account, _ = Account.objects.get_or_create(
        user_id=user.pk, defaults={"kind": Account.Kind.WALLET, "code": f"wallet:{user.pk}"}
    )
    return account


def pot_account_code(pot_reference: str) -> str:
    """``pot:<reference>``, or ``pot:#<sha256>`` when that would not fit the 64-character code."""
    code = f"pot:{pot_reference}"
    if len(code) <= 60:
        return code
    return "pot:#" + hashlib.sha256(pot_reference.encode()).hexdigest()[:59]


def lock_accounts(accounts: Iterable[Account]) -> dict[int, Account]:
    """Lock: ``SELECT … FOR UPDATE`` on the accounts, in ascending primary key. Returns them fresh."""
    ids = sorted({a.pk for a in accounts})
    return {a.pk: a for a in Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")}


def lock_pot(pot: Pot | int) -> Pot:
    """Lock: ``SELECT … FOR UPDATE`` on one Pot row (always before any Account row)."""
    pk = pot if isinstance(pot, int) else pot.pk
    return Pot.objects.select_for_update().select_related("account").get(pk=pk)


def _check_amount(amount: Any) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_AMOUNT:
        raise EconomyError("invalid_amount")
    return amount


def _same_postings(transfer: Transfer, kind: str, postings: Sequence[tuple[Account, int]]) -> bool:
    stored = Counter((e.account_id, e.amount) for e in transfer.entries.all())
    return transfer.kind == kind and stored == Counter((a.pk, amount) for a, amount in postings)


def post_transfer(
    *,
    key: str,
    kind: str,
    postings: Sequence[tuple[Account, int]],
    user: Any = None,
    pot: Pot | None = None,
    actor: Any = None,
    reference: str = "",
    reason: str = "",
    locked: dict[int, Account] | None = None,
) -> Posted:
    """Move coins: ``postings`` are (account, signed amount) pairs summing to zero.

    Lock: every account of ``postings``, ``FOR UPDATE`` in ascending primary key (the
    caller may already hold a Pot row lock and some of these locks). Inside the lock the
    key is looked up again (a concurrent twin may just have committed) and wallets and
    pots are checked for funds: ``EconomyError("insufficient_coins")`` and nothing moves.
    A key already used returns ``Posted(first_transfer, created=False)``; used with other
    postings it raises ``EconomyError("idempotency_conflict")``. ``locked`` is what the
    caller got from ``lock_accounts`` earlier in this transaction: when it covers every
    account, the locks are not taken again and its balances are kept current.
    """
    if not key or len(key) > 200:
        raise EconomyError("invalid_transfer")
    if kind not in Transfer.Kind.values:
        raise EconomyError("invalid_transfer")
    if len(postings) < 2:
        raise EconomyError("invalid_transfer")
    for _account, amount in postings:
        _check_amount(amount)
    if sum(amount for _account, amount in postings) != 0:
        raise EconomyError("invalid_transfer")
    if len({account.pk for account, _amount in postings}) != len(postings):
        raise EconomyError("invalid_transfer")

    with transaction.atomic():
        if locked is None or any(account.pk not in locked for account, _amount in postings):
            locked = lock_accounts(account for account, _amount in postings)
        checkpoint("ledger.after_lock")
        first = Transfer.objects.filter(key=key).first()
        if first is not None:
            if not _same_postings(first, kind, postings):
                raise EconomyError("idempotency_conflict")
            return Posted(first, created=False)

        balances = {account.pk: locked[account.pk].balance for account, _amount in postings}
        for account, amount in postings:
            balances[account.pk] += amount
        for pk, balance in balances.items():
            account = locked[pk]
            if balance < 0 and account.kind != Account.Kind.HOUSE:
                raise EconomyError(
                    "insufficient_coins" if account.kind == Account.Kind.WALLET else "pot_balance_mismatch"
                )

        transfer = Transfer.objects.create(
            key=key,
            kind=kind,
            user_id=getattr(user, "pk", None),
            pot=pot,
            actor_id=getattr(actor, "pk", None),
            reference=reference,
            reason=reason,
        )
        checkpoint("ledger.after_transfer")
        running = {account.pk: locked[account.pk].balance for account, _amount in postings}
        entries = []
        for account, amount in postings:
            running[account.pk] += amount
            entries.append(
                Entry(
                    transfer=transfer, account_id=account.pk, amount=amount, balance_after=running[account.pk]
                )
            )
        Entry.objects.bulk_create(entries)
        checkpoint("ledger.after_entries")
        changed = []
        for pk, balance in balances.items():
            locked[pk].balance = balance
            changed.append(locked[pk])
        Account.objects.bulk_update(changed, ["balance"])
        checkpoint("ledger.after_balances")
    return Posted(transfer, created=True)
