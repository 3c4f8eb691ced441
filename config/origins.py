"""The websocket Origin check: scheme, host and port, not the host alone (issue 13).

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host with ALLOWED_HOSTS, so
a page of any other app on the same host (another port, or http beside https) could open an
authenticated socket with the player's cookies. Here a socket is accepted only when its Origin
is exactly (scheme, host, port) one of ``settings.SITE_ORIGINS`` or the socket's own origin —
the scheme of the connection (ws → http, wss → https) and its Host header, that host being in
ALLOWED_HOSTS. Behind a TLS proxy that speaks plain ws to daphne, list the public origin
(``https://tapete.example``) in SITE_ORIGINS. A socket without an Origin header (not a browser)
is refused too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """``(scheme, host, port)`` with the default port filled in, or None for a malformed origin."""
    try:
        parts = urlsplit(value.strip())
        scheme = parts.scheme.lower()
        host = (parts.hostname or "").lower()
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if scheme not in {"http", "https"} or not host or port is None:
        return None
    return scheme, host, port


def own_origin(scope: Mapping[str, Any]) -> Origin | None:
    """The origin a page of this very server has: the socket's scheme and its Host header."""
    headers = dict(scope.get("headers") or [])
    host_header = headers.get(b"host", b"").decode("latin1")
    host, _port = split_domain_port(host_header)
    if not host or not validate_host(host, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return parse_origin(f"{scheme}://{host_header}")


def origin_allowed(origin: str, scope: Mapping[str, Any], site_origins: Iterable[str]) -> bool:
    parsed = parse_origin(origin)
    if parsed is None:
        return False
    allowed = {o for o in (parse_origin(s) for s in site_origins) if o is not None}
    own = own_origin(scope)
    if own is not None:
        allowed.add(own)
    return parsed in allowed


class SiteOriginValidator:
    """ASGI middleware for websockets: refuse (403 at the handshake) a socket from another origin."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator is for websockets only")
        origin = dict(scope.get("headers") or []).get(b"origin", b"").decode("latin1")
        if origin and origin_allowed(origin, scope, settings.SITE_ORIGINS):
            return await self.application(scope, receive, send)
        denier = WebsocketDenier()
        return await denier(scope, receive, send)
