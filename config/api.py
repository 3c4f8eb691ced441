"""API-wide glue (issue 13, items 10 and 11): every /api/ error leaves as JSON with a readable
``detail``, and a JSON body is bounded in size and nesting *before* it is parsed.

- ``config.parsers.BoundedJSONParser`` is the API's JSON parser (a module of its own: DRF's
  settings import it while ``rest_framework.views`` loads).
- ``exception_handler`` flattens DRF's nested validation errors into ``{"field[0].name": [...]}``
  of plain strings (no ``ErrorDetail`` reprs) with one summary line in ``detail``.
- ``handler400``/``handler403``/``handler404``/``handler500`` (wired in ``config/urls.py``) answer
  JSON under /api/ (unknown paths, ``RequestDataTooBig`` as 413) and the site's pages elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

T = TypeVar("T")


def flatten_errors(data: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error structure as ``{"players[0]": ["…"], "points.Ana": ["…"]}``."""
    flat: dict[str, list[str]] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            name = f"{prefix}[{key}]" if isinstance(key, int) else (f"{prefix}.{key}" if prefix else str(key))
            for field, messages in flatten_errors(value, name).items():
                flat.setdefault(field, []).extend(messages)
    elif isinstance(data, list) and data and all(isinstance(item, (str, ErrorDetail)) for item in data):
        flat[prefix or "detail"] = [str(item) for item in data]
    elif isinstance(data, list):
        for index, value in enumerate(data):
            for field, messages in flatten_errors(value, f"{prefix}[{index}]").items():
                flat.setdefault(field, []).extend(messages)
    elif data not in (None, ""):
        flat[prefix or "detail"] = [str(data)]
    return flat


def _first_code(data: Any) -> str:
    if isinstance(data, ErrorDetail):
        return str(data.code)
    values = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    for value in values:
        code = _first_code(value)
        if code:
            return code
    return ""


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        errors = flatten_errors(response.data)
        field, messages = next(iter(errors.items()), ("detail", [_("Datos no válidos.")]))
        summary = messages[0] if field in ("detail", "non_field_errors") else f"{field}: {messages[0]}"
        response.data = {"detail": summary, "code": _first_code(response.data) or "invalid", "errors": errors}
    elif isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        response.data = {**response.data, "detail": str(detail)}
        if isinstance(detail, ErrorDetail):
            response.data.setdefault("code", str(detail.code))
    return response


def paginate(request: Request, view: Any, items: Sequence[T], render: Callable[[T], Any]) -> Response:
    """One page of ``items`` in DRF's page envelope (``count``, ``next``, ``previous``, ``results``),
    the same for every list endpoint (issue 13 item 13); a page past the end is a JSON 404."""
    paginator = api_settings.DEFAULT_PAGINATION_CLASS()
    page = paginator.paginate_queryset(items, request, view=view) or []
    return paginator.get_paginated_response([render(item) for item in page])


# -- Django's error views: JSON under /api/ --------------------------------------------------
def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _json_error(detail: str, code: str, status_code: int) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status_code)


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _json_error(_("El cuerpo de la petición es demasiado grande."), "too_large", 413)
    return _json_error(_("Petición no válida."), "bad_request", 400)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return _json_error(_("No tienes permiso para hacer esto."), "permission_denied", 403)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return _json_error(_("No existe."), "not_found", 404)


def handler500(request: HttpRequest) -> HttpResponse:
    if not _is_api(request):
        return defaults.server_error(request)
    return _json_error(_("Algo ha fallado en el servidor."), "server_error", 500)
