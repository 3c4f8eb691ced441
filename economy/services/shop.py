"""The shop (PF-59): items bought with coins."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from .. import payouts
from ..errors import EconomyError
from ..ledger import (
    HOUSE_SHOP,
    checkpoint,
    house_account,
    lock_accounts,
    post_transfer,
    wallet_for,
)
from ..models import Purchase, Transfer
from .boundary import a_time, a_user, checked, text
from .common import current_time


@checked(
    user=a_user,
    item=text("unknown_item", 16),
    request_id=text("invalid_text", 100, optional=True),
    now=a_time,
)
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
    at = current_time(now)
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
