"""A whole game of each of the five games through the table service: a person and bots,
timers and bots woken by the sweeper's entry point, settlement once, replay equal to the snapshot."""

from __future__ import annotations

import pytest

from cardgames.catalogue import GAMES
from cardgames.tables import selectors, settlement
from cardgames.tables.models import ActionLog, GameResult, Table
from economy.models import Transfer
from tests.tables.helpers import Clock, play_out, started_table, user_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("game", GAMES)
def test_whole_friends_game_is_played_settled_once_and_replays_from_seed_and_log(game: str) -> None:
    clock = Clock()
    host = user_player("Ana")
    options = {"lives": 3} if game == "puteo" else None
    table = started_table(game, host, clock, options=options)
    dealt_at = table.version
    table = play_out(table, {0: host}, clock)
    assert table.status == Table.Status.FINISHED
    seqs = list(ActionLog.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(dealt_at + 1, table.version + 1))  # one log row per version, none lost
    # settled after commit, exactly once; a second finish changes nothing
    table.refresh_from_db()
    assert table.settled_at is not None
    result = GameResult.objects.get(table=table)
    assert settlement.finish_table(table_id=table.pk) == result
    assert GameResult.objects.filter(table=table).count() == 1
    # PF-13 (issue 26): one person and bots is practice, even in a friends room: nothing is paid
    assert not Transfer.objects.filter(key__startswith=f"reward:table:{table.pk}:").exists()
    # the snapshot is a cache of the log replayed from the seed
    check = selectors.verify_table(table=table)
    assert check["ok"] and check["result_matches"] and check["actions"] == len(seqs)
