"""The client's address and scheme behind a reverse proxy, believed only from a trusted one.

Behind nginx (deploy/nginx/tapete.conf) every connection reaches daphne from the proxy's own
address, and the per-address throttles (log-in, sign-up, sockets) would all key on it: one
bucket for the whole world. nginx appends the address it saw to ``X-Forwarded-For`` and says
the scheme in ``X-Forwarded-Proto``. ``TrustedProxyHeaders``, an ASGI middleware in front of
the whole site (HTTP and websockets), believes those headers only when the connection comes
from an address in ``TRUSTED_PROXIES`` (addresses or networks):

- ``scope["client"]`` becomes the rightmost address of ``X-Forwarded-For`` that is not itself
  a trusted proxy (what a client writes there itself stands to the left of what nginx
  appends, so it is never taken); Django's ``REMOTE_ADDR`` and every throttle read it;
- ``scope["scheme"]`` follows ``X-Forwarded-Proto`` (``https`` → ``https``/``wss``), so the
  websocket Origin check (config/origins.py) knows the page was served over https;
- from any other peer these headers are dropped before Django sees them, so settings that
  read them (``SECURE_PROXY_SSL_HEADER``) cannot be fooled by a client reaching daphne
  directly.

daphne's own ``--proxy-headers`` is not used: it believes ``X-Forwarded-For`` from any peer
and takes its *leftmost* entry, which the client writes (docs/deploy.md). The same design as
uvicorn's ``--forwarded-allow-ips``.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
FORWARDED_HEADERS = frozenset(
    {b"x-forwarded-for", b"x-forwarded-proto", b"x-forwarded-host", b"x-forwarded-port", b"forwarded"}
)


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted(address: str) -> bool:
    """Whether ``address`` is one of ``TRUSTED_PROXIES``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_from_chain(forwarded_for: str, peer: str) -> str:
    """The client in an ``X-Forwarded-For`` chain received from the trusted ``peer``: the
    rightmost entry that is not a trusted proxy (an unreadable entry stops the walk at the
    last hop that could be believed)."""
    last = peer
    for entry in reversed([e.strip() for e in forwarded_for.split(",") if e.strip()]):
        try:
            ipaddress.ip_address(entry)
        except ValueError:
            return last
        if not trusted(entry):
            return entry
        last = entry
    return last


def forwarded_scope(scope: dict[str, Any]) -> dict[str, Any]:
    """``scope`` as the proxy saw the connection (see the module's docstring)."""
    headers = list(scope.get("headers") or [])
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    if not peer or not trusted(peer):
        kept = [(name, value) for name, value in headers if name.lower() not in FORWARDED_HEADERS]
        return scope if len(kept) == len(headers) else {**scope, "headers": kept}
    values: dict[bytes, list[str]] = {}
    for name, value in headers:
        values.setdefault(name.lower(), []).append(value.decode("latin1"))
    out = dict(scope)
    if b"x-forwarded-for" in values:
        address = client_from_chain(",".join(values[b"x-forwarded-for"]), peer)
        if address != peer:
            out["client"] = [address, 0]  # the client's port is not forwarded
    proto = values.get(b"x-forwarded-proto", [""])[-1].strip().lower()
    if proto in {"http", "https"}:
        secure = proto == "https"
        if scope["type"] == "websocket":
            out["scheme"] = "wss" if secure else "ws"
        else:
            out["scheme"] = proto
    return out


class TrustedProxyHeaders:
    """ASGI middleware: ``forwarded_scope`` for every HTTP request and websocket."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            scope = forwarded_scope(scope)
        return await self.application(scope, receive, send)
