"""API-wide glue: every error leaves as JSON with a human ``detail`` message."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        # Field errors: keep them, and add one readable summary line.
        first = next(iter(response.data.values()), None)
        message = first[0] if isinstance(first, list) and first else first
        response.data = {"detail": str(message), "errors": response.data}
    return response
