"""What the economy services share: the clock they read and a user known by id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..ledger import Posted, house_account, post_transfer, wallet_for


def current_time(now: datetime | None) -> datetime:
    """``now`` when a caller (a test, a replay) gives it, else the current time."""
    return now if now is not None else timezone.now()


@dataclass(frozen=True)
class UserRef:
    """A user known only by id (enough for wallets and foreign keys)."""

    pk: int

    @property
    def id(self) -> int:
        return self.pk


def pay_from_house(house: str, user: Any, amount: int, *, key: str, kind: str, **details: Any) -> Posted:
    """One transfer of ``amount`` from a house account to the user's wallet, in its own transaction.

    Lock: the wallet and the house account (pk order, ``post_transfer``). ``amount`` may be
    negative (a staff correction takes coins back); ``details`` go to the transfer record.
    """
    with transaction.atomic():
        return post_transfer(
            key=key,
            kind=kind,
            postings=[(house_account(house), -amount), (wallet_for(user), amount)],
            user=user,
            **details,
        )
