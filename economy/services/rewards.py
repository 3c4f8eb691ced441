"""Coins and XP for finished games by mode (PF-57, PF-58), boosted by shop items (PF-59)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from .. import payouts
from ..errors import EconomyError
from ..ledger import (
    HOUSE_REWARD,
    checkpoint,
    house_account,
    lock_accounts,
    post_transfer,
    wallet_for,
)
from ..models import Account, GameReward, Purchase, Transfer, XpAward
from .boundary import a_time, checked, seat_results, text
from .common import UserRef, current_time

GAME_MODES = ("bots", "friends", "online", "buyin")


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game, in seat order: a registered user or not, and its place.

    ``played``: a person (user or guest) who played this game themselves — False for a bot, and
    for a person whose seat the timeouts and the stand-in bot played more than they did. Only a
    friends game reads it (``payouts.rewarded_seats``: two people must have played)."""

    user_id: int | None
    place: int
    simulated: bool = False
    played: bool = True


@dataclass(frozen=True)
class Reward:
    user_id: int
    coins: int
    xp: int
    transfer: Transfer | None


@checked(
    reference=text("invalid_reference", 100),
    game=text("unknown_game", 16),
    mode=text("invalid_mode", 10),
    seats=seat_results,
    now=a_time,
)
def reward_game(
    *, reference: str, game: str, mode: str, seats: Sequence[SeatResult], now: datetime | None = None
) -> list[Reward]:
    """Pay the coins and XP of a finished game by mode (PF-57, PF-58), boosted by PF-59.

    ``bots`` pays nothing; ``friends`` B // 2 and 5 XP to each 1st place that ``played``, and
    nothing at all unless two seats' people played (issue 26, PF-13); ``online`` every
    place, decreasing, shared places averaged; ``buyin`` (a buy-in table, paid by its pot)
    earns the online XP and no coins. Simulated seats and guests (no user) earn nothing
    but keep their places. Boosters active at ``now`` multiply coins and XP.
    A game is rewarded once: the call's input (game, mode, every seat's user, place and
    simulated flag, in seat order) is stored under ``reference`` (``GameReward``); calling
    again with the same input returns the first rewards and pays nothing more, with any
    other input (other places, an extra seat …) raises ``idempotency_conflict``. A buy-in
    table seats only paying people (PF-18): a simulated or user-less seat is ``humans_only``.
    Lock: ``house:reward`` and every rewarded wallet, all at once in pk order; the record
    and the keys ``reward:<reference>:<user>`` and ``xp:<reference>:<user>`` are read
    inside the locks, so a concurrent twin waits and then sees the first call's record.
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
    if mode == "buyin" and any(s.simulated or s.user_id is None for s in seats):
        raise EconomyError("humans_only")  # PF-18: every seat of a buy-in table is a paying person
    fingerprint = [[s.user_id, s.place, bool(s.simulated), bool(s.played)] for s in seats]
    base_mode: payouts.Mode = "online" if mode == "buyin" else mode  # type: ignore[assignment]
    coins = payouts.game_coins(base_mode, payouts.BASE_RATES[game], places)
    if mode == "buyin":
        coins = [0] * len(seats)
    xp = payouts.game_xp(base_mode, places)
    # before boosters, so nothing a booster multiplies reaches a seat the rule leaves out
    reached = payouts.rewarded_seats(base_mode, [s.played for s in seats])
    coins = [c if ok else 0 for c, ok in zip(coins, reached, strict=True)]
    xp = [x if ok else 0 for x, ok in zip(xp, reached, strict=True)]
    at = current_time(now)
    rewards: list[Reward] = []
    with transaction.atomic():
        wallets = _wallets_of(users)
        house = house_account(HOUSE_REWARD)
        locked = lock_accounts([house, *wallets.values()])
        # a game is rewarded once: the input is recorded under the house lock (every reward
        # takes it), and a second call must repeat it exactly
        recorded = GameReward.objects.filter(reference=reference).first()
        first_input = None if recorded is None else (recorded.game, recorded.mode, recorded.seats)
        if first_input is not None and first_input != (game, mode, fingerprint):
            raise EconomyError("idempotency_conflict")
        if recorded is None:
            GameReward.objects.create(reference=reference, game=game, mode=mode, seats=fingerprint)
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
                    user=UserRef(uid),
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
            wallets[uid] = wallet_for(UserRef(uid))
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
