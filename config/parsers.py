"""The API's JSON parser (issue 13 item 10): bounded in size and nesting *before* parsing.

At most ``API_MAX_BODY_BYTES`` bytes and ``API_MAX_JSON_DEPTH`` levels of ``[``/``{``, so a
5,000-deep body is a clean 400 (``too_deep``), never a ``RecursionError``, and a big one a 413.
Named by ``REST_FRAMEWORK`` in settings, so it must not import ``rest_framework.views``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser

# A JSON string, escapes included, or an unterminated one up to the end: the match never fails
# once it starts at a quote, so the scan stays linear on any input.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPENING = frozenset(b"[{")


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self) -> None:
        super().__init__(
            _("El cuerpo de la petición es demasiado grande (máximo %(n)d bytes).")
            % {"n": settings.API_MAX_BODY_BYTES},
            "too_large",
        )


def json_depth(raw: bytes, stop: int | None = None) -> int:
    """The deepest nesting of ``[``/``{`` in ``raw`` (brackets in strings skipped), without
    parsing; counting ends once past ``stop``."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)  # both in C
    depth = deepest = 0
    for byte in brackets:
        if byte in _OPENING:
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop is not None and deepest > stop:
                    break
        else:
            depth -= 1
    return deepest


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser behind a size and a depth limit checked on the raw bytes."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge()
        if json_depth(raw, settings.API_MAX_JSON_DEPTH) > settings.API_MAX_JSON_DEPTH:
            raise ParseError(
                _("El JSON está anidado demasiado (máximo %(n)d niveles).")
                % {"n": settings.API_MAX_JSON_DEPTH},
                "too_deep",
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json.loads(raw.decode(encoding))
        except (ValueError, RecursionError) as exc:
            raise ParseError(_("El cuerpo no es JSON válido."), "bad_json") from exc


class JSONOnlyNegotiation(DefaultContentNegotiation):
    """The API speaks JSON whatever ``Accept`` says: no 406 for a browser, no HTML errors."""

    def select_renderer(self, request: Any, renderers: list[Any], format_suffix: str | None = None) -> Any:
        renderer = renderers[0]
        return renderer, renderer.media_type
