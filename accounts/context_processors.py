from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .guests import current_guest


def guest(request: HttpRequest) -> dict[str, Any]:
    """The visitor's guest identity, if they picked one (PF-61)."""
    return {"guest": current_guest(request)}
