"""Bad input changes nothing and says why (a stable code and a readable message)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from economy import services
from economy.audit import audit_ledger
from economy.errors import EconomyError
from economy.models import Account, BuyIn, GameReward, Pot, Purchase, Transfer, XpAward
from economy.services import SeatResult

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[Any, ...]:
    return (
        sorted(Account.objects.values_list("code", "balance")),
        Transfer.objects.count(),
        sorted(Pot.objects.values_list("reference", "status", "results")),
        sorted(BuyIn.objects.values_list("id", "status")),
        Purchase.objects.count(),
        XpAward.objects.count(),
        sorted(GameReward.objects.values_list("reference", "seats")),
    )


@pytest.fixture
def world(make_user) -> dict[str, Any]:
    rich, poor, admin, other = make_user(), make_user(), make_user(is_staff=True), make_user()
    services.adjust_wallet(user=poor, amount=-950, actor=admin, reason="test: poor", request_id="poor")
    open_pot = services.open_pot(reference="table:open", stake=100)
    services.buy_in(user=rich, pot=open_pot)
    cancelled = services.open_pot(reference="table:cancelled", stake=100)
    services.buy_in(user=rich, pot=cancelled)
    services.cancel_pot(pot=cancelled)
    settled = services.open_pot(reference="table:settled", stake=100)
    services.buy_in(user=rich, pot=settled)
    services.buy_in(user=other, pot=settled)
    services.start_pot(pot=settled)
    services.settle_pot(pot=settled, results=[(rich.pk, 1), (other.pk, 2)])
    started = services.open_pot(reference="table:started", stake=100)
    services.buy_in(user=rich, pot=started)
    services.start_pot(pot=started)
    services.reward_game(
        reference="game:done", game="pika", mode="online", seats=[SeatResult(rich.pk, 1), SeatResult(None, 2)]
    )
    services.claim_daily_bonus(user=rich)
    empty = services.open_pot(reference="table:empty", stake=250)
    return {
        "rich": rich,
        "poor": poor,
        "admin": admin,
        "open": open_pot,
        "cancelled": cancelled,
        "settled": settled,
        "started": started,
        "other": other,
        "empty": empty,
    }


CASES: list[tuple[str, str, Callable[[dict[str, Any]], Any]]] = [
    ("stake-not-on-list", "invalid_stake", lambda w: services.open_pot(reference="t:x", stake=300)),
    ("stake-zero", "invalid_stake", lambda w: services.open_pot(reference="t:x", stake=0)),
    ("stake-negative", "invalid_stake", lambda w: services.open_pot(reference="t:x", stake=-100)),
    ("stake-huge", "invalid_stake", lambda w: services.open_pot(reference="t:x", stake=10**18)),
    ("stake-string", "invalid_stake", lambda w: services.open_pot(reference="t:x", stake="100")),
    ("empty-reference", "invalid_reference", lambda w: services.open_pot(reference="", stake=100)),
    ("buy-in-twice", "already_seated", lambda w: services.buy_in(user=w["rich"], pot=w["open"])),
    ("sit-too-few-coins", "insufficient_coins", lambda w: services.buy_in(user=w["poor"], pot=w["open"])),
    ("sit-cancelled", "pot_cancelled", lambda w: services.buy_in(user=w["poor"], pot=w["cancelled"])),
    ("sit-settled", "pot_settled", lambda w: services.buy_in(user=w["rich"], pot=w["settled"])),
    ("stand-not-seated", "not_seated", lambda w: services.stand_up(user=w["poor"], pot=w["open"])),
    ("bonus-twice", "bonus_already_claimed", lambda w: services.claim_daily_bonus(user=w["rich"])),
    (
        "buy-without-funds",
        "insufficient_coins",
        lambda w: services.purchase_item(user=w["poor"], item="vip_pass"),
    ),
    ("buy-unknown-item", "unknown_item", lambda w: services.purchase_item(user=w["rich"], item="castle")),
    (
        "settle-cancelled",
        "pot_cancelled",
        lambda w: services.settle_pot(pot=w["cancelled"], results=[(w["rich"].pk, 1)]),
    ),
    ("cancel-settled", "pot_settled", lambda w: services.cancel_pot(pot=w["settled"])),
    (
        "settle-stranger",
        "invalid_results",
        lambda w: services.settle_pot(pot=w["started"], results=[(w["poor"].pk, 1)]),
    ),
    (
        "settle-no-first-place",
        "invalid_results",
        lambda w: services.settle_pot(pot=w["started"], results=[(w["rich"].pk, 2)]),
    ),
    (
        "settle-not-a-number",
        "invalid_results",
        lambda w: services.settle_pot(pot=w["started"], results=[(str(w["rich"].pk), 1)]),
    ),
    ("settle-empty-pot", "pot_not_started", lambda w: services.settle_pot(pot=w["empty"], results=[])),
    (
        "settle-never-started",
        "pot_not_started",
        lambda w: services.settle_pot(pot=w["open"], results=[(w["rich"].pk, 1)]),
    ),
    (
        "settle-again-other-results-same-winner",
        "pot_settled",
        lambda w: services.settle_pot(pot=w["settled"], results=[(w["rich"].pk, 1), (w["other"].pk, 1)]),
    ),
    (
        "settle-again-other-order-same-winner",
        "pot_settled",
        lambda w: services.settle_pot(pot=w["settled"], results=[(w["other"].pk, 2), (w["rich"].pk, 1)]),
    ),
    ("cancel-started", "pot_started", lambda w: services.cancel_pot(pot=w["started"])),
    (
        "abort-not-staff",
        "not_staff",
        lambda w: services.abort_pot(pot=w["started"], actor=w["poor"], reason="stuck"),
    ),
    (
        "abort-no-reason",
        "reason_required",
        lambda w: services.abort_pot(pot=w["started"], actor=w["admin"], reason="  "),
    ),
    (
        "abort-settled",
        "pot_settled",
        lambda w: services.abort_pot(pot=w["settled"], actor=w["admin"], reason="late"),
    ),
    ("start-empty-pot", "pot_empty", lambda w: services.start_pot(pot=w["empty"])),
    (
        "adjust-zero",
        "invalid_amount",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=0, actor=w["admin"], reason="x", request_id="z"
        ),
    ),
    (
        "adjust-huge",
        "invalid_amount",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=10**15, actor=w["admin"], reason="x", request_id="h"
        ),
    ),
    (
        "adjust-below-zero",
        "insufficient_coins",
        lambda w: services.adjust_wallet(
            user=w["poor"], amount=-51, actor=w["admin"], reason="x", request_id="n"
        ),
    ),
    (
        "adjust-no-reason",
        "reason_required",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=5, actor=w["admin"], reason=" ", request_id="r"
        ),
    ),
    (
        "adjust-not-staff",
        "not_staff",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=5, actor=w["poor"], reason="x", request_id="s"
        ),
    ),
    (
        "prize-bad-place",
        "invalid_place",
        lambda w: services.pay_league_prize(user=w["rich"], week="W1", place=4),
    ),
    (
        "reward-bad-mode",
        "invalid_mode",
        lambda w: services.reward_game(
            reference="g", game="pika", mode="casino", seats=[SeatResult(None, 1)]
        ),
    ),
    (
        "reward-bad-game",
        "unknown_game",
        lambda w: services.reward_game(
            reference="g", game="poker", mode="online", seats=[SeatResult(None, 1)]
        ),
    ),
    (
        "reward-bad-places",
        "invalid_results",
        lambda w: services.reward_game(
            reference="g",
            game="pika",
            mode="online",
            seats=[SeatResult(w["rich"].pk, 1), SeatResult(None, 3)],
        ),
    ),
    (
        "reward-again-other-places",
        "idempotency_conflict",
        lambda w: services.reward_game(
            reference="game:done",
            game="pika",
            mode="online",
            seats=[SeatResult(w["rich"].pk, 2), SeatResult(None, 1)],
        ),
    ),
    (
        "reward-again-extra-seat",
        "idempotency_conflict",
        lambda w: services.reward_game(
            reference="game:done",
            game="pika",
            mode="online",
            seats=[SeatResult(w["rich"].pk, 1), SeatResult(None, 2), SeatResult(w["other"].pk, 3)],
        ),
    ),
    (
        "reward-again-other-mode",
        "idempotency_conflict",
        lambda w: services.reward_game(
            reference="game:done",
            game="pika",
            mode="friends",
            seats=[SeatResult(w["rich"].pk, 1), SeatResult(None, 2)],
        ),
    ),
    (
        "reward-buyin-simulated-seat",
        "humans_only",
        lambda w: services.reward_game(
            reference="game:buyin",
            game="pika",
            mode="buyin",
            seats=[SeatResult(w["rich"].pk, 1), SeatResult(None, 2, simulated=True)],
        ),
    ),
    (
        "reward-buyin-guest-seat",
        "humans_only",
        lambda w: services.reward_game(
            reference="game:buyin",
            game="pika",
            mode="buyin",
            seats=[SeatResult(w["rich"].pk, 1), SeatResult(None, 2)],
        ),
    ),
    (
        "reward-unknown-user",
        "invalid_results",
        lambda w: services.reward_game(
            reference="g", game="pika", mode="online", seats=[SeatResult(10**9, 1)]
        ),
    ),
]


@pytest.mark.parametrize(("code", "call"), [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_changes_nothing_and_says_why(world, code, call) -> None:
    before = snapshot()
    with pytest.raises(EconomyError) as err:
        call(world)
    assert err.value.code == code
    assert err.value.message and err.value.message != code  # a readable message
    assert snapshot() == before
    assert audit_ledger().ok
