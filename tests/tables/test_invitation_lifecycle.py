"""An invitation lives only as long as its room waits (PF-14, issue 25 item 5): a room that starts
or closes takes its pending invitations back and every open page of the invitee hears it; an
answer reaches the host and the invitee's other tabs; a reload lists only live ones."""

from __future__ import annotations

import pytest

from cardgames.tables import selectors, services
from cardgames.tables.errors import TableError
from cardgames.tables.models import Invitation, Table
from tests.matchmaking.conftest import Events, events  # noqa: F401  (the lobby events fixture)
from tests.tables.helpers import Clock, user_player

pytestmark = pytest.mark.django_db


def invitations_heard(events: Events, player, invitation: Invitation) -> list[str]:  # noqa: F811
    return [
        p["invitation"]["status"]
        for p in events.of(player, "invitation")
        if p["invitation"]["id"] == invitation.pk
    ]


def test_pf14_a_room_that_starts_takes_back_its_pending_invitations(events: Events) -> None:  # noqa: F811
    clock = Clock()
    ana, bea, carla = user_player("Ana"), user_player("Bea"), user_player("Carla")
    room = services.create_room(player=ana, game="one_card", mode="friends", players=2, now=clock.now)
    to_bea = services.invite(table_id=room.pk, sender=ana, username="Bea", now=clock.now)
    services.join_room(table_id=room.pk, player=carla, code=room.code, now=clock.now)  # fills without Bea

    services.start_table(table_id=room.pk, player=ana, now=clock.now)

    to_bea.refresh_from_db()
    assert to_bea.status == Invitation.Status.EXPIRED
    assert invitations_heard(events, bea, to_bea) == ["pending", "expired"]  # her pages drop it live
    assert list(selectors.pending_invitations(user_id=bea.user_id)) == []  # and on reload
    with pytest.raises(TableError) as refused:
        services.respond_invitation(invitation_id=to_bea.pk, player=bea, accept=True, now=clock.now)
    assert refused.value.code == "invitation_closed"


def test_pf14_a_room_that_closes_takes_back_its_pending_invitations(events: Events) -> None:  # noqa: F811
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="pika", mode="friends")
    invitation = services.invite(table_id=room.pk, sender=ana, username="Bea")

    services.leave_room(table_id=room.pk, player=ana)  # the last person leaves: the room closes

    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.EXPIRED
    assert invitations_heard(events, bea, invitation) == ["pending", "expired"]


def test_pf14_an_answer_reaches_the_host_and_the_invitees_other_tabs(events: Events) -> None:  # noqa: F811
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="pika", mode="friends")
    invitation = services.invite(table_id=room.pk, sender=ana, username="Bea")

    services.respond_invitation(invitation_id=invitation.pk, player=bea, accept=False)

    assert invitations_heard(events, ana, invitation) == ["declined"]
    assert invitations_heard(events, bea, invitation) == ["pending", "declined"]


def test_pf14_a_reload_lists_only_invitations_to_rooms_still_waiting() -> None:
    ana, bea = user_player("Ana"), user_player("Bea")
    waiting = services.create_room(player=ana, game="pika", mode="friends")
    started = services.create_room(player=ana, game="skyjo", mode="friends")
    live = services.invite(table_id=waiting.pk, sender=ana, username="Bea")
    stale = services.invite(table_id=started.pk, sender=ana, username="Bea")
    # a row left pending by a room that started before rooms took their invitations back
    Table.objects.filter(pk=started.pk).update(status=Table.Status.PLAYING)

    assert [i.pk for i in selectors.pending_invitations(user_id=bea.user_id)] == [live.pk]
    assert stale.status == Invitation.Status.PENDING
