"""Buy-in pots (PF-17, PF-18, PF-52, PF-53): open, buy in, stand up, start, cancel or abort with
refunds, settle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import payouts
from ..errors import EconomyError
from ..ledger import (
    Posted,
    checkpoint,
    lock_accounts,
    lock_pot,
    post_transfer,
    pot_account_code,
    wallet_for,
)
from ..models import Account, BuyIn, Pot, Transfer
from .boundary import a_pot, a_staff_user, a_user, checked, result_pairs, some_users, text
from .common import UserRef


@checked(reference=text("invalid_reference", 100))
def open_pot(*, reference: str, stake: int) -> Pot:
    """Open the pot of a buy-in table (PF-17). Idempotent per ``reference``.

    Lock: none (a unique reference; a concurrent twin gets the same pot).
    """
    if isinstance(stake, bool) or not isinstance(stake, int) or stake not in payouts.STAKES:
        raise EconomyError("invalid_stake")
    if not isinstance(reference, str) or not reference.strip() or len(reference) > 100:
        raise EconomyError("invalid_reference")
    with transaction.atomic():
        existing = Pot.objects.filter(reference=reference).first()
        if existing is None:
            account, _ = Account.objects.get_or_create(
                code=pot_account_code(reference), defaults={"kind": Account.Kind.POT}
            )
            existing, _ = Pot.objects.get_or_create(
                reference=reference, defaults={"stake": stake, "account": account}
            )
    if existing.stake != stake:
        raise EconomyError("pot_reference_taken")
    return existing


@checked(user=a_user, pot=a_pot)
def buy_in(*, user: Any, pot: Pot | int) -> BuyIn:
    """Move the stake from the user's wallet to the pot when they sit (PF-17, PF-57).

    Lock: the Pot row (guards the seats), then the wallet and the pot's account (pk order,
    in ``post_transfer``); status, seat and funds are checked inside the locks.
    Key ``buyin:<pot>:<user>:<n>`` (n counts the
    user's earlier entries to this pot, so standing up and sitting again is a new entry).
    Raises ``pot_not_open``, ``already_seated`` or ``insufficient_coins``.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status != Pot.Status.OPEN:
            raise EconomyError(_closed_code(locked_pot))
        wallet = wallet_for(user)
        previous = list(
            BuyIn.objects.filter(pot=locked_pot, user_id=user.pk).values_list("status", flat=True)
        )
        if BuyIn.Status.SEATED in previous:
            raise EconomyError("already_seated")
        seq = len(previous) + 1
        posted = post_transfer(
            key=f"buyin:{locked_pot.pk}:{user.pk}:{seq}",
            kind=Transfer.Kind.BUYIN,
            postings=[(wallet, -locked_pot.stake), (locked_pot.account, locked_pot.stake)],
            user=user,
            pot=locked_pot,
            reference=locked_pot.reference,
        )
        checkpoint("buy_in.after_transfer")
        return BuyIn.objects.create(
            pot=locked_pot, user_id=user.pk, seq=seq, amount=locked_pot.stake, transfer=posted.transfer
        )


@checked(users=some_users, pot=a_pot)
def buy_in_many(*, users: Sequence[Any], pot: Pot | int) -> dict[int, BuyIn | EconomyError]:
    """Seat several players in a pot at once (a table that fills in one go, issue 11).

    The same rules, keys and checks as ``buy_in`` — ``buyin:<pot>:<user>:<n>``, the pot open,
    one seat per user, funds checked inside the locks — with one lock of the Pot row and one
    of all the accounts (pk order) instead of one round per player. Returns, per user id, the
    new ``BuyIn``, or the ``EconomyError`` that refused that user (``already_seated``,
    ``insufficient_coins``; ``pot_*`` for everyone when the pot is not open): nothing moved for
    a refused user, and the others are seated. Lock: the Pot row, then the pot's account and
    the wallets (pk order).
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status != Pot.Status.OPEN:
            return {user.pk: EconomyError(_closed_code(locked_pot)) for user in users}
        ids = [user.pk for user in users]
        wallets = {a.user_id: a for a in Account.objects.filter(user_id__in=ids, kind=Account.Kind.WALLET)}
        for user in users:
            if user.pk not in wallets:
                wallets[user.pk] = wallet_for(user)
        previous: dict[int, list[str]] = {}
        for user_id, status in BuyIn.objects.filter(pot=locked_pot, user_id__in=ids).values_list(
            "user_id", "status"
        ):
            previous.setdefault(user_id, []).append(status)
        locked = lock_accounts([locked_pot.account, *wallets.values()])
        results: dict[int, BuyIn | EconomyError] = {}
        created: list[BuyIn] = []
        for user in users:
            statuses = previous.get(user.pk, [])
            if BuyIn.Status.SEATED in statuses or user.pk in results:
                results.setdefault(user.pk, EconomyError("already_seated"))
                continue
            if locked[wallets[user.pk].pk].balance < locked_pot.stake:
                results[user.pk] = EconomyError("insufficient_coins")
                continue
            seq = len(statuses) + 1
            posted = post_transfer(
                key=f"buyin:{locked_pot.pk}:{user.pk}:{seq}",
                kind=Transfer.Kind.BUYIN,
                postings=[(wallets[user.pk], -locked_pot.stake), (locked_pot.account, locked_pot.stake)],
                user=user,
                pot=locked_pot,
                reference=locked_pot.reference,
                locked=locked,
            )
            checkpoint("buy_in.after_transfer")
            buyin = BuyIn(
                pot=locked_pot, user_id=user.pk, seq=seq, amount=locked_pot.stake, transfer=posted.transfer
            )
            created.append(buyin)
            results[user.pk] = buyin
        BuyIn.objects.bulk_create(created)
        return results


@checked(user=a_user, pot=a_pot)
def stand_up(*, user: Any, pot: Pot | int) -> BuyIn:
    """Return the entry of a player who stands up before the game starts (PF-57).

    Lock: the Pot row, then the pot's account and the wallet (pk order).
    Key ``standup:<pot>:<user>:<n>``. Raises ``pot_not_open`` or ``not_seated``.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status != Pot.Status.OPEN:
            raise EconomyError(_closed_code(locked_pot))
        buyin = BuyIn.objects.filter(pot=locked_pot, user_id=user.pk, status=BuyIn.Status.SEATED).first()
        if buyin is None:
            raise EconomyError("not_seated")
        posted = _return_entry(locked_pot, buyin, kind=Transfer.Kind.STANDUP, prefix="standup")
        checkpoint("stand_up.after_transfer")
        buyin.status = BuyIn.Status.STOOD_UP
        buyin.return_transfer = posted.transfer
        buyin.save(update_fields=["status", "return_transfer"])
        return buyin


@checked(pot=a_pot)
def start_pot(*, pot: Pot | int) -> Pot:
    """Close a pot to entries and stand-ups: its game has started. Idempotent.

    Lock: the Pot row.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.OPEN:
            if not BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED).exists():
                raise EconomyError("pot_empty")
            locked_pot.status = Pot.Status.STARTED
            locked_pot.save(update_fields=["status"])
        elif locked_pot.status != Pot.Status.STARTED:
            raise EconomyError(_closed_code(locked_pot))
        return locked_pot


@checked(pot=a_pot)
def cancel_pot(*, pot: Pot | int) -> list[BuyIn]:
    """Cancel a pot that did not fill and refund every seated entry exactly once (PF-18, PF-52).

    Only a pot that is still **open** is cancelled: run late or redelivered (Celery
    ``acks_late``), the fill-deadline task must not end a game in progress, so a started pot
    is refused (``pot_started``) and a settled one too (``pot_settled``). Aborting a started
    game is the separate, explicit admin action ``abort_pot``.
    Lock: the Pot row, then the pot's account and every seated player's wallet (pk
    order). Keys ``refund:<pot>:<user>:<n>``. Safe to run twice, concurrently or after a
    crash: a cancelled pot returns ``[]``. Returns the entries refunded by this call.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.CANCELLED:
            return []
        if locked_pot.status == Pot.Status.SETTLED:
            raise EconomyError("pot_settled")
        if locked_pot.status == Pot.Status.STARTED:
            raise EconomyError("pot_started")
        return _refund_all(locked_pot)


@checked(pot=a_pot, actor=a_staff_user, reason=text("reason_required", 500))
def abort_pot(*, pot: Pot | int, actor: Any, reason: str) -> list[BuyIn]:
    """An admin aborts the game of a pot (open or started) and refunds every seated entry once.

    The explicit action for a game that cannot finish (PF-63 keeps players in a started
    buy-in table, so nobody else may take their entries back). ``actor`` must be staff and
    ``reason`` is recorded on every refund. Lock and keys as ``cancel_pot``; an aborted pot
    is cancelled, so a second call returns ``[]``. Raises ``not_staff``, ``reason_required``,
    ``pot_settled``.
    """
    if actor is None or not getattr(actor, "is_staff", False):
        raise EconomyError("not_staff")
    if not isinstance(reason, str) or not reason.strip():
        raise EconomyError("reason_required")
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.CANCELLED:
            return []
        if locked_pot.status == Pot.Status.SETTLED:
            raise EconomyError("pot_settled")
        return _refund_all(locked_pot, actor=actor, reason=reason.strip()[:200])


def _refund_all(locked_pot: Pot, *, actor: Any = None, reason: str = "") -> list[BuyIn]:
    """Refund every seated entry of a pot whose row this transaction holds, then mark it cancelled."""
    seated = list(BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED).order_by("pk"))
    wallets = {w.user_id: w for w in (wallet_for(UserRef(b.user_id)) for b in seated)}
    locked = lock_accounts([locked_pot.account, *wallets.values()])
    for buyin in seated:
        posted = _return_entry(
            locked_pot,
            buyin,
            kind=Transfer.Kind.REFUND,
            prefix="refund",
            locked=locked,
            actor=actor,
            reason=reason,
        )
        checkpoint("cancel_pot.after_refund")
        buyin.status = BuyIn.Status.REFUNDED
        buyin.return_transfer = posted.transfer
        buyin.save(update_fields=["status", "return_transfer"])
    locked_pot.status = Pot.Status.CANCELLED
    locked_pot.closed_at = timezone.now()
    locked_pot.save(update_fields=["status", "closed_at"])
    return seated


@checked(pot=a_pot, results=result_pairs)
def settle_pot(*, pot: Pot | int, results: Sequence[tuple[int, int]]) -> Transfer:
    """Pay the whole pot to 1st place (PF-53): ``results`` is (user id, place) in seat order.

    Only a **started** pot is settled (``pot_not_started`` otherwise: its game never
    began). The players must be exactly the seated entries. Tied winners split equally and
    the remainder goes one coin at a time in seat order; the pot ends at 0, no commission.
    Lock: the Pot row, then the pot's account and the winners' wallets (pk order).
    Key ``settle:<pot>``; the results are stored with the pot: settling again with the same
    results returns the first transfer, with any other results (even ones that would pay
    the same winner) raises ``pot_settled``; a cancelled pot raises ``pot_cancelled``.
    """
    normalized = _normalized_results(results)
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.CANCELLED:
            raise EconomyError("pot_cancelled")
        key = f"settle:{locked_pot.pk}"
        if locked_pot.status == Pot.Status.SETTLED:
            return _settled_again(locked_pot, key, normalized)
        if locked_pot.status != Pot.Status.STARTED:
            raise EconomyError("pot_not_started")
        seated = list(BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED))
        if not seated:
            raise EconomyError("pot_empty")
        if sorted(u for u, _place in normalized) != sorted(b.user_id for b in seated):
            raise EconomyError("invalid_results")
        total = sum(b.amount for b in seated)
        shares = _settle_payouts(total, normalized)
        wallets = {uid: wallet_for(UserRef(uid)) for uid in shares}
        locked = lock_accounts([locked_pot.account, *wallets.values()])
        if locked[locked_pot.account_id].balance != total:
            raise EconomyError("pot_balance_mismatch")
        posted = post_transfer(
            key=key,
            kind=Transfer.Kind.SETTLE,
            postings=[
                (locked_pot.account, -total),
                *((wallets[uid], amount) for uid, amount in shares.items()),
            ],
            pot=locked_pot,
            reference=locked_pot.reference,
        )
        checkpoint("settle_pot.after_transfer")
        BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED).update(status=BuyIn.Status.PLAYED)
        locked_pot.status = Pot.Status.SETTLED
        locked_pot.closed_at = timezone.now()
        locked_pot.results = [list(pair) for pair in normalized]
        locked_pot.save(update_fields=["status", "closed_at", "results"])
        return posted.transfer


def _normalized_results(results: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    try:
        pairs = [(u, p) for u, p in results]
    except (TypeError, ValueError) as exc:
        raise EconomyError("invalid_results") from exc
    for user_id, place in pairs:
        for value in (user_id, place):
            if isinstance(value, bool) or not isinstance(value, int):
                raise EconomyError("invalid_results")
    return pairs


def _settled_again(locked_pot: Pot, key: str, results: list[tuple[int, int]]) -> Transfer:
    """A repeated settlement: the first transfer when ``results`` are the stored ones, else refused."""
    first = Transfer.objects.get(key=key)
    if locked_pot.results is not None:
        if [tuple(pair) for pair in locked_pot.results] != results:
            raise EconomyError("pot_settled")
        return first
    # a pot settled before the results were stored: compare what the results would pay
    total = -next(e.amount for e in first.entries.all() if e.account_id == locked_pot.account_id)
    paid = {e.account.user_id: e.amount for e in first.entries.select_related("account") if e.amount > 0}
    if _settle_payouts(total, results) != paid:
        raise EconomyError("pot_settled")
    return first


def _settle_payouts(total: int, results: Sequence[tuple[int, int]]) -> dict[int, int]:
    try:
        users = [int(u) for u, _place in results]
        places = [place for _user, place in results]
        amounts = payouts.split_pot(total, places)
    except (TypeError, ValueError) as exc:
        raise EconomyError("invalid_results") from exc
    if len(set(users)) != len(users):
        raise EconomyError("invalid_results")
    return {u: a for u, a in zip(users, amounts, strict=True) if a > 0}


def _return_entry(
    pot: Pot,
    buyin: BuyIn,
    *,
    kind: str,
    prefix: str,
    locked: dict[int, Account] | None = None,
    actor: Any = None,
    reason: str = "",
) -> Posted:
    return post_transfer(
        key=f"{prefix}:{pot.pk}:{buyin.user_id}:{buyin.seq}",
        kind=kind,
        postings=[(pot.account, -buyin.amount), (wallet_for(UserRef(buyin.user_id)), buyin.amount)],
        user=UserRef(buyin.user_id),
        pot=pot,
        actor=actor,
        reference=pot.reference,
        reason=reason,
        locked=locked,
    )


def _closed_code(pot: Pot) -> str:
    return {Pot.Status.CANCELLED: "pot_cancelled", Pot.Status.SETTLED: "pot_settled"}.get(
        Pot.Status(pot.status), "pot_not_open"
    )
