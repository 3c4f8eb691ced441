"""Issue 13 item 16: the services' boundary — ids from the wire, wrong types and strings the
database refuses raise ``EconomyError`` with a stable code, and nothing changes.

Each case once raised something else (``DoesNotExist``, ``IntegrityError`` at COMMIT,
``DataError``, ``TypeError``, ``MultipleObjectsReturned``) or, for ``pot=True``, bought into pot 1.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from economy import services
from economy.errors import MESSAGES, EconomyError
from economy.services import SeatResult
from economy.services.common import UserRef
from tests.economy.test_bad_input import snapshot
from tests.economy.test_bad_input import world as world  # the fixture

pytestmark = pytest.mark.django_db
NOBODY = 10**9
NUL = "a\x00b"
LONG = "x" * 150


def unsaved() -> Any:
    return get_user_model()(username="ghost")


def unsaved_staff() -> Any:
    return get_user_model()(username="ghost-admin", is_staff=True)


Case = tuple[str, str, Callable[[dict[str, Any]], Any]]
POT_SERVICES: list[tuple[str, Callable[[dict[str, Any], Any], Any]]] = [
    ("buy_in", lambda w, pot: services.buy_in(user=w["poor"], pot=pot)),
    ("stand_up", lambda w, pot: services.stand_up(user=w["rich"], pot=pot)),
    ("start_pot", lambda w, pot: services.start_pot(pot=pot)),
    ("cancel_pot", lambda w, pot: services.cancel_pot(pot=pot)),
    ("abort_pot", lambda w, pot: services.abort_pot(pot=pot, actor=w["admin"], reason="stuck")),
    ("settle_pot", lambda w, pot: services.settle_pot(pot=pot, results=[(w["rich"].pk, 1)])),
    ("buy_in_many", lambda w, pot: services.buy_in_many(users=[w["poor"]], pot=pot)),
]
POT_VALUES: list[tuple[str, str, Any]] = [
    ("nonexistent-id", "unknown_pot", NOBODY),
    ("bool", "invalid_pot", True),
    ("string", "invalid_pot", "3"),
    ("none", "invalid_pot", None),
    ("zero", "invalid_pot", 0),
]
USER_SERVICES: list[tuple[str, Callable[[dict[str, Any], Any], Any]]] = [
    ("claim_daily_bonus", lambda w, user: services.claim_daily_bonus(user=user)),
    ("grant_welcome", lambda w, user: services.grant_welcome(user=user)),
    ("pay_league_prize", lambda w, user: services.pay_league_prize(user=user, week="2026-W49", place=1)),
    (
        "adjust_wallet",
        lambda w, user: services.adjust_wallet(
            user=user, amount=5, actor=w["admin"], reason="x", request_id="u"
        ),
    ),
    ("buy_in", lambda w, user: services.buy_in(user=user, pot=w["open"])),
    ("stand_up", lambda w, user: services.stand_up(user=user, pot=w["open"])),
    ("purchase_item", lambda w, user: services.purchase_item(user=user, item="gold_booster")),
    ("buy_in_many", lambda w, user: services.buy_in_many(users=[user], pot=w["open"])),
]
USER_VALUES: list[tuple[str, str, Callable[[], Any]]] = [
    ("nonexistent", "unknown_user", lambda: UserRef(NOBODY)),
    ("unsaved", "unknown_user", unsaved),
    ("none", "invalid_user", lambda: None),
    ("an-id", "invalid_user", lambda: 1),
    ("a-string", "invalid_user", lambda: "1"),
    ("bool-pk", "invalid_user", lambda: UserRef(True)),  # type: ignore[arg-type]
]
CASES: list[Case] = [
    *(
        (f"{name}-pot-{label}", code, lambda w, call=call, value=value: call(w, value))
        for name, call in POT_SERVICES
        for label, code, value in POT_VALUES
    ),
    *(
        (f"{name}-user-{label}", code, lambda w, call=call, make=make: call(w, make()))
        for name, call in USER_SERVICES
        for label, code, make in USER_VALUES
    ),
    (
        "prize-week-too-long",
        "invalid_reference",
        lambda w: services.pay_league_prize(user=w["rich"], week=LONG, place=1),
    ),
    (
        "prize-week-nul",
        "invalid_reference",
        lambda w: services.pay_league_prize(user=w["rich"], week=NUL, place=1),
    ),
    (
        "prize-week-none",
        "invalid_reference",
        lambda w: services.pay_league_prize(user=w["rich"], week=None, place=1),
    ),
    ("pot-reference-nul", "invalid_reference", lambda w: services.open_pot(reference=NUL, stake=100)),
    ("pot-reference-list", "invalid_reference", lambda w: services.open_pot(reference=["t"], stake=100)),
    (
        "adjust-reason-nul",
        "reason_required",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=5, actor=w["admin"], reason=NUL, request_id="n"
        ),
    ),
    (
        "adjust-request-id-nul",
        "invalid_transfer",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=5, actor=w["admin"], reason="x", request_id=NUL
        ),
    ),
    (
        "adjust-staff-unsaved",
        "not_staff",
        lambda w: services.adjust_wallet(
            user=w["rich"], amount=5, actor=unsaved_staff(), reason="x", request_id="s2"
        ),
    ),
    (
        "abort-staff-unsaved",
        "not_staff",
        lambda w: services.abort_pot(pot=w["started"], actor=unsaved_staff(), reason="stuck"),
    ),
    (
        "abort-reason-nul",
        "reason_required",
        lambda w: services.abort_pot(pot=w["started"], actor=w["admin"], reason=NUL),
    ),
    (
        "purchase-request-id-nul",
        "invalid_text",
        lambda w: services.purchase_item(user=w["rich"], item="gold_booster", request_id=NUL),
    ),
    (
        "purchase-request-id-long",
        "invalid_text",
        lambda w: services.purchase_item(user=w["rich"], item="gold_booster", request_id=LONG),
    ),
    (
        "purchase-item-list",
        "unknown_item",
        lambda w: services.purchase_item(user=w["rich"], item=["vip_pass"]),
    ),
    (
        "purchase-now-string",
        "invalid_time",
        lambda w: services.purchase_item(user=w["rich"], item="gold_booster", now="2026-01-01"),
    ),
    (
        "bonus-now-string",
        "invalid_time",
        lambda w: services.claim_daily_bonus(user=w["poor"], now="2026-01-01"),
    ),
    (
        "bonus-now-naive",
        "invalid_time",
        lambda w: services.claim_daily_bonus(user=w["poor"], now=datetime(2026, 1, 1)),
    ),
    ("settle-results-none", "invalid_results", lambda w: services.settle_pot(pot=w["started"], results=None)),
    (
        "settle-results-dict",
        "invalid_results",
        lambda w: services.settle_pot(pot=w["started"], results={1: 1}),
    ),
    ("reward-seats-none", "invalid_results", lambda w: reward(w, seats=None)),
    ("reward-seats-dicts", "invalid_results", lambda w: reward(w, seats=[{"user_id": None, "place": 1}])),
    ("reward-reference-nul", "invalid_reference", lambda w: reward(w, reference=NUL)),
    ("reward-reference-long", "invalid_reference", lambda w: reward(w, reference=LONG)),
    ("reward-game-list", "unknown_game", lambda w: reward(w, game=["pika"])),
    ("reward-now-string", "invalid_time", lambda w: reward(w, now="2026-01-01")),
    (
        "reward-user-twice-as-int-and-str",
        "invalid_results",
        lambda w: reward(w, seats=[SeatResult(w["poor"].pk, 1), SeatResult(str(w["poor"].pk), 2)]),
    ),
    ("reward-user-bool", "invalid_results", lambda w: reward(w, seats=[SeatResult(True, 1)])),
]


def reward(w: dict[str, Any], **changes: Any) -> Any:
    call = {"reference": "game:new", "game": "pika", "mode": "online", "seats": [SeatResult(w["poor"].pk, 1)]}
    return services.reward_game(**{**call, **changes})


@pytest.mark.parametrize(("name", "code", "call"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_at_the_boundary_raises_economy_error_and_changes_nothing(
    world: dict[str, Any], name: str, code: str, call: Callable[[dict[str, Any]], Any]
) -> None:
    before = snapshot()
    with pytest.raises(EconomyError) as caught:
        call(world)
    assert caught.value.code == code
    assert code in MESSAGES
    assert snapshot() == before


def test_a_nonexistent_user_inside_a_callers_transaction_fails_at_the_call_not_at_commit(world) -> None:
    before = snapshot()
    with transaction.atomic():
        with pytest.raises(EconomyError, match="unknown_user"):
            services.grant_welcome(user=UserRef(NOBODY))
        with pytest.raises(EconomyError, match="unknown_user"):
            services.pay_league_prize(user=UserRef(NOBODY), week="2026-W49", place=2)
    assert snapshot() == before


def test_pot_true_is_not_pot_one(world) -> None:
    first = world["open"]
    before = snapshot()
    with pytest.raises(EconomyError, match="invalid_pot"):
        services.buy_in(user=world["other"], pot=True)
    assert snapshot() == before and first.buyins.filter(user=world["other"]).count() == 0


def test_good_input_still_passes_the_boundary(world) -> None:
    assert services.buy_in(user=world["other"], pot=world["open"].pk).pot_id == world["open"].pk
    assert (
        services.purchase_item(user=world["rich"], item="gold_booster", request_id=None).item
        == "gold_booster"
    )
    assert services.pay_league_prize(user=UserRef(world["rich"].pk), week="2026-W49", place=3).pk
