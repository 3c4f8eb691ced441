"""The socket protocol's parser (cardgames/tables/protocol.py, docs/protocol.md): pure, no Django."""

from __future__ import annotations

import json

import pytest

from cardgames.tables.protocol import ProtocolError, parse_client_frame

ACTION = {"type": "action", "action": {"type": "draw"}, "action_id": "a1", "version": 3}


def test_a_well_formed_action_is_parsed() -> None:
    frame = parse_client_frame(json.dumps(ACTION))
    assert (frame.type, frame.action, frame.action_id, frame.version) == ("action", {"type": "draw"}, "a1", 3)


@pytest.mark.parametrize(
    "frame",
    [
        {**ACTION, "action_id": "\x00"},  # found by the fuzz test: a database error mid-move
        {**ACTION, "action": {"type": "draw", "note": "a\x00b"}},
        {**ACTION, "action": {"type": "\x00"}},
        {"type": "chat", "text": "hola\x00"},
        {"type": "sync", "version": 1, "\x00": 1},
    ],
)
def test_a_nul_anywhere_in_a_frame_is_refused_before_any_service_sees_it(frame: dict[str, object]) -> None:
    """PostgreSQL stores no NUL in text or jsonb: such a frame is a bad message, not a server error."""
    with pytest.raises(ProtocolError) as refused:
        parse_client_frame(json.dumps(frame))
    assert refused.value.code == "bad_message"


def test_an_escaped_backslash_before_u0000_is_refused_too_and_that_is_all() -> None:
    """The check reads the JSON text: the six characters \\u0000 as text are refused as well,
    a harmless false positive; every other escape passes."""
    with pytest.raises(ProtocolError):
        parse_client_frame(json.dumps({**ACTION, "action_id": "\\u0000"}))
    assert parse_client_frame(json.dumps({**ACTION, "action_id": "\u00e9\u0001"})).action_id == "é\x01"


@pytest.mark.parametrize("escaped", ['"\\ud800"', '"a\\udfffb"', '"\\ude00\\ud83d"'])
def test_an_escaped_lone_surrogate_is_refused(escaped: str) -> None:
    """Valid JSON, yet no UTF-8 text: PostgreSQL could not store it (a bad message, not a crash)."""
    text = '{"type": "action", "action": {"type": "draw"}, "action_id": ' + escaped + ', "version": 3}'
    with pytest.raises(ProtocolError) as refused:
        parse_client_frame(text)
    assert refused.value.code == "bad_message"


def test_an_emoji_as_an_escaped_surrogate_pair_is_fine() -> None:
    text = '{"type": "chat", "text": "hola \\ud83d\\ude00"}'
    assert parse_client_frame(text).text == "hola \U0001f600"


def _action(action: object, **fields: object) -> str:
    return json.dumps({"type": "action", "action": action, "action_id": "t1", "version": 3, **fields})


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (_action({"type": "timeout", "timer": "turn"}), "bad_action"),
        (_action("draw"), "bad_action"),
        (_action({"type": "draw"}, version=None), "bad_message"),
        (_action({"type": "draw"}, version=-1), "bad_message"),
        (_action({"type": "draw", "x": "SURROGATE"}).replace("SURROGATE", "\\ud800"), "bad_message"),
        (_action({"type": "draw", "x": "a\x00"}), "bad_message"),
    ],
)
def test_an_action_frame_refused_while_parsing_names_its_action_id(text: str, code: str) -> None:
    """Issue 26 (12): docs/protocol.md promises the action_id on every error answering an action."""
    with pytest.raises(ProtocolError) as refused:
        parse_client_frame(text)
    assert (refused.value.code, refused.value.action_id) == (code, "t1")


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "action", "action": {"type": "draw"}, "action_id": "", "version": 3}',
        '{"type": "action", "action": {"type": "draw"}, "action_id": 7, "version": 3}',
        '{"type": "action", "action": {"type": "draw"}, "action_id": "' + "x" * 65 + '", "version": 3}',
        '{"type": "chat", "text": 3, "action_id": "t1"}',
    ],
)
def test_no_action_id_is_claimed_for_a_frame_that_has_none_to_give(text: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_frame(text)
    assert refused.value.action_id == ""
