"""Response headers Django's SecurityMiddleware does not send: CSP and Permissions-Policy (issue 13).

Every response gets ``Content-Security-Policy`` (``settings.CONTENT_SECURITY_POLICY``: scripts and
styles only from our own static files, so an injected ``<script>`` or ``onclick=`` does not run)
and ``Permissions-Policy``, unless the view set its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
