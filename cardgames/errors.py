"""A refusal with a stable code and a player's message, shared by the table and queue services."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class CodedError(Exception):
    """A request a service refuses; nothing was changed. ``MESSAGES`` maps codes to messages."""

    MESSAGES: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = str(message) if message is not None else str(self.MESSAGES.get(code, code))
        super().__init__(self.message)

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.message}
