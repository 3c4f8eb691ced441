"""Economy services: grants, bonus, buy-in pots, rewards by mode, shop, prizes, adjustments."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from economy import selectors, services
from economy.audit import audit_ledger
from economy.errors import EconomyError
from economy.models import BuyIn, Pot, Purchase, Transfer
from economy.services import SeatResult

pytestmark = pytest.mark.django_db
MADRID = ZoneInfo("Europe/Madrid")


def balance(user) -> int:
    return selectors.wallet_balance(user=user)


@pytest.fixture(autouse=True)
def _audit_after_each_test():
    yield
    result = audit_ledger()
    assert result.ok, result.problems


# --- daily bonus ---------------------------------------------------------------------------


def test_pf57_daily_bonus_once_per_league_day(make_user) -> None:
    user = make_user()
    evening = datetime(2026, 3, 2, 23, 30, tzinfo=MADRID)
    services.claim_daily_bonus(user=user, now=evening)
    assert balance(user) == 1100
    with pytest.raises(EconomyError) as err:
        services.claim_daily_bonus(user=user, now=evening + timedelta(minutes=20))  # 23:50, same day
    assert err.value.code == "bonus_already_claimed"
    # 00:10 in Madrid is still the previous day in UTC, but a new league day
    services.claim_daily_bonus(user=user, now=evening + timedelta(minutes=40))
    assert balance(user) == 1200
    assert selectors.bonus_claimed_today(user=user, now=evening + timedelta(minutes=40))


# --- buy-in pots ---------------------------------------------------------------------------


def test_pf17_buy_in_moves_stake_from_wallet_to_pot_and_settle_pays_winner(make_user) -> None:
    a, b, c = make_user(), make_user(), make_user()
    pot = services.open_pot(reference="table:7", stake=500)
    for user in (a, b, c):
        services.buy_in(user=user, pot=pot)
    assert [balance(u) for u in (a, b, c)] == [500, 500, 500]
    pot.account.refresh_from_db()
    assert pot.account.balance == 1500
    services.start_pot(pot=pot)
    services.settle_pot(pot=pot, results=[(a.pk, 2), (b.pk, 1), (c.pk, 3)])
    assert [balance(u) for u in (a, b, c)] == [500, 2000, 500]
    pot.refresh_from_db()
    pot.account.refresh_from_db()
    assert pot.status == Pot.Status.SETTLED and pot.account.balance == 0
    audit = selectors.pot_audit(pot=pot)
    assert audit.reconciles and audit.paid_in == audit.paid_out == 1500


def test_pf53_tied_winners_split_with_remainder_in_seat_order(make_user) -> None:
    users = [make_user() for _ in range(3)]
    pot = services.open_pot(reference="table:ties", stake=100)
    for user in users:
        services.buy_in(user=user, pot=pot)
    # a fourth player stood up, so the pot is 300 and two winners share it: 150 each
    services.start_pot(pot=pot)
    services.settle_pot(pot=pot, results=[(users[0].pk, 3), (users[1].pk, 1), (users[2].pk, 1)])
    assert [balance(u) for u in users] == [900, 1050, 1050]


def test_pf53_remainder_goes_one_coin_at_a_time_in_seat_order(make_user) -> None:
    users = [make_user() for _ in range(4)]
    pot = services.open_pot(reference="table:rem", stake=250)
    for user in users:
        services.buy_in(user=user, pot=pot)
    services.start_pot(pot=pot)
    services.settle_pot(
        pot=pot, results=[(users[3].pk, 1), (users[0].pk, 1), (users[1].pk, 1), (users[2].pk, 4)]
    )
    # 1000 / 3 = 333 r 1: the first winner in seat order (users[3]) gets 334
    assert [balance(u) for u in users] == [750 + 333, 750 + 333, 750, 750 + 334]


def test_pf57_standing_up_before_start_returns_entry_and_may_sit_again(make_user) -> None:
    user = make_user()
    pot = services.open_pot(reference="table:sit", stake=250)
    services.buy_in(user=user, pot=pot)
    services.stand_up(user=user, pot=pot)
    assert balance(user) == 1000
    services.buy_in(user=user, pot=pot)
    assert balance(user) == 750
    assert list(BuyIn.objects.filter(pot=pot).values_list("seq", "status")) == [
        (1, "stood_up"),
        (2, "seated"),
    ]
    services.start_pot(pot=pot)
    with pytest.raises(EconomyError) as err:
        services.stand_up(user=user, pot=pot)
    assert err.value.code == "pot_not_open"
    assert balance(user) == 750


def test_buy_in_many_seats_a_table_at_once_with_buy_ins_keys_and_checks(make_user) -> None:
    # given four players, one of them already seated and one who cannot pay
    users = [make_user() for _ in range(4)]
    admin = make_user(is_staff=True)
    services.adjust_wallet(user=users[3], amount=-950, actor=admin, reason="test: poor", request_id="p")
    pot = services.open_pot(reference="table:many", stake=250)
    first = services.buy_in(user=users[0], pot=pot)
    # when they all sit at once (one of them listed twice)
    results = services.buy_in_many(users=[*users, users[1]], pot=pot)
    # then the two who can pay are seated, with buy_in's keys; the others are told why
    assert results[users[0].pk].code == "already_seated"
    assert results[users[3].pk].code == "insufficient_coins"
    for user in users[1:3]:
        buyin = results[user.pk]
        assert isinstance(buyin, BuyIn) and buyin.pk and buyin.seq == 1 and buyin.amount == 250
        assert buyin.transfer.key == f"buyin:{pot.pk}:{user.pk}:1"
    assert [balance(u) for u in users] == [750, 750, 750, 50]
    assert BuyIn.objects.filter(pot=pot, status="seated").count() == 3 and first.seq == 1
    pot.account.refresh_from_db()
    assert pot.account.balance == 750
    # and a closed pot refuses everyone, moving nothing
    services.start_pot(pot=pot)
    late = services.buy_in_many(users=[users[3]], pot=pot)
    assert late[users[3].pk].code == "pot_not_open"


def test_pf18_cancel_refunds_every_entry_once_and_is_idempotent(make_user) -> None:
    users = [make_user() for _ in range(3)]
    pot = services.open_pot(reference="table:cancel", stake=1000)
    for user in users[:2]:
        services.buy_in(user=user, pot=pot)
    assert len(services.cancel_pot(pot=pot)) == 2
    assert services.cancel_pot(pot=pot) == []
    assert [balance(u) for u in users] == [1000, 1000, 1000]
    assert Transfer.objects.filter(kind="refund", pot=pot).count() == 2
    assert selectors.pot_audit(pot=pot).reconciles


def test_abort_refunds_a_started_pot_once_with_the_admin_and_the_reason(make_user) -> None:
    users = [make_user() for _ in range(2)]
    admin = make_user(is_staff=True)
    pot = services.open_pot(reference="table:abort", stake=500)
    for user in users:
        services.buy_in(user=user, pot=pot)
    services.start_pot(pot=pot)
    with pytest.raises(EconomyError) as err:
        services.cancel_pot(pot=pot)  # the fill deadline never ends a game in progress
    assert err.value.code == "pot_started"
    assert len(services.abort_pot(pot=pot, actor=admin, reason="server crash at the table")) == 2
    assert services.abort_pot(pot=pot, actor=admin, reason="again") == []
    assert [balance(u) for u in users] == [1000, 1000]
    refunds = Transfer.objects.filter(kind="refund", pot=pot)
    assert {(t.actor_id, t.reason) for t in refunds} == {(admin.pk, "server crash at the table")}
    with pytest.raises(EconomyError) as err:
        services.settle_pot(pot=pot, results=[(users[0].pk, 1), (users[1].pk, 2)])
    assert err.value.code == "pot_cancelled"


def test_a_game_is_rewarded_once_a_repeat_must_repeat_the_input(make_user) -> None:
    a, b, c = make_user(), make_user(), make_user()
    seats = [SeatResult(a.pk, 1), SeatResult(b.pk, 2)]
    first = services.reward_game(reference="g:once-only", game="pika", mode="online", seats=seats)
    again = services.reward_game(reference="g:once-only", game="pika", mode="online", seats=list(seats))
    assert [(r.user_id, r.coins, r.xp) for r in again] == [(r.user_id, r.coins, r.xp) for r in first]
    for other in (
        [SeatResult(a.pk, 2), SeatResult(b.pk, 1)],  # other places
        [*seats, SeatResult(c.pk, 3)],  # an extra seat
        [SeatResult(a.pk, 1), SeatResult(b.pk, 2, simulated=True)],
    ):
        with pytest.raises(EconomyError) as err:
            services.reward_game(reference="g:once-only", game="pika", mode="online", seats=other)
        assert err.value.code == "idempotency_conflict"
    assert (balance(a), balance(b), balance(c)) == (1050, 1025, 1000)


def test_settle_twice_with_same_results_is_one_effect(make_user) -> None:
    a, b = make_user(), make_user()
    pot = services.open_pot(reference="table:twice", stake=100)
    services.buy_in(user=a, pot=pot)
    services.buy_in(user=b, pot=pot)
    services.start_pot(pot=pot)
    first = services.settle_pot(pot=pot, results=[(a.pk, 1), (b.pk, 2)])
    for _ in range(5):
        assert services.settle_pot(pot=pot, results=[(a.pk, 1), (b.pk, 2)]).pk == first.pk
    assert (balance(a), balance(b)) == (1100, 900)
    with pytest.raises(EconomyError) as err:
        services.settle_pot(pot=pot, results=[(a.pk, 2), (b.pk, 1)])
    assert err.value.code == "pot_settled"


def test_open_pot_is_idempotent_per_reference(make_user) -> None:
    assert (
        services.open_pot(reference="t:1", stake=100).pk == services.open_pot(reference="t:1", stake=100).pk
    )
    with pytest.raises(EconomyError) as err:
        services.open_pot(reference="t:1", stake=250)
    assert err.value.code == "pot_reference_taken"


# --- rewards by mode -----------------------------------------------------------------------


def test_pf57_online_pays_every_place_decreasing_with_xp(make_user) -> None:
    users = [make_user() for _ in range(4)]
    seats = [SeatResult(u.pk, place) for u, place in zip(users, [3, 1, 4, 2], strict=True)]
    rewards = services.reward_game(reference="game:1", game="guandan", mode="online", seats=seats)
    assert [r.coins for r in rewards] == [50, 100, 25, 75]
    assert [r.xp for r in rewards] == [20, 40, 10, 30]
    assert [balance(u) for u in users] == [1050, 1100, 1025, 1075]
    assert selectors.user_xp(user=users[1]) == 40


def test_pf57_rewards_are_paid_once_per_game(make_user) -> None:
    user = make_user()
    for _ in range(3):
        services.reward_game(
            reference="game:once",
            game="pika",
            mode="online",
            seats=[SeatResult(user.pk, 1), SeatResult(None, 2)],
        )
    assert balance(user) == 1050
    assert selectors.user_xp(user=user) == 20


def test_pf57_friends_pays_half_to_winners_only(make_user) -> None:
    a, b, c, d = (make_user() for _ in range(4))
    seats = [SeatResult(a.pk, 1), SeatResult(b.pk, 3), SeatResult(c.pk, 1), SeatResult(d.pk, 3)]
    services.reward_game(reference="g:friends", game="guandan", mode="friends", seats=seats)
    assert [balance(u) for u in (a, b, c, d)] == [1050, 1000, 1050, 1000]
    assert selectors.user_xp(user=a) == 5 and selectors.user_xp(user=b) == 0


def test_pf13_a_friends_game_pays_only_when_two_people_played_it(make_user) -> None:
    """Issue 26 (3): one person and bots in a friends room is practice — no coins, no XP, and so
    nothing for a booster to multiply; a seat whose person did not play earns nothing either."""
    ana, bea, eva = make_user(), make_user(), make_user()
    services.grant_welcome(user=ana)
    services.purchase_item(user=ana, item="gold_booster")
    before = balance(ana)

    def bot(place: int) -> SeatResult:
        return SeatResult(None, place, played=False)

    def friends(reference: str, *seats: SeatResult) -> None:
        services.reward_game(reference=reference, game="one_card", mode="friends", seats=list(seats))

    friends("g:alone", SeatResult(ana.pk, 1), bot(2), bot(3))
    assert balance(ana) == before and selectors.user_xp(user=ana) == 0
    # Bea sat, then the stand-in played her seat: still one person
    friends("g:alt", SeatResult(ana.pk, 1), SeatResult(bea.pk, 2, played=False), bot(3))
    assert balance(ana) == before and selectors.user_xp(user=ana) == 0
    # two people played: the winner is paid, boosted ×2 (PF-59)
    friends("g:two", SeatResult(ana.pk, 1), SeatResult(bea.pk, 2), bot(3))
    assert balance(ana) == before + 50 and selectors.user_xp(user=ana) == 10
    # a 1st place the stand-in won for an absent Eva earns her nothing
    friends("g:absent", SeatResult(eva.pk, 1, played=False), SeatResult(bea.pk, 2), SeatResult(None, 3))
    assert selectors.user_xp(user=eva) == 0
    # a guest (no account) who played is a person too
    friends("g:guest", SeatResult(bea.pk, 1), SeatResult(None, 2), bot(3))
    assert selectors.user_xp(user=bea) == 5


def test_pf13_bots_mode_pays_nothing(make_user) -> None:
    user = make_user()
    rewards = services.reward_game(
        reference="g:bots", game="one_card", mode="bots", seats=[SeatResult(user.pk, 1), SeatResult(None, 2)]
    )
    assert rewards[0].coins == rewards[0].xp == 0
    assert balance(user) == 1000 and selectors.user_xp(user=user) == 0


def test_pf57_simulated_seats_earn_nothing_but_keep_their_places(make_user) -> None:
    user = make_user()
    seats = [SeatResult(None, 1, simulated=True), SeatResult(user.pk, 2), SeatResult(None, 3, simulated=True)]
    rewards = services.reward_game(reference="g:sim", game="puteo", mode="online", seats=seats)
    assert [(r.user_id, r.coins, r.xp) for r in rewards] == [(user.pk, 53, 20)]  # 80 * 2 // 3


def test_buyin_tables_earn_xp_but_no_coin_rewards(make_user) -> None:
    user = make_user()
    other = make_user()
    services.reward_game(
        reference="g:buyin",
        game="pika",
        mode="buyin",
        seats=[SeatResult(user.pk, 1), SeatResult(other.pk, 2)],
    )
    assert balance(user) == 1000 and selectors.user_xp(user=user) == 20


def test_pf59_boosters_multiply_rewards_and_only_rewards(make_user) -> None:
    user, other = make_user(), make_user()
    services.adjust_wallet(
        user=user, amount=2300, actor=make_user(is_staff=True), reason="test funds", request_id="t1"
    )  # 3300
    services.purchase_item(user=user, item="gold_booster")  # 3000
    services.purchase_item(user=user, item="vip_pass")  # 1000
    assert balance(user) == 1000
    assert selectors.has_vip(user=user) and not selectors.has_vip(user=other)
    rewards = services.reward_game(
        reference="g:boost",
        game="one_card",
        mode="online",
        seats=[SeatResult(user.pk, 2), SeatResult(other.pk, 1), SeatResult(None, 3), SeatResult(None, 4)],
    )
    assert [(r.coins, r.xp) for r in rewards] == [(37 * 3, 30 * 3), (50, 40)]
    # the pot is not multiplied, nor the bonus
    pot = services.open_pot(reference="table:boost", stake=100)
    services.buy_in(user=user, pot=pot)
    services.buy_in(user=other, pot=pot)
    services.start_pot(pot=pot)
    before = balance(user)
    services.settle_pot(pot=pot, results=[(user.pk, 1), (other.pk, 2)])
    assert balance(user) - before == 200
    before = balance(user)
    services.claim_daily_bonus(user=user)
    assert balance(user) - before == 100


def test_pf59_booster_windows_queue_and_expire(make_user) -> None:
    user = make_user()
    now = timezone.now()
    first = services.purchase_item(user=user, item="gold_booster", now=now)
    second = services.purchase_item(user=user, item="gold_booster", now=now + timedelta(hours=1))
    assert first.ends_at - first.starts_at == timedelta(hours=24)
    assert second.starts_at == first.ends_at  # the second one queues behind the first
    assert services.active_items(user_id=user.pk, at=now + timedelta(hours=30)) == ["gold_booster"]
    assert services.active_items(user_id=user.pk, at=now + timedelta(hours=49)) == []
    assert balance(user) == 400


def test_purchase_with_request_id_is_idempotent(make_user) -> None:
    user = make_user()
    one = services.purchase_item(user=user, item="gold_booster", request_id="abc")
    two = services.purchase_item(user=user, item="gold_booster", request_id="abc")
    assert one.pk == two.pk and balance(user) == 700
    assert Purchase.objects.count() == 1


def test_league_prizes_are_paid_once(make_user) -> None:
    user = make_user()
    for _ in range(2):
        services.pay_league_prize(user=user, week="2026-W10", place=1)
    assert balance(user) == 2000


def test_adjustment_records_admin_and_reason(make_user) -> None:
    user, admin = make_user(), make_user(is_staff=True)
    transfer = services.adjust_wallet(
        user=user, amount=-300, actor=admin, reason="Duplicado", request_id="r-1"
    )
    assert (transfer.actor_id, transfer.reason, transfer.kind) == (admin.pk, "Duplicado", "adjustment")
    assert balance(user) == 700
    entry = selectors.wallet_history(user=user).first()
    assert "Duplicado" in selectors.entry_description(entry)


def test_long_pot_references_never_share_an_account(make_user) -> None:
    first = services.open_pot(reference="table:" + "x" * 80 + ":1", stake=100)
    second = services.open_pot(reference="table:" + "x" * 80 + ":2", stake=100)
    assert first.account_id != second.account_id
    assert len(first.account.code) <= 64
