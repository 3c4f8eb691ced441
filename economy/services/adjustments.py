"""Staff corrections of a wallet, each a recorded transfer against the house."""

from __future__ import annotations

from typing import Any

from .. import payouts
from ..errors import EconomyError
from ..ledger import (
    HOUSE_ADJUSTMENT,
)
from ..models import Transfer
from .boundary import a_staff_user, a_user, checked, text
from .common import pay_from_house


@checked(
    user=a_user,
    actor=a_staff_user,
    reason=text("reason_required", 500),
    request_id=text("invalid_transfer", 100),
)
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
    posted = pay_from_house(
        HOUSE_ADJUSTMENT,
        user,
        amount,
        key=f"adjustment:{str(request_id)[:100]}",
        kind=Transfer.Kind.ADJUSTMENT,
        actor=actor,
        reason=reason.strip(),
    )
    return posted.transfer
