"""Issue 26 (3): a friends game pays (coins, XP, and so what a booster multiplies) only when at
least two people played it themselves (PF-13, PF-14; docs/economy.md says the rule)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.identity import Player
from cardgames.tables import flow, services, settlement
from cardgames.tables.models import ActionLog, Table
from economy.models import Transfer, XpAward
from tests.tables.helpers import Clock, play_out, user_player

pytestmark = pytest.mark.django_db


def friends_game(clock: Clock, people: list[Player], players: int = 3) -> Table:
    """A started One Card friends room of ``people`` (the first hosts) and bots for the rest."""
    host = people[0]
    table = services.create_room(player=host, game="one_card", mode="friends", players=players, now=clock.now)
    for person in people[1:]:
        services.join_room(table_id=table.pk, player=person, code=table.code, now=clock.now)
    while table.seats.count() < players:
        services.add_bot(table_id=table.pk, player=host, level="easy", now=clock.now)
    return services.start_table(table_id=table.pk, player=host, now=clock.now)


def settled_with_ana_first(table: Table) -> None:
    """Ana (seat 0) wins, whatever the seeded play gave: the rule is about who played, not how."""
    Table.objects.filter(pk=table.pk).update(result={**table.result, "placements": [1, 2, 3]})
    settlement.finish_table(table_id=table.pk)  # on_commit does not run in a test transaction


def paid(table: Table) -> tuple[int, int]:
    reference = f"table:{table.pk}"
    return (
        Transfer.objects.filter(kind=Transfer.Kind.REWARD, reference=reference).count(),
        XpAward.objects.filter(reference=reference).count(),
    )


def test_pf13_one_person_and_bots_in_a_friends_room_earn_no_coins_and_no_xp() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = play_out(friends_game(clock, [ana]), {0: ana}, clock)
    settled_with_ana_first(table)
    assert paid(table) == (0, 0)


def test_pf14_two_people_who_played_pay_the_winner() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    table = play_out(friends_game(clock, [ana, bea]), {0: ana, 1: bea}, clock)
    assert settlement.who_played(table) == {0, 1}
    settled_with_ana_first(table)
    assert paid(table) == (1, 1)


def test_pf13_a_second_account_that_sits_and_goes_does_not_make_two_people() -> None:
    """Bea joins and never plays: her turns time out, then the stand-in plays them (PF-63)."""
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    table = play_out(friends_game(clock, [ana, bea]), {0: ana}, clock)
    assert settlement.who_played(table) == {0}
    settled_with_ana_first(table)
    assert paid(table) == (0, 0)


def test_who_played_counts_own_moves_against_those_made_for_the_seat() -> None:
    """A friend who drops out near the end played; an account that played once and left did not;
    a lapsed catch window is not absence (PF-63)."""
    clock = Clock()
    ana, bea, eva = user_player("Ana"), user_player("Bea"), user_player("Eva")
    table = friends_game(clock, [ana, bea, eva])
    ActionLog.objects.filter(table=table).delete()
    script = (
        [(1, "player", "")] * 10
        + [(1, "timeout", "turn")] * 2
        + [(1, "bot", "")] * 6  # Bea: 10 ≥ 8
        + [(2, "player", "")]
        + [(2, "timeout", "turn")] * 2
        + [(2, "bot", "")] * 9  # Eva: 1 < 11
        + [(0, "player", "")]
        + [(0, "timeout", "catch")] * 5  # Ana: windows are not absence
    )
    for seq, (seat, source, timer) in enumerate(script, start=table.version + 1):
        action = {"type": "timeout", "timer": timer} if timer else {"type": "draw"}
        ActionLog.objects.create(
            table=table,
            seq=seq,
            seat=seat,
            action=action,
            source=source,
            at=clock.now + timedelta(seconds=seq),
        )
    assert settlement.who_played(table) == {0, 1}


def test_played_themselves_needs_a_move_of_ones_own_and_at_least_half() -> None:
    assert flow.played_themselves(5, 5) and flow.played_themselves(1, 0)
    assert not flow.played_themselves(0, 0) and not flow.played_themselves(4, 5)
