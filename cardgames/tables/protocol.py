"""The table socket's protocol: client frames parsed and checked, server frames built.

Pure (no Django, no I/O). Documented in docs/protocol.md; ``PROTOCOL_VERSION`` goes up
when a frame changes shape. Every server frame carries the table ``version``.

Client → server::

    {"type": "action", "action": {...}, "action_id": "a1b2", "version": 17}
    {"type": "sync", "version": 17}          # heartbeat / gap: a snapshot if the table moved on
    {"type": "chat", "text": "¡hola!"}
    {"type": "log"}                          # the current deal's move log, please
    {"type": "hint"}                         # the normal bot's choice for my turn, not played
    {"type": "ping"}

Server → client::

    {"type": "snapshot", "version": 17, "table": <envelope>}
    {"type": "ack", "version": 18, "action_id": "a1b2"}
    {"type": "chat", "version": 17, "message": {"id", "name", "text", "at"}}
    {"type": "log", "version": 17, "entries": [...]}    # newest first
    {"type": "hint", "version": 17, "action": {...}}    # or "action": null
    {"type": "error", "version": 17, "code": "stale", "message": "…", "action_id": "a1b2"}
    {"type": "pong", "version": 17}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

PROTOCOL_VERSION: Final[int] = 2
MAX_FRAME_BYTES: Final[int] = 4096
MAX_DEPTH: Final[int] = 8
MAX_ACTION_ID: Final[int] = 64
MAX_CHAT_CHARS: Final[int] = 300
#: per socket: at most RATE_FRAMES frames in RATE_SECONDS (a flood gets ``rate_limited``)
RATE_FRAMES: Final[int] = 20
RATE_SECONDS: Final[float] = 2.0

CLIENT_TYPES: Final[frozenset[str]] = frozenset({"action", "sync", "chat", "log", "hint", "ping"})


class ProtocolError(ValueError):
    """A frame the server refuses; ``code`` is stable (docs/protocol.md). ``action_id``: the id an
    action frame claimed, when it got that far, so the error that answers it can name it."""

    def __init__(self, code: str, message: str, action_id: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.action_id = action_id


@dataclass(frozen=True)
class ClientFrame:
    type: str
    action: dict[str, Any] | None = None
    action_id: str = ""
    version: int | None = None
    text: str = ""


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of JSON data, stopping once past ``limit``."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def _version(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError("bad_message", "'version' is a non-negative integer.")
    return value


def parse_client_frame(text: str | None) -> ClientFrame:
    """The frame in ``text``, or ProtocolError with the reason a client can act on."""
    if text is None or len(text.encode("utf-8", "replace")) > MAX_FRAME_BYTES:
        raise ProtocolError("bad_frame", f"Send JSON text frames of at most {MAX_FRAME_BYTES} bytes.")
    if text.count("[") + text.count("{") > 200:
        raise ProtocolError("bad_message", "That frame is nested too deeply.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "That frame is not JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", "A message is an object with a 'type'.")
    try:
        return _parse_message(text, data)
    except ProtocolError as exc:
        # an action frame refused for any other reason still gets its id back: its sender stops
        # waiting for the answer (docs/protocol.md)
        exc.action_id = _claimed_action_id(data)
        raise


def _claimed_action_id(data: dict[str, Any]) -> str:
    """The ``action_id`` of an action frame, if it is one an answer can carry (1–64 characters)."""
    claimed = data.get("action_id")
    if data.get("type") != "action" or not isinstance(claimed, str):
        return ""
    return claimed if 0 < len(claimed) <= MAX_ACTION_ID else ""


def _parse_message(text: str, data: dict[str, Any]) -> ClientFrame:
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ProtocolError("bad_message", "That frame is nested too deeply.")
    # JSON text holds a NUL only escaped; PostgreSQL stores none (text or jsonb): refused here,
    # not as a database error in the middle of a move
    if "\\u0000" in text:
        raise ProtocolError("bad_message", "That frame contains a NUL character.")
    try:  # an escaped lone surrogate ("\\ud800") decodes to a string no database can encode
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("bad_message", "That frame is not valid Unicode text.") from None
    kind = data["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"Unknown message type {kind[:40]!r}.")
    if kind == "action":
        action = data.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ProtocolError("bad_action", "'action' is an object with a 'type'.")
        if action["type"] == "timeout":
            raise ProtocolError("bad_action", "Timeouts are the server's to apply.")
        action_id = data.get("action_id")
        if not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID:
            raise ProtocolError("bad_message", f"'action_id' is a string of 1 to {MAX_ACTION_ID} characters.")
        version = _version(data.get("version"))
        if version is None:
            raise ProtocolError("bad_message", "An action carries the 'version' it was made against.")
        return ClientFrame("action", action=action, action_id=action_id, version=version)
    if kind == "chat":
        text_value = data.get("text")
        if not isinstance(text_value, str):
            raise ProtocolError("bad_message", "'text' is a string.")
        return ClientFrame("chat", text=text_value)
    return ClientFrame(kind, version=_version(data.get("version")))


class RateLimiter:
    """At most ``frames`` frames in any ``seconds`` (a sliding window of times)."""

    def __init__(self, frames: int = RATE_FRAMES, seconds: float = RATE_SECONDS) -> None:
        self.frames = frames
        self.seconds = seconds
        self._times: list[float] = []

    def allow(self, now: float) -> bool:
        self._times = [t for t in self._times if now - t < self.seconds]
        if len(self._times) >= self.frames:
            return False
        self._times.append(now)
        return True


# -- server frames ------------------------------------------------------------
def encode_frame(frame: dict[str, Any]) -> str:
    """A server frame as the text the socket sends (the writer encodes a move's snapshots once)."""
    return json.dumps(frame)


def snapshot_frame(envelope: dict[str, Any]) -> dict[str, Any]:
    return {"type": "snapshot", "version": envelope["version"], "table": envelope}


def ack_frame(version: int, action_id: str) -> dict[str, Any]:
    return {"type": "ack", "version": version, "action_id": action_id}


def error_frame(version: int | None, code: str, message: str, action_id: str = "") -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "version": version, "code": code, "message": message}
    if action_id:
        frame["action_id"] = action_id
    return frame


def chat_frame(version: int, message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "chat", "version": version, "message": message}


def log_frame(version: int, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The current deal's move log up to ``version``, newest first (docs/protocol.md)."""
    return {"type": "log", "version": version, "entries": entries}


def hint_frame(version: int, action: dict[str, Any] | None) -> dict[str, Any]:
    """The move suggested for the viewer's turn at ``version`` (None: nothing now), not played."""
    return {"type": "hint", "version": version, "action": action}
