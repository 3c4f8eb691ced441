"""Issue 26 (5): what one address can make the server play. A table whose people are all gone waits
(PF-63) instead of letting bots play on; live rooms are bounded per host and per address, and guest
identities per address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from cardgames.engines import get_engine
from cardgames.tables import core, flow, quotas, services
from cardgames.tables.models import ActionLog, Table
from tests.tables.helpers import Clock, started_table, user_player
from tests.tables.test_api import api

pytestmark = pytest.mark.django_db


def _gone_for_her_timeouts(table: Table, clock: Clock) -> None:
    """Wake the table as the sweeper would until Ana's seat (0) has its stand-in."""
    for _ in range(400):
        if table.seats.get(index=0).stand_in:
            return
        services.wake_table(table_id=table.pk, now=clock.tick(1.1))
    raise AssertionError("Ana's seat never got its stand-in")


def test_pf63_a_table_whose_people_are_all_gone_waits_and_plays_on_when_one_returns() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=3)  # Ana and two bots; her page is closed
    _gone_for_her_timeouts(table, clock)
    table.refresh_from_db()
    assert (table.wake_at, table.deadline_at, table.bots_at) == (None, None, None)
    version, moves = table.version, ActionLog.objects.filter(table=table).count()
    for hours in (1, 2, 3):  # a sweeper or a late countdown task finds nothing to do
        services.wake_table(table_id=table.pk, now=clock.now + timedelta(hours=hours))
    table.refresh_from_db()
    assert (table.version, ActionLog.objects.filter(table=table).count()) == (version, moves)
    # she comes back: her seat is hers again, the timers run from now (a whole turn), bots are asked
    back = clock.tick(3 * 3600)
    services.mark_connected(table_id=table.pk, player=ana, connected=True, now=back)
    table.refresh_from_db()
    assert table.wake_at is not None
    eng = get_engine(table.game)
    live = eng.timers(eng.load(table.state))
    assert live and all(table.timer_starts[t["id"]] >= back.timestamp() for t in live)
    for _ in range(40):
        services.wake_table(table_id=table.pk, now=clock.tick(1.1))
    table.refresh_from_db()
    assert table.version > version


def test_pf63_someone_still_there_keeps_the_table_playing() -> None:
    """Ana is gone, Bea's page is open: the stand-in plays Ana's turns as before."""
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    table = services.create_room(player=ana, game="one_card", mode="friends", players=3, now=clock.now)
    services.join_room(table_id=table.pk, player=bea, code=table.code, now=clock.now)
    services.add_bot(table_id=table.pk, player=ana, level="easy", now=clock.now)
    services.start_table(table_id=table.pk, player=ana, now=clock.now)
    services.mark_connected(table_id=table.pk, player=bea, connected=True)
    _gone_for_her_timeouts(table, clock)
    table.refresh_from_db()
    assert table.wake_at is not None
    # when Bea's page closes too, the table plays on while her own seat is not stood in for
    table.seats.filter(index=1).update(stand_in=False, timeouts_in_row=0)  # she has just played
    services.mark_connected(table_id=table.pk, player=bea, connected=False, now=clock.now)
    table.refresh_from_db()
    assert table.wake_at is not None


def test_everyone_gone_needs_every_person_stood_in_and_offline_and_a_buy_in_never_waits() -> None:
    assert flow.everyone_gone([(True, False), (True, False)])
    assert not flow.everyone_gone([(True, False), (True, True)])  # one page still open
    assert not flow.everyone_gone([(True, False), (False, False)])  # one not yet stood in for
    assert not flow.everyone_gone([])  # no person at all
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("one_card", ana, clock, players=2)
    _gone_for_her_timeouts(table, clock)
    seats = list(table.seats.all())
    assert core.gone(table, seats)
    table.pot_id = 1  # a buy-in game's pot must be decided: its stand-ins play it to the end
    assert not core.gone(table, seats)


@override_settings(TABLES_MAX_LIVE_ROOMS_PER_ADDRESS=3, GUESTS_MAX_PER_ADDRESS=100)
def test_live_rooms_are_bounded_per_address_whatever_the_guest() -> None:
    rooms = []
    for i in range(3):
        status, room = api(
            Client(), "post", "/api/tables", {"game": "pika", "mode": "bots", "name": f"Guest{i}"}
        )
        assert status == 201
        rooms.append(room)
    status, body = api(Client(), "post", "/api/tables", {"game": "pika", "mode": "bots", "name": "Guest9"})
    assert (status, body["code"]) == (429, "too_many_rooms_here") and "conexión" in body["detail"]
    assert Table.objects.count() == 3
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    assert api(elsewhere, "post", "/api/tables", {"game": "pika", "mode": "bots", "name": "Otra"})[0] == 201
    Table.objects.filter(pk=rooms[0]["id"]).update(status=Table.Status.FINISHED)  # a game ended: a slot
    assert api(Client(), "post", "/api/tables", {"game": "pika", "mode": "bots", "name": "Guest8"})[0] == 201


def test_a_burst_of_creations_from_one_address_is_taken_one_at_a_time(monkeypatch) -> None:
    """The address's count is read and written under its lock: a creation that cannot take it in
    time is refused (``busy``), never let through uncounted."""
    monkeypatch.setattr(quotas, "WAIT_SECONDS", 0.1)
    ana = user_player("Ana")
    assert cache.add(quotas._key("10.9.9.9") + ":lock", 1, timeout=5)  # another creation holds it
    with pytest.raises(services.TableError) as refused:
        services.create_room(player=ana, game="pika", mode="bots", address="10.9.9.9")
    assert refused.value.code == "busy" and not Table.objects.exists()
    cache.delete(quotas._key("10.9.9.9") + ":lock")
    assert services.create_room(player=ana, game="pika", mode="bots", address="10.9.9.9").pk


@override_settings(GUESTS_MAX_PER_ADDRESS=2)
def test_guest_identities_are_throttled_per_address() -> None:
    for name in ("Uno", "Dos"):
        assert api(Client(), "post", "/api/auth/guest", {"name": name})[0] == 201
    status, body = api(Client(), "post", "/api/auth/guest", {"name": "Tres"})
    assert (status, body["code"]) == (429, "too_many_guests")
    status, body = api(Client(), "post", "/api/tables", {"game": "pika", "mode": "bots", "name": "Cuatro"})
    assert (status, body["code"]) == (429, "too_many_guests") and not Table.objects.exists()
    page = Client().post("/cuenta/invitado/", {"name": "Cinco"})
    assert page.status_code == 400 and "demasiados invitados" in page.content.decode()
    assert api(Client(REMOTE_ADDR="10.1.2.3"), "post", "/api/auth/guest", {"name": "Seis"})[0] == 201
