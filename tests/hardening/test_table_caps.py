"""Issue 13 item 13 for the live tables: what one person can grow is bounded — rooms hosted,
pending invitations sent, chat lines a room keeps — and a refusal changes nothing."""

from __future__ import annotations

import pytest

from cardgames.tables import services
from cardgames.tables.errors import MESSAGES, TableError
from cardgames.tables.models import ChatMessage, Invitation, Table
from tests.tables.helpers import user_player

pytestmark = pytest.mark.django_db


def test_live_rooms_per_host_are_bounded(settings) -> None:
    settings.TABLES_MAX_LIVE_ROOMS = 2
    ana = user_player("ana")
    for _ in range(2):
        services.create_room(player=ana, game="one_card", mode="friends")
    with pytest.raises(TableError) as caught:
        services.create_room(player=ana, game="one_card", mode="bots")
    assert caught.value.code == "too_many_rooms" and "too_many_rooms" in MESSAGES
    assert Table.objects.count() == 2
    services.create_room(player=user_player("bea"), game="one_card", mode="friends")  # others still may


def test_pending_invitations_per_sender_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(services, "MAX_PENDING_INVITATIONS", 1)
    ana = user_player("ana")
    user_player("bea"), user_player("eva")
    table = services.create_room(player=ana, game="one_card", mode="friends", players=4)
    services.invite(table_id=table.pk, sender=ana, username="bea")
    with pytest.raises(TableError) as caught:
        services.invite(table_id=table.pk, sender=ana, username="eva")
    assert caught.value.code == "too_many_invitations"
    assert Invitation.objects.count() == 1


def test_chat_lines_per_room_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(services, "MAX_CHAT_MESSAGES", 1)
    ana = user_player("ana")
    table = services.create_room(player=ana, game="one_card", mode="friends")
    services.post_chat(table_id=table.pk, player=ana, text="hola")
    with pytest.raises(TableError) as caught:
        services.post_chat(table_id=table.pk, player=ana, text="otra vez")
    assert caught.value.code == "chat_full"
    assert ChatMessage.objects.count() == 1


def test_finished_rooms_do_not_count_against_the_host(settings) -> None:
    settings.TABLES_MAX_LIVE_ROOMS = 1
    ana = user_player("ana")
    first = services.create_room(player=ana, game="one_card", mode="bots")
    Table.objects.filter(pk=first.pk).update(status=Table.Status.FINISHED)
    assert services.create_room(player=ana, game="one_card", mode="bots").pk != first.pk


def test_table_and_invitation_lists_are_paginated(monkeypatch) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.pagination import PageNumberPagination

    monkeypatch.setattr(PageNumberPagination, "page_size", 2)  # read from settings at import
    ana = user_player("ana")
    for _ in range(3):
        services.create_room(player=ana, game="one_card", mode="friends")
    client = Client()
    client.force_login(get_user_model().objects.get(pk=ana.user_id))
    first = client.get("/api/tables").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["next"]
    assert len(client.get("/api/tables?page=2").json()["results"]) == 1
    assert client.get("/api/invitations").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert Client().get("/api/tables").json()["results"] == []
