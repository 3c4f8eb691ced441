"""Online and buy-in tables fed by the queue (cardgames/matchmaking/online.py and seating.py):
simulated players after 30 s (PF-16, PF-51, PF-58), buy-ins taken at the seat and given back
before the start (PF-17, PF-57), cancelled with every entry refunded once after 120 s (PF-18,
PF-52), the pot settled at the end (PF-53), nobody leaving a started buy-in table with their
entry (PF-63)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.sites import site
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.identity import Player
from cardgames.matchmaking import online, selectors, services
from cardgames.matchmaking.models import QueueEntry
from cardgames.matchmaking.seating import place_at_table
from cardgames.matchmaking.tasks import table_deadline
from cardgames.tables import services as table_services
from cardgames.tables import settlement
from cardgames.tables.errors import TableError
from cardgames.tables.models import GameResult, Seat, Table
from cardgames.tables.selectors import table_view_for
from economy import selectors as economy_selectors
from economy.audit import audit_ledger
from economy.models import BuyIn, Pot, Transfer
from economy.services import adjust_wallet
from economy.services.common import UserRef
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db


def coins(player: Player) -> int:
    return economy_selectors.wallet_balance(user=UserRef(player.user_id))


def queue_and_wave(
    people: list[Player], clock, game: str = "pika", players: int = 4, stake: int = 0
) -> Table:
    for person in people:
        services.join_queue(player=person, game=game, players=players, stake=stake, now=clock.now)
    services.run_wave(now=clock.now)
    return Table.objects.filter(seats__user_id=people[-1].user_id).get()


@pytest.fixture(autouse=True)
def _ledger_balances():
    yield
    audit = audit_ledger()
    assert audit.ok, audit.problems


# -- free online: simulated players (PF-16, PF-51) -------------------------------------------------------
def test_pf51_a_free_table_not_full_after_30_s_is_completed_by_simulated_players(
    make_player, clock, events
) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    table = queue_and_wave([ana, bea], clock)
    # 29 s after the first player sat nothing happens; the sweeper's wake-up is the deadline
    assert table_services.wake_table(table_id=table.pk, now=clock.tick(29.9))
    table.refresh_from_db()
    assert (table.status, table.wake_at) == ("waiting", table.deadline_at)
    assert online.expire_table(table_id=table.pk, now=clock.now) == "waiting"
    # at 30 s the sweeper (services.wake_table) fills the two empty seats and the game starts
    table_services.wake_table(table_id=table.pk, now=clock.tick(0.1))
    table.refresh_from_db()
    seats = list(table.seats.order_by("index"))
    assert table.status == "playing" and table.simulated
    assert [s.kind for s in seats] == ["human", "human", "simulated", "simulated"]
    simulated = seats[2:]
    assert all(s.bot_level == "normal" and s.user_id is None and s.is_bot for s in simulated)
    assert len({s.name for s in seats}) == 4 and all(s.name[-2:].isdigit() for s in simulated)
    # disclosed: the envelope says "simulated" for those seats (the table page shows the badge)
    envelope = table_view_for(table=table, viewer=ana)
    assert [s["kind"] for s in envelope["seats"]] == ["human", "human", "simulated", "simulated"]
    assert events.of(ana, "table_started") and events.of(bea, "table_started")
    # a second deadline run (the countdown task after the sweeper) changes nothing
    assert table_deadline.run(table.pk) == "started"
    assert Seat.objects.filter(table=table).count() == 4


def test_pf58_simulated_players_earn_nothing_and_the_league_sees_the_table_as_simulated(
    make_player, clock
) -> None:
    ana = make_player("ana")
    table = queue_and_wave([ana], clock, "one_card", 2)
    table_services.wake_table(table_id=table.pk, now=clock.tick(30))
    table.refresh_from_db()
    played = play_out(table, {0: ana}, clock)
    result = settlement.finish_table(table_id=played.pk)
    assert result is not None and result.simulated and result.mode == "online"
    rows = {row["kind"]: row for row in result.seats}
    assert rows["simulated"]["user_id"] is None
    paid = Transfer.objects.filter(kind="reward", reference=f"table:{table.pk}")
    assert [t.user_id for t in paid] == [ana.user_id]  # the simulated seat earned nothing
    assert GameResult.objects.get(table=table).simulated


def test_a_free_table_everyone_left_closes_at_the_deadline(make_player, clock) -> None:
    ana = make_player()
    table = queue_and_wave([ana], clock)
    services.leave_queue(player=ana, now=clock.tick(3))
    table.refresh_from_db()
    assert table.status == "closed" and table.code is None
    assert QueueEntry.objects.get().status == "left"


# -- buy-in tables (PF-17, PF-18, PF-52, PF-53, PF-63) -------------------------------------------------
def test_pf17_the_entry_is_taken_when_the_player_sits_and_standing_up_returns_it(
    make_player, clock, events
) -> None:
    ana, bea = make_player("ana"), make_player("bea")
    table = queue_and_wave([ana, bea], clock, stake=250)
    assert (table.mode, table.status) == ("buyin", "waiting")
    assert table.pot.stake == 250 and table.pot.reference == f"table:{table.pk}"
    assert (coins(ana), coins(bea)) == (750, 750)
    assert table.deadline_at == clock.now + timedelta(seconds=120)  # PF-52
    assert events.last(bea)["then"] == "cancel" and events.last(bea)["seconds"] == 120
    # standing up before the start gives the entry back at once (PF-57)
    assert services.leave_queue(player=bea, now=clock.tick(5))["state"] == "idle"
    assert coins(bea) == 1000
    assert BuyIn.objects.get(user_id=bea.user_id).status == "stood_up"
    assert table.seats.count() == 1 and events.last(ana)["seated"] == 1
    # the tables API's leave does the same for the other (the queue entry and the coins come back)
    table_services.leave_room(table_id=table.pk, player=ana, now=clock.tick(1))
    assert coins(ana) == 1000
    table.refresh_from_db()
    assert table.status == "closed" and table.pot.status == "cancelled"
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"left"}


def test_pf18_only_people_sit_at_buy_in_tables_never_simulated_players(make_player, clock) -> None:
    ana = make_player()
    table = queue_and_wave([ana], clock, stake=100)
    table_services.wake_table(table_id=table.pk, now=clock.tick(31))  # past the free tables' 30 s
    table.refresh_from_db()
    assert table.status == "waiting" and not table.seats.filter(kind="simulated").exists()


def test_pf52_a_buy_in_table_not_full_after_120_s_is_cancelled_and_every_entry_refunded_once(
    make_player, clock, events
) -> None:
    people = [make_player() for _ in range(3)]
    table = queue_and_wave(people, clock, stake=500)
    assert [coins(p) for p in people] == [500, 500, 500]
    assert online.expire_table(table_id=table.pk, now=clock.tick(119)) == "waiting"
    # the deadline task, the sweeper and a redelivered task all run: one refund each
    assert online.expire_table(table_id=table.pk, now=clock.tick(1)) == "cancelled"
    assert table_services.wake_table(table_id=table.pk, now=clock.now)
    assert online.expire_table(table_id=table.pk, now=clock.tick(1)) == "closed"
    assert table_deadline.run(table.pk) == "closed"
    assert [coins(p) for p in people] == [1000, 1000, 1000]
    assert Transfer.objects.filter(kind="refund", pot=table.pot).count() == 3
    table.refresh_from_db()
    assert (table.status, table.code, table.pot.status) == ("closed", None, "cancelled")
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"cancelled"}
    for person in people:
        assert events.last(person) == {
            "type": "queue",
            "state": "cancelled",
            "code": "table_cancelled",
            "table": table.pk,
            "refunded": 500,
        }
        assert selectors.queue_status(player=person)["state"] == "idle"


def test_pf53_a_full_buy_in_table_starts_keeps_its_entries_and_pays_the_pot_to_first_place(
    make_player, clock
) -> None:
    people = [make_player() for _ in range(2)]
    table = queue_and_wave(people, clock, "one_card", 2, stake=1000)
    assert table.status == "playing" and table.pot.status == "started"
    assert [coins(p) for p in people] == [0, 0]
    # PF-63: nobody leaves a started buy-in table with their entry
    with pytest.raises(Exception) as err:
        services.leave_queue(player=people[0], now=clock.now)
    assert err.value.code == "already_playing"
    with pytest.raises(TableError) as err:
        table_services.leave_room(table_id=table.pk, player=people[1], now=clock.now)
    assert err.value.code == "not_waiting"
    # a deadline task run late (or redelivered) leaves the game alone (the pot is started)
    assert online.expire_table(table_id=table.pk, now=clock.tick(500)) == "started"
    assert table.pot.buyins.filter(status="seated").count() == 2
    finished = play_out(table, dict(enumerate(people)), clock)
    settlement.finish_table(table_id=finished.pk)
    pot = Pot.objects.get(pk=table.pot_id)
    assert pot.status == "settled" and pot.results is not None
    winners = [p for p, place in zip(people, finished.result["placements"], strict=True) if place == 1]
    assert sum(coins(p) for p in people) == 2000  # the whole pot, no commission, no rewards on top
    assert all(coins(w) == 2000 // len(winners) for w in winners)
    assert not Transfer.objects.filter(kind="reward", reference=f"table:{table.pk}").exists()


def test_pf52_a_late_person_who_completes_the_table_wins_the_race_with_the_deadline(
    make_player, clock
) -> None:
    people = [make_player() for _ in range(3)]
    table = queue_and_wave(people[:2], clock, "pika", 3, stake=100)
    late = services.join_queue(player=people[2], game="pika", players=3, stake=100, now=clock.now)
    # when the last seat is taken 1 s after the deadline, before the deadline task ran
    seating = place_at_table(table_id=table.pk, entry_ids=[late.pk], now=clock.tick(121))
    assert seating.started
    # then the game starts and the deadline finds nothing to cancel
    assert online.expire_table(table_id=table.pk, now=clock.now) == "started"
    assert Pot.objects.get(pk=table.pot_id).status == "started"
    assert [coins(p) for p in people] == [900, 900, 900]


def test_pf52_a_late_person_who_would_not_complete_the_table_is_refused_and_stays_queued(
    make_player, clock, events
) -> None:
    people = [make_player() for _ in range(3)]
    table = queue_and_wave(people[:1], clock, "pika", 3, stake=100)
    late = services.join_queue(player=people[1], game="pika", players=3, stake=100, now=clock.now)
    seating = place_at_table(table_id=table.pk, entry_ids=[late.pk], now=clock.tick(120))
    assert seating.refused == {late.pk: "table_closing"} and not seating.seated
    assert coins(people[1]) == 1000
    # after the cancellation the table is closed to everyone: a clear answer, no coins taken
    assert online.expire_table(table_id=table.pk, now=clock.now) == "cancelled"
    with pytest.raises(TableError) as err:
        place_at_table(table_id=table.pk, entry_ids=[late.pk], now=clock.now)
    assert err.value.code == "table_closed"
    late.refresh_from_db()
    assert late.status == "waiting"
    # and the next wave seats the late entry at a new table (the expired one is never offered)
    services.run_wave(now=clock.now)
    late.refresh_from_db()
    assert late.status == "seated" and late.table_id != table.pk
    assert coins(people[1]) == 900 and coins(people[0]) == 1000


def test_a_player_who_spent_the_coins_after_queueing_is_told_and_the_others_sit(
    make_player, clock, events
) -> None:
    rich, spent = make_player(), make_player()
    services.join_queue(player=rich, game="skyjo", players=2, stake=250, now=clock.now)
    entry = services.join_queue(player=spent, game="skyjo", players=2, stake=250, now=clock.now)
    admin = get_user_model().objects.create_user(username="boss", password=None, is_staff=True)
    adjust_wallet(
        user=UserRef(spent.user_id), amount=-900, actor=admin, reason="test: spent", request_id="spent"
    )
    wave = services.run_wave(now=clock.now)
    assert wave.refused == {"insufficient_coins": 1} and wave.seated == 1
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == ("failed", "insufficient_coins")
    failed = events.last(spent)
    assert failed["state"] == "failed" and failed["code"] == "insufficient_coins" and failed["detail"]
    assert coins(spent) == 100 and coins(rich) == 750


# -- the admin's abort ---------------------------------------------------------------------------------------
def test_only_an_admin_aborts_a_started_buy_in_game_and_every_entry_comes_back_once(
    make_player, clock, events
) -> None:
    people = [make_player() for _ in range(2)]
    table = queue_and_wave(people, clock, "one_card", 2, stake=100)
    with pytest.raises(TableError) as err:
        online.abort_table(
            table_id=table.pk, actor=get_user_model().objects.get(pk=people[0].user_id), reason="x"
        )
    assert err.value.code == "not_staff"
    admin = get_user_model().objects.create_user(username="boss", password="mesa-verde-2026", is_staff=True)
    with pytest.raises(TableError) as err:
        online.abort_table(table_id=table.pk, actor=admin, reason=" ")
    assert err.value.code == "reason_required"
    # the idle sweep never ends a started buy-in game (PF-63): only the admin does
    assert table_services.close_idle_rooms(now=clock.tick(5 * 3600)) == 0
    assert online.abort_table(table_id=table.pk, actor=admin, reason="server bug at the table") == 2
    table.refresh_from_db()
    assert table.status == "closed" and table.pot.status == "cancelled"
    assert [coins(p) for p in people] == [1000, 1000]
    refunds = Transfer.objects.filter(kind="refund", pot=table.pot)
    assert {(t.actor_id, t.reason) for t in refunds} == {(admin.pk, "server bug at the table")}
    assert events.last(people[0])["code"] == "table_aborted"
    with pytest.raises(TableError) as err:
        online.abort_table(table_id=table.pk, actor=admin, reason="again")
    assert err.value.code == "not_playing"


def test_the_table_admin_aborts_a_buy_in_game_with_a_reason(make_player, clock) -> None:
    people = [make_player() for _ in range(2)]
    table = queue_and_wave(people, clock, "one_card", 2, stake=250)
    admin = get_user_model().objects.create_superuser(username="boss", password="mesa-verde-2026")
    client = Client()
    client.force_login(admin)
    url = reverse("admin:tables_abort", args=[table.pk])
    page = client.get(url)
    assert page.status_code == 200 and "reason" in page.content.decode()
    assert client.post(url, {"reason": ""}).status_code == 200  # asks again
    assert Table.objects.get(pk=table.pk).status == "playing"
    response = client.post(url, {"reason": "stuck"})
    assert response.status_code == 302
    assert Table.objects.get(pk=table.pk).status == "closed"
    assert [coins(p) for p in people] == [1000, 1000]
    assert Table in site._registry and QueueEntry in site._registry
