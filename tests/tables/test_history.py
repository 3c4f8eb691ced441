"""After the game (issue 10): the profile's «Partidas», and the replay page of a finished table,
each viewer seeing only what they were entitled to see at each step."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.identity import Player
from cardgames.engines import get_engine
from cardgames.tables import selectors, settlement
from cardgames.tables.models import ActionLog, GameResult, Table
from tests.tables.helpers import Clock, play_out, started_table, user_player

pytestmark = pytest.mark.django_db


def finished_one_card(host: Player, clock: Clock, *, seed: int = 0) -> Table:
    """A One Card game of ``host`` (seat 0) against a bot, played out and settled."""
    table = play_out(started_table("one_card", host, clock, players=2), {0: host}, clock, seed=seed)
    assert table.status == Table.Status.FINISHED
    settlement.finish_table(table_id=table.pk, now=clock.now)  # on_commit does not run in a test transaction
    return table


def client_of(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def page_config(response: Any) -> dict[str, Any]:
    body = response.content.decode()
    found = re.search(r'<script id="replay-config" type="application/json">(.*?)</script>', body, re.S)
    assert found, "the replay page carries its data in a json_script block"
    return json.loads(found.group(1))


def test_finished_games_selector_is_the_players_own_newest_first() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    first = finished_one_card(ana, clock, seed=1)
    clock.tick(3600)
    second = finished_one_card(ana, clock, seed=2)
    finished_one_card(bea, clock, seed=3)
    started_table("one_card", ana, clock, players=2)  # still playing: not a finished game

    games = list(selectors.finished_games(user_id=ana.user_id))

    assert [g.table_id for g in games] == [second.pk, first.pk]
    assert all(isinstance(g, GameResult) for g in games)


def test_profile_lists_only_the_players_own_finished_games_with_links() -> None:
    clock = Clock()
    ana, bea = user_player("Ana"), user_player("Bea")
    mine = finished_one_card(ana, clock, seed=1)
    theirs = finished_one_card(bea, clock, seed=2)
    playing = started_table("one_card", ana, clock, players=2)

    body = client_of("Ana").get(reverse("frontend:profile")).content.decode()

    assert "Partidas" in body
    assert f'data-table="{mine.pk}"' in body
    assert f'data-table="{theirs.pk}"' not in body and f'data-table="{playing.pk}"' not in body
    assert reverse("frontend:replay", args=[mine.pk]) in body and "Ver repetición" in body
    assert reverse("api-table-verify", args=[mine.pk]) in body and "Comprobar barajado" in body
    place = GameResult.objects.get(table=mine).seats[0]["place"]
    assert f"{place}º de 2" in body and "One Card" in body and "con amigos" in body


def test_profile_dates_are_madrid_time_and_pages_hold_twenty() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = finished_one_card(ana, clock)
    result = GameResult.objects.get(table=table)
    # 21 games: copies of the one result on tables of their own, a minute apart
    for n in range(20):
        copy = Table.objects.create(
            game="one_card", mode="friends", host_key=ana.key, num_players=2, last_activity_at=clock.now
        )
        copy.seats.create(index=0, kind="human", user_id=ana.user_id, player_key=ana.key, name="Ana")
        GameResult.objects.create(
            table=copy,
            game="one_card",
            mode="bots",
            seats=result.seats,
            result=result.result,
            finished_at=result.finished_at + timedelta(minutes=n + 1),
        )
    client = client_of("Ana")

    first = client.get(reverse("frontend:profile")).content.decode()
    second = client.get(reverse("frontend:profile") + "?page=2").content.decode()

    assert first.count("Ver repetición") == 20 and second.count("Ver repetición") == 1
    assert f'data-table="{table.pk}"' in second  # the oldest, on the last page
    # T0 is 12:00 UTC on 1 December 2026: 13:00 in Madrid (CET)
    assert "01/12/2026 13:" in second


def test_replay_page_for_a_seated_player_shows_their_own_seat() -> None:
    clock = Clock()
    ana = user_player("Ana")
    table = finished_one_card(ana, clock)

    response = client_of("Ana").get(reverse("frontend:replay", args=[table.pk]))

    assert response.status_code == 200
    config = page_config(response)
    replay = config["replay"]
    assert replay["seat"] == 0 and replay["result"] == table.result
    eng = get_engine("one_card")
    states = selectors.replay_states(table)
    assert len(replay["steps"]) == len(states) == 1 + ActionLog.objects.filter(table=table).count()
    for step, (_row, state) in zip(replay["steps"], states, strict=True):
        assert step["view"] == eng.view(state, 0)
    assert replay["steps"][0]["view"]["hand"]  # the player sees their own hand
    assert config["verify"]["ok"]
    body = response.content.decode()
    assert table.seed in body and table.seed_hash in body and "Barajado comprobado." in body
    assert 'src="/static/frontend/replay.js"' in body and "<script>" not in body  # no inline script


@pytest.mark.parametrize("outsider", ["anonymous", "another user"])
def test_an_outsider_sees_the_spectators_replay_with_no_hidden_card(outsider: str) -> None:
    clock = Clock()
    ana = user_player("Ana")
    user_player("Eva")
    table = finished_one_card(ana, clock)
    client = Client() if outsider == "anonymous" else client_of("Eva")

    assert client.get(reverse("frontend:replay", args=[table.pk])).status_code == 403  # by id alone

    response = client.get(reverse("frontend:replay", args=[table.pk]) + f"?code={table.code}")

    assert response.status_code == 200
    replay = page_config(response)["replay"]
    assert replay["seat"] is None
    eng = get_engine("one_card")
    states = selectors.replay_states(table)
    for step, (_row, state) in zip(replay["steps"], states, strict=True):
        assert step["view"] == eng.view(state, None)
    # at the deal every hand is private: no card of any hand reaches the outsider
    deal = eng.dump(states[0][1])
    dealt = {card for hand in deal["hands"] for card in hand}
    shown = json.dumps(replay["steps"][0])
    assert replay["steps"][0]["view"]["hand"] is None
    assert dealt and not [card for card in dealt if f'"{card}"' in shown]
    # and while the game runs, never a hand
    for step, (_row, state) in zip(replay["steps"], states, strict=True):
        if not eng.is_over(state):
            assert step["view"]["hand"] is None


def test_an_unfinished_game_has_no_replay_and_an_unknown_one_is_404() -> None:
    clock = Clock()
    ana = user_player("Ana")
    playing = started_table("one_card", ana, clock, players=2)
    client = client_of("Ana")

    refused = client.get(reverse("frontend:replay", args=[playing.pk]))
    missing = client.get(reverse("frontend:replay", args=[playing.pk + 1000]))

    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Repetición no disponible" in body and "replay-config" not in body
    assert playing.seed not in body
    assert missing.status_code == 404
