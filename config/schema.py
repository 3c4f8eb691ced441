"""The OpenAPI schema tells the truth (issue 13 item 15): session auth, error bodies, pages.

- ``CsrfSessionScheme``: our session authentication (``accounts.authentication.CsrfSessionAuthentication``)
  is the cookie scheme ``cookieAuth``, as DRF's own ``SessionAuthentication`` is.
- ``TapeteAutoSchema``: every operation also documents ``default``, the one error shape every
  /api/ error has (``config.api``): ``{"detail", "code", "errors"?}``.
- ``paginated(name, child)``: the DRF page envelope of a list endpoint, with ``PAGE_PARAMETER``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers


class CsrfSessionScheme(SessionScheme):
    target_class = "accounts.authentication.CsrfSessionAuthentication"


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="One readable line (the first field error, if any).")
    code = serializers.CharField(required=False, help_text="A stable code for programs.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Validation errors by field path, e.g. {"players[0]": ["…"]}.',
    )


class TapeteAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        responses.setdefault(
            "default",
            self._get_response_for_code(ErrorSerializer, "default", direction=direction),
        )
        return responses


PAGE_PARAMETER = OpenApiParameter("page", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False)


def paginated(name: str, child: serializers.Field | serializers.Serializer) -> serializers.Serializer:
    """The schema of a page of ``child`` items (DRF's ``PageNumberPagination`` envelope)."""
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializers.ListField(child=child),
        },
    )
