"""The API's one authentication: the session, with CSRF checked on every unsafe request.

Its own module (not ``accounts.api``) because DRF's settings import it while
``rest_framework.views`` loads (``REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request


class CsrfSessionAuthentication(SessionAuthentication):
    """Session auth that checks CSRF on unsafe methods for anonymous requests too."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        result = super().authenticate(request)
        if result is None and request.method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            self.enforce_csrf(request)
        return result
