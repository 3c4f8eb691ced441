"""Economy services: every write to coins, pots, XP and the shop (docs/economy.md).

Keyword-only, typed; each raises ``EconomyError(code, message)`` for bad input and then
changes nothing. Each runs in one transaction and names the locks it takes; the order is
always: one Pot row, then Account rows by ascending primary key (economy/ledger.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from . import payouts
from .errors import EconomyError
from .ledger import (
    HOUSE_ADJUSTMENT,
    HOUSE_BONUS,
    HOUSE_PRIZE,
    HOUSE_REWARD,
    HOUSE_SHOP,
    HOUSE_WELCOME,
    Posted,
    checkpoint,
    house_account,
    lock_accounts,
    lock_pot,
    post_transfer,
    pot_account_code,
    wallet_for,
)
from .models import Account, BuyIn, Pot, Purchase, Transfer, XpAward
from .selectors import league_date

GAME_MODES = ("bots", "friends", "online", "buyin")


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


# --- grants and bonuses -------------------------------------------------------------


def grant_welcome(*, user: Any) -> Transfer:
    """Give a new account its welcome coins (PF-57), once: key ``welcome:<user>``.

    Lock: the user's wallet and ``house:welcome`` (pk order). Idempotent.
    """
    with transaction.atomic():
        wallet = wallet_for(user)
        posted = post_transfer(
            key=f"welcome:{user.pk}",
            kind=Transfer.Kind.WELCOME,
            postings=[
                (house_account(HOUSE_WELCOME), -payouts.WELCOME_GRANT),
                (wallet, payouts.WELCOME_GRANT),
            ],
            user=user,
        )
    return posted.transfer


def claim_daily_bonus(*, user: Any, now: datetime | None = None) -> Transfer:
    """Pay the daily bonus once per calendar day of the league time zone: key ``bonus:<user>:<date>``.

    Lock: the user's wallet and ``house:bonus``. A second claim the same day raises
    ``bonus_already_claimed``.
    """
    day = league_date(now)
    with transaction.atomic():
        posted = post_transfer(
            key=f"bonus:{user.pk}:{day}",
            kind=Transfer.Kind.BONUS,
            postings=[
                (house_account(HOUSE_BONUS), -payouts.DAILY_BONUS),
                (wallet_for(user), payouts.DAILY_BONUS),
            ],
            user=user,
            reference=day,
        )
    if not posted.created:
        raise EconomyError("bonus_already_claimed")
    return posted.transfer


def pay_league_prize(*, user: Any, week: str, place: int) -> Transfer:
    """Pay a weekly league prize (PF-60: 1,000 / 500 / 250): key ``prize:<week>:<place>:<user>``.

    Lock: the user's wallet and ``house:prize``. Idempotent; never boosted (PF-59).
    """
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(payouts.LEAGUE_PRIZES):
        raise EconomyError("invalid_place")
    if not week:
        raise EconomyError("invalid_reference")
    amount = payouts.LEAGUE_PRIZES[place - 1]
    with transaction.atomic():
        posted = post_transfer(
            key=f"prize:{week}:{place}:{user.pk}",
            kind=Transfer.Kind.PRIZE,
            postings=[(house_account(HOUSE_PRIZE), -amount), (wallet_for(user), amount)],
            user=user,
            reference=week,
        )
    return posted.transfer


# --- buy-in pots ----------------------------------------------------------------------


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


def cancel_pot(*, pot: Pot | int) -> list[BuyIn]:
    """Cancel a pot and refund every seated entry exactly once (PF-18, PF-52).

    Lock: the Pot row, then the pot's account and every seated player's wallet (pk
    order). Keys ``refund:<pot>:<user>:<n>``. Safe to run twice, concurrently or after a
    crash: a cancelled pot returns ``[]``; a settled pot raises ``pot_settled``.
    Returns the entries refunded by this call.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.CANCELLED:
            return []
        if locked_pot.status == Pot.Status.SETTLED:
            raise EconomyError("pot_settled")
        seated = list(BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED).order_by("pk"))
        wallets = {w.user_id: w for w in (wallet_for(_Ref(b.user_id)) for b in seated)}
        locked = lock_accounts([locked_pot.account, *wallets.values()])
        for buyin in seated:
            posted = _return_entry(
                locked_pot, buyin, kind=Transfer.Kind.REFUND, prefix="refund", locked=locked
            )
            checkpoint("cancel_pot.after_refund")
            buyin.status = BuyIn.Status.REFUNDED
            buyin.return_transfer = posted.transfer
            buyin.save(update_fields=["status", "return_transfer"])
        locked_pot.status = Pot.Status.CANCELLED
        locked_pot.closed_at = timezone.now()
        locked_pot.save(update_fields=["status", "closed_at"])
        return seated


def settle_pot(*, pot: Pot | int, results: Sequence[tuple[int, int]]) -> Transfer:
    """Pay the whole pot to 1st place (PF-53): ``results`` is (user id, place) in seat order.

    The players must be exactly the seated entries. Tied winners split equally and the
    remainder goes one coin at a time in seat order; the pot ends at 0, no commission.
    Lock: the Pot row, then the pot's account and the winners' wallets (pk order).
    Key ``settle:<pot>``: settling again with the same results returns the first transfer;
    with other results raises ``pot_settled``; a cancelled pot raises ``pot_cancelled``.
    """
    with transaction.atomic():
        locked_pot = lock_pot(pot)
        if locked_pot.status == Pot.Status.CANCELLED:
            raise EconomyError("pot_cancelled")
        key = f"settle:{locked_pot.pk}"
        if locked_pot.status == Pot.Status.SETTLED:
            first = Transfer.objects.get(key=key)
            total = -next(e.amount for e in first.entries.all() if e.account_id == locked_pot.account_id)
            if _settle_payouts(total, results) != {
                e.account.user_id: e.amount for e in first.entries.select_related("account") if e.amount > 0
            }:
                raise EconomyError("pot_settled")
            return first
        seated = list(BuyIn.objects.filter(pot=locked_pot, status=BuyIn.Status.SEATED))
        if not seated:
            raise EconomyError("pot_empty")
        if sorted(u for u, _place in results) != sorted(b.user_id for b in seated):
            raise EconomyError("invalid_results")
        total = sum(b.amount for b in seated)
        shares = _settle_payouts(total, results)
        wallets = {uid: wallet_for(_Ref(uid)) for uid in shares}
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
        locked_pot.save(update_fields=["status", "closed_at"])
        return posted.transfer


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
    pot: Pot, buyin: BuyIn, *, kind: str, prefix: str, locked: dict[int, Account] | None = None
) -> Posted:
    return post_transfer(
        key=f"{prefix}:{pot.pk}:{buyin.user_id}:{buyin.seq}",
        kind=kind,
        postings=[(pot.account, -buyin.amount), (wallet_for(_Ref(buyin.user_id)), buyin.amount)],
        user=_Ref(buyin.user_id),
        pot=pot,
        reference=pot.reference,
        locked=locked,
    )


def _closed_code(pot: Pot) -> str:
    return {Pot.Status.CANCELLED: "pot_cancelled", Pot.Status.SETTLED: "pot_settled"}.get(
        Pot.Status(pot.status), "pot_not_open"
    )


@dataclass(frozen=True)
class _Ref:
    """A user known only by id (enough for wallets and foreign keys)."""

    pk: int

    @property
    def id(self) -> int:
        return self.pk


# --- game rewards ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game, in seat order: a registered user or not, and its place."""

    user_id: int | None
    place: int
    simulated: bool = False


@dataclass(frozen=True)
class Reward:
    user_id: int
    coins: int
    xp: int
    transfer: Transfer | None


def reward_game(
    *, reference: str, game: str, mode: str, seats: Sequence[SeatResult], now: datetime | None = None
) -> list[Reward]:
    """Pay the coins and XP of a finished game by mode (PF-57, PF-58), boosted by PF-59.

    ``bots`` pays nothing; ``friends`` B // 2 and 5 XP to each 1st place; ``online`` every
    place, decreasing, shared places averaged; ``buyin`` (a buy-in table, paid by its pot)
    earns the online XP and no coins. Simulated seats and guests (no user) earn nothing
    but keep their places. Boosters active at ``now`` multiply coins and XP.
    Lock: ``house:reward`` and every rewarded wallet, all at once in pk order; the keys
    ``reward:<reference>:<user>`` and ``xp:<reference>:<user>`` are read inside the locks,
    so a repeated or concurrent call returns the first rewards and pays nothing more.
    """
    if game not in payouts.BASE_RATES:
        raise EconomyError("unknown_game")
    if mode not in GAME_MODES:
        raise EconomyError("invalid_mode")
    if not isinstance(reference, str) or not reference or len(reference) > 100:
        raise EconomyError("invalid_reference")
    places = [s.place for s in seats]
    users = [s.user_id for s in seats if s.user_id is not None and not s.simulated]
    try:
        payouts.validate_places(places)
    except ValueError as exc:
        raise EconomyError("invalid_results") from exc
    if len(set(users)) != len(users):
        raise EconomyError("invalid_results")
    base_mode: payouts.Mode = "online" if mode == "buyin" else mode  # type: ignore[assignment]
    coins = payouts.game_coins(base_mode, payouts.BASE_RATES[game], places)
    if mode == "buyin":
        coins = [0] * len(seats)
    xp = payouts.game_xp(base_mode, places)
    at = _now(now)
    rewards: list[Reward] = []
    with transaction.atomic():
        wallets = _wallets_of(users)
        house = house_account(HOUSE_REWARD)
        locked = lock_accounts([house, *wallets.values()])
        coin_keys = {uid: f"reward:{reference}:{uid}" for uid in users}
        xp_keys = {uid: f"xp:{reference}:{uid}" for uid in users}
        paid = {
            t.key: t for t in Transfer.objects.filter(key__in=coin_keys.values()).prefetch_related("entries")
        }
        earned = dict(XpAward.objects.filter(key__in=xp_keys.values()).values_list("key", "amount"))
        items = _active_items_of(users, at)
        new_xp = []
        for seat, seat_coins, seat_xp in zip(seats, coins, xp, strict=True):
            uid = seat.user_id
            if uid is None or seat.simulated:
                continue
            if coin_keys[uid] in paid or xp_keys[uid] in earned:
                first = paid.get(coin_keys[uid])
                first_coins = next((e.amount for e in first.entries.all() if e.amount > 0), 0) if first else 0
                rewards.append(Reward(uid, first_coins, earned.get(xp_keys[uid], 0), first))
                continue
            seat_coins = payouts.boosted(seat_coins, items.get(uid, []))
            seat_xp = payouts.boosted(seat_xp, items.get(uid, []))
            transfer = None
            if seat_coins > 0:
                transfer = post_transfer(
                    key=coin_keys[uid],
                    kind=Transfer.Kind.REWARD,
                    postings=[(house, -seat_coins), (wallets[uid], seat_coins)],
                    user=_Ref(uid),
                    reference=reference,
                    locked=locked,
                ).transfer
            checkpoint("reward_game.after_coins")
            if seat_xp > 0:
                new_xp.append(XpAward(key=xp_keys[uid], user_id=uid, amount=seat_xp, reference=reference))
            rewards.append(Reward(uid, seat_coins, seat_xp, transfer))
        XpAward.objects.bulk_create(new_xp)
    return rewards


def _wallets_of(user_ids: Sequence[int]) -> dict[int, Account]:
    """The wallets of these users in one query, creating missing ones; unknown users are refused."""
    wallets = {a.user_id: a for a in Account.objects.filter(user_id__in=user_ids)}
    missing = [uid for uid in user_ids if uid not in wallets]
    if missing:
        if get_user_model().objects.filter(pk__in=missing).count() != len(missing):
            raise EconomyError("invalid_results")
        for uid in missing:
            wallets[uid] = wallet_for(_Ref(uid))
    return wallets


def _active_items_of(user_ids: Sequence[int], at: datetime) -> dict[int, list[str]]:
    items: dict[int, list[str]] = {}
    for uid, item in Purchase.objects.filter(
        user_id__in=user_ids, starts_at__lte=at, ends_at__gt=at
    ).values_list("user_id", "item"):
        items.setdefault(uid, []).append(item)
    return items


def active_items(*, user_id: int, at: datetime) -> list[str]:
    """The shop items whose window contains ``at`` for this user."""
    return sorted(
        set(
            Purchase.objects.filter(user_id=user_id, starts_at__lte=at, ends_at__gt=at).values_list(
                "item", flat=True
            )
        )
    )


# --- shop ---------------------------------------------------------------------------------


def purchase_item(
    *, user: Any, item: str, request_id: str | None = None, now: datetime | None = None
) -> Purchase:
    """Buy a shop item with coins (PF-59); its window starts now, or when the same item ends.

    Lock: the wallet and ``house:shop`` (pk order), before counting earlier purchases.
    Key ``purchase:<user>:req:<request id>`` when the client sends one (a retried request buys
    once), else ``purchase:<user>:<item>:<n>``. Raises ``unknown_item`` or ``insufficient_coins``.
    """
    if item not in payouts.ITEM_PRICES:
        raise EconomyError("unknown_item")
    price = payouts.ITEM_PRICES[item]
    at = _now(now)
    with transaction.atomic():
        wallet, shop = wallet_for(user), house_account(HOUSE_SHOP)
        locked = lock_accounts([wallet, shop])
        if request_id:
            key = f"purchase:{user.pk}:req:{str(request_id)[:100]}"
            done = Purchase.objects.filter(transfer__key=key).first()
            if done is not None:
                if done.item != item:
                    raise EconomyError("idempotency_conflict")
                return done
        else:
            n = Purchase.objects.filter(user_id=user.pk, item=item).count() + 1
            key = f"purchase:{user.pk}:{item}:{n}"
        posted = post_transfer(
            key=key,
            kind=Transfer.Kind.PURCHASE,
            postings=[(wallet, -price), (shop, price)],
            user=user,
            reference=item,
            locked=locked,
        )
        checkpoint("purchase_item.after_transfer")
        last_end = (
            Purchase.objects.filter(user_id=user.pk, item=item, ends_at__gt=at)
            .order_by("-ends_at")
            .values_list("ends_at", flat=True)
            .first()
        )
        starts = max(at, last_end) if last_end else at
        return Purchase.objects.create(
            user_id=user.pk,
            item=item,
            transfer=posted.transfer,
            starts_at=starts,
            ends_at=starts + timedelta(hours=payouts.ITEM_HOURS[item]),
        )


# --- administration ---------------------------------------------------------------------


def adjust_wallet(*, user: Any, amount: int, actor: Any, reason: str, request_id: str) -> Transfer:
    """Correct a wallet by a new transfer against ``house:adjustment``, recording who and why.

    Lock: the wallet and ``house:adjustment`` (pk order). ``amount`` may be negative but
    the wallet may not end below zero. Key ``adjustment:<request id>`` (one per form).
    """
    if not getattr(actor, "is_staff", False):
        raise EconomyError("not_staff")
    if not isinstance(reason, str) or not reason.strip():
        raise EconomyError("reason_required")
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int)
        or amount == 0
        or abs(amount) > payouts.MAX_AMOUNT
    ):
        raise EconomyError("invalid_amount")
    if not request_id:
        raise EconomyError("invalid_transfer")
    with transaction.atomic():
        posted = post_transfer(
            key=f"adjustment:{str(request_id)[:100]}",
            kind=Transfer.Kind.ADJUSTMENT,
            postings=[(house_account(HOUSE_ADJUSTMENT), -amount), (wallet_for(user), amount)],
            user=user,
            actor=actor,
            reason=reason.strip(),
        )
    return posted.transfer
