"""A move made from the socket keeps its group message for the event loop (broadcast.outbox).

The consumer's database thread must not wait on the channel layer: inside ``outbox()`` the
after-commit send is kept, not sent, and ``deliver`` sends it from async code. A refused move
commits nothing, so nothing is kept.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from cardgames.engines import get_engine
from cardgames.tables import broadcast, services
from cardgames.tables.errors import TableError
from tests.tables.helpers import Clock, started_table, user_player

pytestmark = pytest.mark.django_db(transaction=True)


def _first_move(table_id: int, player: object, clock: Clock) -> tuple[services.Applied, broadcast.Outbox]:
    from cardgames.tables.models import Table

    table = Table.objects.get(pk=table_id)
    eng = get_engine(table.game)
    state = eng.load(table.state)
    action = eng.legal_actions(state, 0)[0]
    with broadcast.outbox() as box:
        applied = services.submit_action(
            table_id=table_id,
            player=player,
            action=action,
            action_id="m1",
            version=table.version,
            now=clock.now,
        )
    return applied, box


@pytest.mark.asyncio
async def test_the_moves_group_message_waits_in_the_outbox_until_delivered() -> None:
    clock = Clock()
    host = await sync_to_async(user_player)("ana")
    table = await sync_to_async(started_table)("skyjo", host, clock)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group(table.pk), channel)

    applied, box = await sync_to_async(_first_move)(table.pk, host, clock)

    assert [group for group, _ in box.items] == [broadcast.table_group(table.pk)]
    message = box.items[0][1]
    assert message["version"] == applied.version and set(message["frames"]) >= {"0", "1"}
    # one receive throughout, as a socket's consumer has: cancelling a receive ends the channel
    # (the pub/sub layer unsubscribes it, as when the socket closes)
    receiving = asyncio.ensure_future(layer.receive(channel))
    done, _ = await asyncio.wait([receiving], timeout=0.3)
    assert not done  # nothing was sent yet
    await broadcast.deliver(box)
    received = await asyncio.wait_for(receiving, timeout=5)
    assert received["type"] == "table.changed" and received["version"] == applied.version
    assert box.items == []


def test_a_refused_move_keeps_nothing() -> None:
    clock = Clock()
    host = user_player("ana")
    table = started_table("skyjo", host, clock)
    with broadcast.outbox() as box, pytest.raises(TableError):
        services.submit_action(
            table_id=table.pk, player=host, action={"type": "nonsense"}, action_id="x", version=table.version
        )
    assert box.items == []


def test_the_moves_message_carries_each_viewers_snapshot_frame_encoded_once() -> None:
    """Each socket sends its viewer's frame as the writer encoded it (no decoding of every
    viewer's envelope, no encoding per socket): each is that viewer's own envelope and no other's."""
    import json

    from cardgames.tables import selectors
    from cardgames.tables.envelopes import SPECTATOR
    from cardgames.tables.models import Table

    clock = Clock()
    host = user_player("ana")
    table = started_table("skyjo", host, clock)
    applied, box = _first_move(table.pk, host, clock)
    frames = box.items[0][1]["frames"]
    table = Table.objects.get(pk=table.pk)
    assert set(frames) == {str(i) for i in range(table.num_players)} | {SPECTATOR}
    ana = json.loads(frames["0"])
    assert ana["type"] == "snapshot" and ana["version"] == applied.version
    read_back = selectors.table_view_for(table=table, viewer=host)
    assert {**ana["table"], "server_time": 0} == {**read_back, "server_time": 0}
    for key, text in frames.items():
        view = json.loads(text)["table"]["view"]
        assert view == get_engine("skyjo").view(
            get_engine("skyjo").load(table.state), None if key == SPECTATOR else int(key)
        )
