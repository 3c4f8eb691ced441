"""The matchmaking queue and its waves (issue 11): who may queue, one live entry per user,
leaving at once, waves that seat people FCFS at full tables first, lobby events."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from accounts.identity import Player
from cardgames.matchmaking import online, selectors, services
from cardgames.matchmaking.errors import QueueError
from cardgames.matchmaking.models import QueueEntry
from cardgames.matchmaking.seating import place_at_table, place_new_table
from cardgames.tables import settlement
from cardgames.tables.errors import TableError
from cardgames.tables.models import Seat, Table
from economy import selectors as economy_selectors
from economy.services import adjust_wallet
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db


def join(player: Player, clock, game: str = "one_card", players: int = 4, stake: int = 0) -> QueueEntry:
    return services.join_queue(player=player, game=game, players=players, stake=stake, now=clock.now)


def coins(player: Player) -> int:
    from economy.services.common import UserRef

    return economy_selectors.wallet_balance(user=UserRef(player.user_id))


# -- joining ------------------------------------------------------------------------------------------
def test_guests_cannot_queue(clock) -> None:
    guest = Player(kind="guest", id="g1", name="Invitada")
    for who in (guest, None):
        with pytest.raises(QueueError) as err:
            services.join_queue(player=who, game="pika", players=4, now=clock.now)
        assert err.value.code == "login_required"
    assert not QueueEntry.objects.exists()


@pytest.mark.parametrize(
    ("game", "players", "stake", "code"),
    [
        ("chess", 4, 0, "unknown_game"),
        ("guandan", 3, 0, "bad_players"),  # Guandan is 4 (PF-43)
        ("one_card", 5, 0, "bad_players"),
        ("puteo", 13, 0, "bad_players"),
        ("pika", True, 0, "bad_players"),
        ("pika", 4, 300, "bad_stake"),  # PF-17: 100, 250, 500 or 1000
        ("pika", 4, "100", "bad_stake"),
    ],
)
def test_a_queue_is_a_game_a_player_count_within_its_limits_and_a_stake(
    make_player, clock, game, players, stake, code
) -> None:
    with pytest.raises(QueueError) as err:
        join(make_player(), clock, game, players, stake)
    assert err.value.code == code and err.value.message != code


def test_puteo_queues_up_to_twelve_and_plays_big_above_eight() -> None:
    assert online.options_for("puteo", 12) == {"lives": 5, "mode": "big"}
    assert online.options_for("puteo", 4) == {"lives": 5, "mode": "classic"}


def test_a_buy_in_the_wallet_cannot_pay_is_refused_at_once(make_player, clock) -> None:
    poor = make_player()
    with pytest.raises(QueueError) as err:
        join(poor, clock, stake=1000 + 100)
    assert err.value.code == "bad_stake"
    adjust_wallet(user=_user(poor), amount=-950, actor=_admin(make_player), reason="test", request_id="poor")
    with pytest.raises(QueueError) as err:
        join(poor, clock, stake=100)
    assert err.value.code == "insufficient_coins"
    join(poor, clock, stake=0)  # free online is fine


def test_a_player_is_in_one_queue_at_a_time_and_leaving_is_instant(make_player, clock, events) -> None:
    ana = make_player("ana")
    entry = join(ana, clock, "pika", 3)
    assert events.last(ana) == {
        "type": "queue",
        "state": "queued",
        "game": "pika",
        "players": 3,
        "stake": 0,
        "position": 1,
        "waiting": 1,
        "joined_at": int(clock.now.timestamp() * 1000),
    }
    for game in ("pika", "skyjo"):
        with pytest.raises(QueueError) as err:
            join(ana, clock, game, 3)
        assert err.value.code == "already_queued"
    assert services.leave_queue(player=ana, now=clock.now) == {"type": "queue", "state": "idle", "left": True}
    entry.refresh_from_db()
    assert entry.status == QueueEntry.Status.LEFT
    assert services.leave_queue(player=ana, now=clock.now) == {"type": "queue", "state": "idle"}
    join(ana, clock, "skyjo", 3)  # and may queue again


def test_the_database_allows_one_live_entry_per_user(make_player, clock) -> None:
    ana = make_player()
    join(ana, clock)
    with pytest.raises(IntegrityError), transaction.atomic():
        QueueEntry.objects.create(user_id=ana.user_id, game="pika", players=2, joined_at=clock.now)
    with pytest.raises(IntegrityError), transaction.atomic():
        QueueEntry.objects.create(
            user_id=ana.user_id, game="pika", players=2, status="seated", joined_at=clock.now
        )
    QueueEntry.objects.create(user_id=ana.user_id, game="pika", players=2, status="left", joined_at=clock.now)


def test_queue_position_is_fcfs_within_the_same_game_players_and_stake(make_player, clock) -> None:
    players = [make_player() for _ in range(4)]
    join(players[0], clock, "pika", 4)
    join(players[1], clock, "pika", 4, 100)
    join(players[2], clock, "pika", 4)
    entry = join(players[3], clock, "pika", 4)
    status = selectors.queue_status(player=players[3])
    assert (status["state"], status["position"], status["waiting"]) == ("queued", 3, 3)
    assert services.queued_event(entry)["position"] == 3


# -- waves ----------------------------------------------------------------------------------------------
def test_a_wave_seats_four_queued_players_at_a_full_table_that_starts_at_once(
    make_player, clock, events
) -> None:
    people = [make_player() for _ in range(4)]
    for person in people:
        join(person, clock, "one_card", 4)
    wave = services.run_wave(now=clock.now)
    assert (wave.tables, wave.started, wave.seated) == (1, 1, 4)
    table = Table.objects.get()
    assert (table.mode, table.status, table.host_key, table.simulated) == ("online", "playing", "", False)
    assert table.options["turn_seconds"] == 30
    assert [s.user_id for s in table.seats.order_by("index")] == [p.user_id for p in people]
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"seated"}
    for person in people:
        started = events.of(person, "table_started")
        assert started == [
            {
                "type": "table_started",
                "table": table.pk,
                "code": table.code,
                "game": "one_card",
                "mode": "online",
                "url": f"/mesa/{table.code}/",
            }
        ]
        assert selectors.queue_status(player=person)["state"] == "playing"


def test_a_wave_prefers_full_tables_and_seats_leftovers_at_one_partial_table(
    make_player, clock, events
) -> None:
    people = [make_player() for _ in range(6)]
    for person in people:
        join(person, clock, "pika", 4)
    services.run_wave(now=clock.now)
    full, partial = Table.objects.order_by("pk")
    assert full.status == "playing" and full.seats.count() == 4
    assert partial.status == "waiting" and partial.seats.count() == 2
    # the first four in the queue play now; the last two wait with a 30 s clock (PF-51)
    assert {s.user_id for s in full.seats.all()} == {p.user_id for p in people[:4]}
    assert partial.deadline_at == partial.wake_at == clock.now + timedelta(seconds=online.FILL_SECONDS)
    status = selectors.queue_status(player=people[5], now=clock.tick(10))
    assert status == {
        "type": "queue",
        "state": "seated",
        "game": "pika",
        "players": 4,
        "stake": 0,
        "table": partial.pk,
        "code": partial.code,
        "seated": 2,
        "then": "simulated",
        "deadline": int(partial.deadline_at.timestamp() * 1000),
        "seconds": 20,
        "server_time": int(clock.now.timestamp() * 1000),
    }
    assert events.last(people[4])["state"] == "seated"
    # when two more people queue, the next wave fills the waiting table first, and it starts
    late = [make_player() for _ in range(3)]
    for person in late:
        join(person, clock, "pika", 4)
    services.run_wave(now=clock.tick(5))
    partial.refresh_from_db()
    assert partial.status == "playing" and not partial.simulated
    assert {s.user_id for s in partial.seats.all()} == {p.user_id for p in people[4:] + late[:2]}
    # and the last one opens the next table
    assert Table.objects.filter(status="waiting").get().seats.get().user_id == late[2].user_id


def test_a_wave_run_twice_places_everyone_once(make_player, clock) -> None:
    for _ in range(5):
        join(make_player(), clock, "skyjo", 2)
    first = services.run_wave(now=clock.now)
    second = services.run_wave(now=clock.now)
    assert (first.seated, second.seated, second.tables) == (5, 0, 0)
    assert Seat.objects.count() == 5
    assert QueueEntry.objects.filter(status="waiting").count() == 0


def test_sharded_waves_split_the_buckets_and_together_seat_everyone(make_player, clock) -> None:
    from cardgames.matchmaking.pairing import shard_of

    buckets = [("one_card", 2, 0), ("pika", 2, 0), ("skyjo", 2, 0), ("puteo", 2, 0), ("guandan", 4, 0)]
    for game, players, _stake in buckets:
        for _ in range(players):
            join(make_player(), clock, game, players)
    shards = {shard_of(b, 2) for b in buckets}
    assert shards == {0, 1}  # these buckets fall in both shards
    first = services.run_wave(now=clock.now, shard=0, shards=2)
    assert first.tables == sum(1 for b in buckets if shard_of(b, 2) == 0)
    assert {t.game for t in Table.objects.all()} == {b[0] for b in buckets if shard_of(b, 2) == 0}
    second = services.run_wave(now=clock.now, shard=1, shards=2)
    assert first.tables + second.tables == len(buckets)
    assert Table.objects.filter(status="playing").count() == len(buckets)
    assert not QueueEntry.objects.filter(status="waiting").exists()


def test_an_entry_that_left_after_the_plan_is_not_seated(make_player, clock) -> None:
    ana, bea = make_player(), make_player()
    a, b = join(ana, clock, "pika", 2), join(bea, clock, "pika", 2)
    services.leave_queue(player=bea, now=clock.now)  # between the wave's read and its placement
    seating = place_new_table(game="pika", players=2, stake=0, entry_ids=[a.pk, b.pk], now=clock.now)
    assert seating.seated == [a.pk] and not seating.started
    assert Table.objects.get().seats.get().user_id == ana.user_id


def test_a_player_at_a_running_online_table_cannot_queue_until_it_is_over(make_player, clock) -> None:
    people = [make_player() for _ in range(2)]
    for person in people:
        join(person, clock, "one_card", 2)
    services.run_wave(now=clock.now)
    with pytest.raises(QueueError) as err:
        join(people[0], clock, "pika", 2)
    assert err.value.code == "already_playing"
    with pytest.raises(QueueError) as err:
        services.leave_queue(player=people[0], now=clock.now)  # PF-63: a started table keeps its seat
    assert err.value.code == "already_playing"
    table = Table.objects.get()
    play_out(table, dict(enumerate(people)), clock)
    settlement.finish_table(table_id=table.pk)
    assert selectors.queue_status(player=people[0]) == {"type": "queue", "state": "idle"}
    join(people[0], clock, "pika", 2)  # the finished table's entry is released
    assert QueueEntry.objects.filter(user_id=people[0].user_id, status="done").count() == 1


# -- leaving while a wave seats (issue 26) ----------------------------------------------------------------
def seated_by_a_wave(player: Player, clock, stake: int) -> Table:
    """``player`` alone in the queue of a three-seat Pika table, seated by a wave: it waits for more."""
    join(player, clock, "pika", 3, stake=stake)
    services.run_wave(now=clock.now)
    return Table.objects.get()


def test_a_leave_after_the_wave_sat_the_player_stands_them_up_and_gives_the_entry_back(
    make_player, clock, events
) -> None:
    # given Ana seated by a wave at a buy-in table still waiting for players (her 250 in the pot)
    ana = make_player()
    table = seated_by_a_wave(ana, clock, 250)
    assert coins(ana) == 750 and table.status == "waiting"
    # when her leave arrives: she stands up, PF-57's entry back, and the answer says how much
    answer = services.leave_queue(player=ana, now=clock.tick(1))
    assert answer == {"type": "queue", "state": "idle", "left": True, "refunded": 250}
    assert coins(ana) == 1000 and not Seat.objects.filter(user_id=ana.user_id).exists()
    assert QueueEntry.objects.get().status == "left" and events.last(ana) == answer


def test_pf63_a_leave_after_the_wave_started_the_table_answers_where_the_player_sits(
    make_player, clock
) -> None:
    people = [make_player() for _ in range(2)]
    for person in people:
        join(person, clock, "one_card", 2, stake=100)
    services.run_wave(now=clock.now)
    table = Table.objects.get()
    with pytest.raises(QueueError) as err:
        services.leave_queue(player=people[0], now=clock.now)
    # the seat and the entry in the pot stay (PF-63), and the answer names the table
    assert err.value.as_dict() == {
        "code": "already_playing",
        "detail": str(err.value.message),
        "state": "playing",
        "table": table.pk,
        "table_code": table.code,
        "url": f"/mesa/{table.code}/",
    }
    assert Seat.objects.filter(table=table, user_id=people[0].user_id).exists() and coins(people[0]) == 900
    assert QueueEntry.objects.get(user_id=people[0].user_id).status == "seated"


def test_a_leave_whose_table_starts_between_its_two_locks_answers_where_the_player_sits(
    make_player, clock, monkeypatch
) -> None:
    # given Ana and Bea seated at a free table of three, still waiting for one more person
    ana, bea, cris = make_player(), make_player(), make_player()
    for person in (ana, bea):
        join(person, clock, "pika", 3)
    services.run_wave(now=clock.now)
    table = Table.objects.get()
    cris_entry = join(cris, clock, "pika", 3)
    real_stand_up = online.stand_up

    def wave_first(**kwargs):  # the wave takes the table the moment the leave let go of the entry
        place_at_table(table_id=table.pk, entry_ids=[cris_entry.pk], now=clock.now)
        return real_stand_up(**kwargs)

    monkeypatch.setattr(online, "stand_up", wave_first)
    # when Ana's leave finds her seated, lets go of her entry and the table fills and starts
    with pytest.raises(QueueError) as err:
        services.leave_queue(player=ana, now=clock.now)
    # then she is told where she plays (not "idle"), and she still sits there
    assert err.value.code == "already_playing" and err.value.where["table"] == table.pk
    table.refresh_from_db()
    assert table.status == "playing" and table.seats.filter(user_id=ana.user_id).exists()


def test_a_leave_whose_buy_in_table_is_cancelled_between_its_two_locks_answers_idle_refunded_once(
    make_player, clock, monkeypatch
) -> None:
    # given Ana alone at a buy-in table whose 120 s have passed (PF-52)
    ana = make_player()
    table = seated_by_a_wave(ana, clock, 500)
    real_stand_up = online.stand_up

    def deadline_first(**kwargs):  # the fill deadline takes the table first: cancelled, refunded
        assert online.expire_table(table_id=table.pk, now=clock.now + timedelta(seconds=121)) == "cancelled"
        return real_stand_up(**kwargs)

    monkeypatch.setattr(online, "stand_up", deadline_first)
    assert services.leave_queue(player=ana, now=clock.now) == {"type": "queue", "state": "idle"}
    assert coins(ana) == 1000  # refunded once, by the cancellation
    assert QueueEntry.objects.get().status == "cancelled"


def test_a_leave_that_keeps_losing_its_race_gives_up_with_a_clear_answer(
    make_player, clock, monkeypatch
) -> None:
    ana = make_player()
    seated_by_a_wave(ana, clock, 100)
    tries = []

    def seat_gone(**kwargs):  # every stand-up finds the seat changed under it
        tries.append(kwargs)
        raise TableError("not_seated")

    monkeypatch.setattr(online, "stand_up", seat_gone)
    with pytest.raises(QueueError) as err:
        services.leave_queue(player=ana, now=clock.now)
    assert err.value.code == "queue_busy" and len(tries) == services.LEAVE_ATTEMPTS
    assert QueueEntry.objects.get().status == "seated" and coins(ana) == 900  # nothing changed


def test_guests_and_non_online_tables_are_never_filled_from_the_queue(make_player, clock) -> None:
    from cardgames.tables import services as table_services

    host = make_player()
    room = table_services.create_room(player=host, game="pika", mode="friends", players=2, now=clock.now)
    person = make_player()
    entry = join(person, clock, "pika", 2)
    with pytest.raises(Exception) as err:
        place_at_table(table_id=room.pk, entry_ids=[entry.pk], now=clock.now)
    assert getattr(err.value, "code", None) == "bad_mode"
    services.run_wave(now=clock.now)
    assert room.seats.count() == 1
    assert Table.objects.filter(mode="online").get().seats.get().user_id == person.user_id


def _user(player: Player):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=player.user_id)


def _admin(make_player):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.filter(username="boss").first()
    if admin is None:
        admin = _user(make_player("boss"))
        admin.is_staff = True
        admin.save(update_fields=["is_staff"])
    return admin
