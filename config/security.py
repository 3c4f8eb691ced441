"""Response headers Django's SecurityMiddleware does not send: CSP and Permissions-Policy (issue 13).

Every response gets ``Content-Security-Policy`` (``settings.CONTENT_SECURITY_POLICY``: scripts and
styles only from our own static files, so an injected ``<script>`` or ``onclick=`` does not run)
and ``Permissions-Policy``, unless the view set its own. Offline practice's pages and worker also
allow WebAssembly's compilation (``'wasm-unsafe-eval'``, never JavaScript's ``eval``): Pyodide.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def policy_for(path: str) -> str:
    """The CSP of ``path``: offline practice's pages and worker may also compile WebAssembly (PF-62)."""
    if path.startswith(tuple(settings.CONTENT_SECURITY_POLICY_WASM_PATHS)):
        return str(settings.CONTENT_SECURITY_POLICY_WASM)
    return str(settings.CONTENT_SECURITY_POLICY)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", policy_for(request.path))
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
