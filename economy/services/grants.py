"""Coins the house grants: the welcome gift, the daily bonus, league prizes (PF-57, PF-60)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .. import payouts
from ..errors import EconomyError
from ..ledger import (
    HOUSE_BONUS,
    HOUSE_PRIZE,
    HOUSE_WELCOME,
)
from ..models import Transfer
from ..selectors import league_date
from .boundary import a_time, a_user, checked, text
from .common import pay_from_house


@checked(user=a_user)
def grant_welcome(*, user: Any) -> Transfer:
    """Give a new account its welcome coins (PF-57), once: key ``welcome:<user>``.

    Lock: the user's wallet and ``house:welcome`` (pk order). Idempotent.
    """
    key = f"welcome:{user.pk}"
    posted = pay_from_house(HOUSE_WELCOME, user, payouts.WELCOME_GRANT, key=key, kind=Transfer.Kind.WELCOME)
    return posted.transfer


@checked(user=a_user, now=a_time)
def claim_daily_bonus(*, user: Any, now: datetime | None = None) -> Transfer:
    """Pay the daily bonus once per calendar day of the league time zone: key ``bonus:<user>:<date>``.

    Lock: the user's wallet and ``house:bonus``. A second claim the same day raises
    ``bonus_already_claimed``.
    """
    day = league_date(now)
    key = f"bonus:{user.pk}:{day}"
    posted = pay_from_house(
        HOUSE_BONUS, user, payouts.DAILY_BONUS, key=key, kind=Transfer.Kind.BONUS, reference=day
    )
    if not posted.created:
        raise EconomyError("bonus_already_claimed")
    return posted.transfer


@checked(user=a_user, week=text("invalid_reference", 32))
def pay_league_prize(*, user: Any, week: str, place: int) -> Transfer:
    """Pay a weekly league prize (PF-60: 1,000 / 500 / 250): key ``prize:<week>:<place>``.

    One payment per place of a week: a repeated call for the same user returns the first
    transfer and moves nothing; a call naming another user for a place already paid is
    refused (``prize_place_taken``), also when two calls race (the key is unique and is
    read again inside the locks). Lock: the user's wallet and ``house:prize``. Never
    boosted (PF-59).
    """
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(payouts.LEAGUE_PRIZES):
        raise EconomyError("invalid_place")
    if not week:
        raise EconomyError("invalid_reference")
    amount = payouts.LEAGUE_PRIZES[place - 1]
    key = f"prize:{week}:{place}"
    paid_to = Transfer.objects.filter(key=key).values_list("user_id", flat=True).first()
    if paid_to is not None and paid_to != user.pk:
        raise EconomyError("prize_place_taken")
    try:
        posted = pay_from_house(HOUSE_PRIZE, user, amount, key=key, kind=Transfer.Kind.PRIZE, reference=week)
    except EconomyError as exc:
        if exc.code == "idempotency_conflict":  # a twin paid this place to someone else meanwhile
            raise EconomyError("prize_place_taken") from exc
        raise
    return posted.transfer
