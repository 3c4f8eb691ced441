"""The move log through the table service (docs/protocol.md, "The move log"): a hand reorder is
nobody's last move (PK-46), and the log a full snapshot brings is the current deal's, from the row
that dealt it (a new round of El Puteo starts a new log)."""

from __future__ import annotations

from typing import Any

import pytest

from cardgames.tables import broadcast, envelope_parts, movelog, selectors, services
from cardgames.tables.models import ActionLog, Table
from tests.tables.helpers import Clock, play_out, started_table, user_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every viewer's envelopes of each change the table service pushed."""
    sent: list[dict[str, Any]] = []
    real = broadcast.table_changed

    def keep(table_id: int, version: int, **kwargs: Any) -> None:
        if kwargs.get("envelopes"):
            sent.append(kwargs["envelopes"])
        real(table_id, version, **kwargs)

    monkeypatch.setattr(broadcast, "table_changed", keep)
    return sent


def test_pk46_a_reorder_is_nobodys_last_move_and_not_in_the_log(pushed: list[dict[str, Any]]) -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    room = services.create_room(player=ana, game="pika", mode="friends", players=2, now=clock.now)
    services.join_room(table_id=room.pk, player=bea, code=room.code, now=clock.now)
    table = services.start_table(table_id=room.pk, player=ana, now=clock.now)
    mover = next(p for p in (ana, bea) if selectors.table_view_for(table=table, viewer=p)["legal"])
    legal = selectors.table_view_for(table=table, viewer=mover)["legal"]
    services.submit_action(
        table_id=table.pk, player=mover, action=legal[0], action_id="m", version=table.version
    )
    table.refresh_from_db()
    moved = table.version
    hand = selectors.table_view_for(table=table, viewer=bea)["view"]["hand"]
    services.submit_action(
        table_id=table.pk,
        player=bea,
        action={"type": "reorder", "order": list(reversed(hand))},
        action_id="r",
        version=table.version,
    )
    table.refresh_from_db()
    assert (
        table.version == moved + 1
        and ActionLog.objects.get(table=table, seq=moved + 1).action["type"] == "reorder"
    )
    for viewer, envelope in pushed[-1].items():
        assert envelope["version"] == moved + 1
        assert envelope["last"]["seq"] == moved and envelope["last"]["type"] == legal[0]["type"], viewer
        assert "entered" not in envelope["last"]  # not this version's own move
    for player in (ana, bea, None):
        assert selectors.table_view_for(table=table, viewer=player)["last"]["seq"] == moved
        log = selectors.deal_log(table=table, viewer=player, version=table.version)
        assert [e["seq"] for e in log] == [moved]


def test_the_log_is_the_current_rounds_from_the_row_that_dealt_it() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = started_table("puteo", ana, clock, options={"lives": 3}, players=3)
    table = play_out(table, {0: ana}, clock)
    rows = list(ActionLog.objects.filter(table=table).order_by("seq"))
    deals = [r.seq for r in rows if movelog.starts_deal("puteo", r.events)]
    assert len(deals) >= 2
    for version in (deals[1] - 1, deals[1], deals[1] + 2, table.version):
        start = max((d for d in deals if d <= version), default=rows[0].seq)
        for seat in (0, None):
            viewer = ana if seat == 0 else None
            log = selectors.deal_log(table=table, viewer=viewer, version=version)
            expected = [
                envelope_parts.log_entry(r, "puteo", seat)
                for r in reversed(rows)
                if start <= r.seq <= version
            ]
            assert log == [e for e in expected if e is not None]
            assert log[-1]["seq"] == start and (log[-1].get("new_deal") is True) == (start in deals)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
