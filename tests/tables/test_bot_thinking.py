"""A searching (hard) bot thinks outside the table's lock (issue 28; docs/bots.md, "Thinking time").

``wake_table`` commits what was due (timers), lets El Puteo's hard bot search on what it read with no
transaction open, then locks the row again and applies the answer only if the table has not moved.
These tests wrap the real ``HardBot.choose`` to look at the database while the bot thinks, and to
move the table under it through the real services.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from cardgames.bots.puteo import HardBot
from cardgames.engines import get_engine
from cardgames.tables import services
from cardgames.tables.models import ActionLog, Table
from tests.tables.helpers import Clock, started_table, user_player

PUTEO = get_engine("puteo")
Choose = Callable[[HardBot, Any, list[Any], random.Random, Any], tuple[Any, Any]]


class Thinking:
    """Wraps ``HardBot.choose``: records each answer and runs ``during`` (once) while the bot thinks."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, during: Callable[[], None] | None = None) -> None:
        self.original: Choose = HardBot.choose
        self.during = during
        self.answers: list[Any] = []
        self.in_transaction: list[bool] = []

        def choose(bot: HardBot, view: Any, legal: list[Any], rng: random.Random, memory: Any) -> Any:
            return self.choose(bot, view, legal, rng, memory)

        monkeypatch.setattr(HardBot, "choose", choose)  # a function, so the bot comes in as ``bot``

    def choose(self, bot: HardBot, view: Any, legal: list[Any], rng: random.Random, memory: Any) -> Any:
        self.in_transaction.append(transaction.get_connection().in_atomic_block)
        during, self.during = self.during, None
        if during is not None:
            during()
        action, new_memory = self.original(bot, view, legal, rng, memory)
        self.answers.append(action)
        return action, new_memory


def _until_a_bot_is_due(table: Table, ana: Any, clock: Clock) -> None:
    """Ana (seat 0) plays her first legal action whenever asked, until a bot's turn is due."""
    for _ in range(200):
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING
        state = PUTEO.load(table.state)
        if 0 in PUTEO.to_act(state):
            services.submit_action(
                table_id=table.pk,
                player=ana,
                action=dict(PUTEO.legal_actions(state, 0)[0]),
                action_id=f"a{table.version}",
                version=table.version,
                now=clock.now,
            )
            continue
        clock.tick(1.1)  # past the bots' think delay
        return
    pytest.fail("no bot's turn came")


def _hard_table(clock: Clock) -> tuple[Table, Any]:
    ana = user_player("Ana")
    return started_table("puteo", ana, clock, level="hard", players=4), ana


def _a_hard_bot_due(clock: Clock) -> tuple[Table, Any, int]:
    """Ana and three hard bots at El Puteo, a bot's turn due: the table, Ana, and its version."""
    table, ana = _hard_table(clock)
    _until_a_bot_is_due(table, ana, clock)
    table.refresh_from_db()
    return table, ana, table.version


@pytest.mark.django_db(transaction=True)
def test_the_hard_bot_searches_with_no_transaction_open_and_the_row_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    table, ana = _hard_table(clock)
    written: list[str] = []

    def another_connection_writes_the_row() -> None:
        def write() -> None:
            try:
                Table.objects.filter(pk=table.pk).update(last_activity_at=clock.now)
                written.append("ok")
            except Exception as exc:  # SQLite: "table is locked" while a transaction holds it
                written.append(repr(exc))
            finally:
                connection.close()

        thread = threading.Thread(target=write)
        thread.start()
        thread.join(timeout=5)  # PostgreSQL: a held row lock would keep it waiting past this

    thinking = Thinking(monkeypatch, during=another_connection_writes_the_row)
    # when: the hard bots play a dozen moves through the real wake-ups
    for _ in range(12):
        _until_a_bot_is_due(table, ana, clock)
        services.wake_table(table_id=table.pk, now=clock.now)

    # then: each decision was made outside any transaction, and meanwhile the row could be written
    assert len(thinking.answers) >= 12
    assert not any(thinking.in_transaction)
    assert written == ["ok"]
    bot_moves = ActionLog.objects.filter(table=table, source=ActionLog.Source.BOT)
    assert bot_moves.count() >= 12
    assert all(row.action_id == f"bot:{row.seq - 1}" for row in bot_moves)  # one move per version


@pytest.mark.django_db(transaction=True)
def test_a_decision_made_while_the_table_moved_is_dropped_and_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    table, ana, read = _a_hard_bot_due(clock)
    bot = next(i for i in PUTEO.to_act(PUTEO.load(table.state)) if i != 0)

    def the_host_mutes_a_seat() -> None:  # a real service that moves the version of a table in play
        services.set_muted(table_id=table.pk, player=ana, seat=bot, muted=True, now=clock.now)

    thinking = Thinking(monkeypatch, during=the_host_mutes_a_seat)
    # when: the bot is asked while the host mutes it
    services.wake_table(table_id=table.pk, now=clock.now)

    # then: its answer, made at the old version, is not applied; the table is as the mute left it
    table.refresh_from_db()
    assert len(thinking.answers) == 1
    assert table.version == read + 1
    assert not ActionLog.objects.filter(table=table, seq__gt=read).exists()
    assert table.bots_at is not None and table.bots_at <= clock.now  # still due: the next wake asks

    # when: the next wake-up comes
    services.wake_table(table_id=table.pk, now=clock.now)

    # then: the bot is asked afresh at the new version, and that answer is the move
    table.refresh_from_db()
    assert len(thinking.answers) == 2
    assert table.version == read + 2
    move = ActionLog.objects.get(table=table, seq=read + 2)
    assert (move.seat, move.action, move.action_id) == (bot, thinking.answers[1], f"bot:{read + 1}")


@pytest.mark.django_db(transaction=True)
def test_two_wakes_thinking_at_once_apply_one_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A countdown task and the sweeper wake the table together: both think, the first answer to
    come back is applied, the other finds the version moved and writes nothing."""
    clock = Clock()
    table, _ana, read = _a_hard_bot_due(clock)

    def another_worker_wakes_it() -> None:
        services.wake_table(table_id=table.pk, now=clock.now)

    thinking = Thinking(monkeypatch, during=another_worker_wakes_it)
    services.wake_table(table_id=table.pk, now=clock.now)

    table.refresh_from_db()
    assert len(thinking.answers) == 2  # asked twice at one version …
    assert table.version == read + 1  # … one move
    assert list(ActionLog.objects.filter(table=table, seq__gt=read).values_list("action_id", flat=True)) == [
        f"bot:{read}"
    ]
