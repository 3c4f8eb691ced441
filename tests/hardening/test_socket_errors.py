"""Issue 13 items 10 and 12: every socket frame gets an answer, an unknown socket path is refused.

A refused or failing frame never closes a socket with 1011 and never raises out of the consumer
(docs/protocol.md); an unknown websocket path is refused at the handshake, not with a 500.
"""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from cardgames import consumers as lobby
from cardgames.tables import sockets as table_sockets
from config.asgi import application
from tests.tables.test_socket import ORIGIN, as_guest, signed_in, started_practice

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
DEEP = '{"type": "ping", "echo": ' + "[" * 2000 + "]" * 2000 + "}"


def communicator(path: str, cookie: bytes | None = None) -> WebsocketCommunicator:
    headers = [(b"origin", ORIGIN)] + ([(b"cookie", cookie)] if cookie else [])
    return WebsocketCommunicator(application, path, headers=headers)


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/tables/abc/", "/ws/", "/", "/ws/lobby/extra/"])
async def test_unknown_socket_path_is_refused_cleanly(path: str) -> None:
    socket = communicator(path)
    connected, _code = await socket.connect(timeout=10)
    assert connected is False
    await socket.disconnect()


@pytest.mark.parametrize("table_id", ["0", "99999999999999999999999"])
async def test_socket_for_a_table_that_cannot_exist_gets_an_error_frame(table_id: str) -> None:
    _, cookie = await signed_in("ana")
    socket = communicator(f"/ws/tables/{table_id}/", cookie)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    frame = await socket.receive_json_from(timeout=10)
    assert frame["type"] == "error" and frame["code"] == "no_such_table"
    assert (await socket.receive_output(timeout=10))["type"] == "websocket.close"


@pytest.mark.parametrize(
    "frame",
    [DEEP, "[" * 4000, "{" * 3000, '"just a string"', "null", "\x00", '{"type": 3}', "x" * 5000],
)
async def test_lobby_answers_every_bad_frame_with_an_error(frame: str) -> None:
    _, cookie = await signed_in("bea")
    socket = communicator("/ws/lobby/", cookie)
    assert (await socket.connect(timeout=10))[0]
    assert (await socket.receive_json_from(timeout=10))["type"] == "hello"
    await socket.send_to(text_data=frame)
    answer = await socket.receive_json_from(timeout=10)
    assert answer["type"] == "error"
    await socket.send_json_to({"type": "ping", "echo": 1})
    assert await socket.receive_json_from(timeout=10) == {"type": "pong", "echo": 1}
    await socket.disconnect()


async def test_lobby_answers_a_binary_frame_with_an_error() -> None:
    _, cookie = await signed_in("eva")
    socket = communicator("/ws/lobby/", cookie)
    assert (await socket.connect(timeout=10))[0]
    await socket.receive_json_from(timeout=10)
    await socket.send_to(bytes_data=b"\x00\x01")
    assert (await socket.receive_json_from(timeout=10))["code"] == "bad_frame"
    await socket.disconnect()


async def test_table_answers_a_deep_frame_with_an_error_and_stays_open() -> None:
    socket, _version = await practice_socket("Gus", "g-deep")
    await socket.send_to(text_data=DEEP[:4000])
    assert (await not_snapshot(socket))["type"] == "error"
    await socket.send_json_to({"type": "ping"})
    assert (await not_snapshot(socket))["type"] == "pong"
    await socket.disconnect()


async def test_lobby_answers_an_unexpected_failure_with_an_error_frame(monkeypatch) -> None:
    _, cookie = await signed_in("ivo")
    socket = communicator("/ws/lobby/", cookie)
    assert (await socket.connect(timeout=10))[0]
    await socket.receive_json_from(timeout=10)
    monkeypatch.setattr(lobby, "MAX_FRAME_BYTES", None)  # the size check now raises TypeError
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from(timeout=10))["code"] == "server_error"
    monkeypatch.undo()
    await socket.send_json_to({"type": "ping"})
    assert (await socket.receive_json_from(timeout=10))["type"] == "pong"
    await socket.disconnect()


async def test_a_move_that_fails_unexpectedly_is_answered_with_its_action_id(monkeypatch) -> None:
    """A move whose fate is unknown (the channel layer or the database went away under it, found
    by tests/services/test_faults.py) gets a server_error naming it, so the client stops waiting
    for that move's answer and looks again."""
    socket, version = await practice_socket("Hal", "g-fail")

    def lost(**kwargs: object) -> None:
        raise ConnectionError("Redis went away after the commit")

    monkeypatch.setattr(table_sockets, "submit", lost)
    frame = {"type": "action", "action": {"type": "draw"}, "action_id": "a-lost", "version": version}
    await socket.send_json_to(frame)
    answer = await not_snapshot(socket)
    assert (answer["code"], answer.get("action_id")) == ("server_error", "a-lost")
    await socket.disconnect()


async def test_action_frames_refused_while_parsing_are_answered_with_their_action_id() -> None:
    """Issue 26 (12): a timeout sent by a client, a missing version and an escaped lone surrogate
    are refused before any service sees them, and each error names the action it answers."""
    socket, _version = await practice_socket("Ike", "g-parse")
    timeout = {"type": "timeout", "timer": "turn"}
    surrogate = {"type": "draw", "x": "SURROGATE"}
    frames = {
        "p-timeout": json.dumps(
            {"type": "action", "action": timeout, "action_id": "p-timeout", "version": 1}
        ),
        "p-version": json.dumps({"type": "action", "action": {"type": "draw"}, "action_id": "p-version"}),
        "p-surrogate": json.dumps(
            {"type": "action", "action": surrogate, "action_id": "p-surrogate", "version": 1}
        ).replace("SURROGATE", "\\ud800"),
    }
    for action_id, text in frames.items():
        await socket.send_to(text_data=text)
        answer = await not_snapshot(socket)
        assert (answer["type"], answer.get("action_id")) == ("error", action_id), answer
    await socket.disconnect()


async def practice_socket(name: str, guest_id: str) -> tuple[WebsocketCommunicator, int]:
    """A guest's socket at their started One Card practice table, its snapshot and chat read."""
    player, cookie = await as_guest(name, guest_id)
    table_id = await started_practice(player, "one_card")
    socket = communicator(f"/ws/tables/{table_id}/", cookie)
    assert (await socket.connect(timeout=10))[0]
    version = (await socket.receive_json_from(timeout=10))["version"]
    await socket.receive_json_from(timeout=10)  # move log
    await socket.receive_json_from(timeout=10)  # chat history
    return socket, version


async def not_snapshot(socket: WebsocketCommunicator) -> dict:
    """The next frame that is not a snapshot (the bots keep moving the table)."""
    while True:
        frame = await socket.receive_json_from(timeout=5)
        if frame["type"] != "snapshot":
            return frame
