"""Proof (issue 13): protocol fuzzing of the table socket with Hypothesis, through channels'
WebsocketCommunicator on the real ASGI app (docs/protocol.md).

A practice table waits for its one person (the bots have played up to their turn; the in-process
runner is held off so nothing else moves it). Hypothesis then sends random text and bytes,
random JSON, malformed frames, actions against stale and future versions, replayed action ids,
illegal moves and floods. Every frame gets an error frame, the socket never closes, and the
table's stored state, version and action log are exactly as before.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import get_engine
from cardgames.tables import protocol, runner, services
from cardgames.tables.models import ActionLog, Table
from config.asgi import application
from tests.tables.helpers import user_player
from tests.tables.test_socket import ORIGIN, _session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def frozen(table_id: int) -> tuple[Any, ...]:
    table = Table.objects.get(pk=table_id)
    return (
        table.version,
        table.status,
        json.dumps(table.state, sort_keys=True),
        ActionLog.objects.filter(table_id=table_id).count(),
    )


@pytest.fixture
def waiting(monkeypatch: pytest.MonkeyPatch) -> tuple[int, bytes, dict[str, Any]]:
    """A started practice table whose person (seat 0) is to act; its first move id is "played"."""
    monkeypatch.setattr(runner, "ensure_started", lambda: None)  # nothing moves the table but us
    player = user_player("fuzz")
    user = player.user_id
    table = services.create_room(player=player, game="one_card", mode="bots")
    services.start_table(table_id=table.pk, player=player)
    eng = get_engine("one_card")
    moment = timezone.now()
    played = False
    for _ in range(200):
        table.refresh_from_db()
        state = eng.load(table.state)
        if eng.to_act(state) == [0]:
            if played:
                break
            action = eng.legal_actions(state, 0)[0]
            services.submit_action(
                table_id=table.pk,
                player=player,
                action=dict(action),
                action_id="played",
                version=table.version,
            )
            played = True
            continue
        moment += timedelta(seconds=60)
        services.wake_table(table_id=table.pk, now=moment)
    table.refresh_from_db()
    state = eng.load(table.state)
    assert eng.to_act(state) == [0] and table.status == Table.Status.PLAYING
    from django.contrib.auth import get_user_model

    cookie = _session_cookie(lambda c: c.force_login(get_user_model().objects.get(pk=user)))
    legal = [dict(a) for a in eng.legal_actions(state, 0)]
    return table.pk, cookie, {"version": table.version, "legal": legal}


def bad_frames(version: int, legal: list[dict[str, Any]]) -> st.SearchStrategy[str | bytes]:
    not_legal = JSON.filter(lambda a: a not in legal)
    action = st.fixed_dictionaries({"type": st.text(max_size=12)}) | st.dictionaries(
        st.sampled_from(["type", "card", "suit", "target"]), JSON, max_size=3
    )
    other_version = st.integers(min_value=-5, max_value=version + 50).filter(lambda v: v != version)
    return st.one_of(
        st.text(min_size=1, max_size=200),
        st.binary(min_size=1, max_size=64),
        JSON.map(json.dumps),
        st.just("[" * 3000 + "]" * 3000),
        st.just('{"type": "action"}' + " " * 5000),
        st.builds(
            lambda t: json.dumps({"type": t}),
            st.text(max_size=12).filter(lambda t: t not in {"ping", "sync", "log"}),
        ),
        st.builds(
            lambda v: json.dumps({"type": "sync", "version": v}),
            st.one_of(st.text(), st.floats(), st.just(-1), st.just(True)),
        ),
        st.builds(
            lambda t: json.dumps({"type": "chat", "text": t}), JSON.filter(lambda t: not isinstance(t, str))
        ),
        # stale and future versions of a legal move
        st.builds(
            lambda a, v, i: json.dumps({"type": "action", "action": a, "action_id": i, "version": v}),
            st.sampled_from(legal),
            other_version,
            st.text(min_size=1, max_size=10),
        ),
        # the move already applied, replayed at the current version
        st.builds(
            lambda a: json.dumps({"type": "action", "action": a, "action_id": "played", "version": version}),
            st.sampled_from(legal),
        ),
        # illegal or malformed moves at the current version
        st.builds(
            lambda a, i: json.dumps({"type": "action", "action": a, "action_id": i, "version": version}),
            action.filter(lambda a: a not in legal) | not_legal,
            st.text(min_size=1, max_size=10),
        ),
        st.builds(
            lambda a: json.dumps({"type": "action", "action": a, "action_id": "x" * 65, "version": version}),
            st.sampled_from(legal),
        ),
    )


async def exchange(table_id: int, cookie: bytes, frames: list[str | bytes]) -> list[dict[str, Any]]:
    """Send every frame at once (a flood past the rate limit included) and collect the answers."""
    socket = WebsocketCommunicator(
        application, f"/ws/tables/{table_id}/", headers=[(b"origin", ORIGIN), (b"cookie", cookie)]
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=10))["type"] == "snapshot"
    assert (await socket.receive_json_from(timeout=10))["type"] == "log"  # the move log, once dealt
    assert (await socket.receive_json_from(timeout=10))["type"] == "chat_history"
    for frame in frames:
        if isinstance(frame, bytes):
            await socket.send_to(bytes_data=frame)
        else:
            await socket.send_to(text_data=frame)
    errors: list[dict[str, Any]] = []
    while len(errors) < len(frames):
        answer = await socket.receive_output(timeout=10)
        assert answer["type"] == "websocket.send", answer  # never a close
        body = json.loads(answer["text"])
        if body["type"] != "snapshot":  # a stale move's error is followed by a fresh snapshot
            errors.append(body)
    while not await socket.receive_nothing(timeout=0.2):  # only snapshots may follow (presence)
        assert (await socket.receive_json_from())["type"] == "snapshot"
    await socket.disconnect()
    return errors


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_bad_frames_get_error_frames_and_change_nothing(
    waiting: tuple[int, bytes, dict[str, Any]], data: Any
) -> None:
    # one table for every example (a fixture runs once per test): the frames never change it
    table_id, cookie, known = waiting
    frames = data.draw(st.lists(bad_frames(known["version"], known["legal"]), min_size=1, max_size=30))
    before = frozen(table_id)
    answers = async_to_sync(exchange)(table_id, cookie, frames)
    assert [a["type"] for a in answers] == ["error"] * len(frames)
    assert all(a["code"] and a["message"] for a in answers)
    assert "server_error" not in {a["code"] for a in answers}
    if len(frames) > protocol.RATE_FRAMES:
        assert any(a["code"] == "rate_limited" for a in answers)
    assert frozen(table_id) == before
