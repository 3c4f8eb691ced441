"""Behind a reverse proxy the site sees the client's address and scheme, believed only from a
proxy in ``TRUSTED_PROXIES`` (config/proxy.py; issue 26, "A production topology"). The real
nginx in front of two daphnes is tests/services/test_nginx_topology.py."""

from __future__ import annotations

from typing import Any

import pytest

from config.origins import origin_allowed
from config.proxy import client_from_chain, forwarded_scope


@pytest.fixture(autouse=True)
def _proxies(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    settings.ALLOWED_HOSTS = ["tapete.example"]


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "client": [peer, 51000],
        "headers": [(b"host", b"tapete.example"), *headers],
    }


def test_from_the_proxy_the_client_is_the_address_the_proxy_appended() -> None:
    seen = forwarded_scope(scope("127.0.0.1", (b"x-forwarded-for", b"203.0.113.7")))
    assert seen["client"] == ["203.0.113.7", 0]


def test_what_a_client_writes_in_x_forwarded_for_itself_is_never_taken() -> None:
    # nginx appends the address it saw to whatever the client sent
    forged = (b"x-forwarded-for", b"198.51.100.1, 198.51.100.2, 203.0.113.7")
    assert forwarded_scope(scope("127.0.0.1", forged))["client"] == ["203.0.113.7", 0]
    # a chain of trusted proxies (a balancer in 10/8 before nginx) is walked through
    chained = (b"x-forwarded-for", b"198.51.100.1, 203.0.113.7, 10.1.2.3")
    assert forwarded_scope(scope("127.0.0.1", chained))["client"] == ["203.0.113.7", 0]
    # an unreadable hop stops the walk at the last address that could be believed
    assert client_from_chain("203.0.113.7, not-an-ip", "127.0.0.1") == "127.0.0.1"


def test_from_any_other_peer_the_forwarded_headers_are_dropped() -> None:
    direct = scope(
        "203.0.113.50",
        (b"x-forwarded-for", b"127.0.0.1"),
        (b"x-forwarded-proto", b"https"),
        (b"accept", b"*/*"),
    )
    seen = forwarded_scope(direct)
    assert seen["client"] == ["203.0.113.50", 51000]
    assert seen["scheme"] == "http"
    # so Django's SECURE_PROXY_SSL_HEADER cannot be fooled by a client reaching daphne itself
    assert seen["headers"] == [(b"host", b"tapete.example"), (b"accept", b"*/*")]


def test_the_proxys_scheme_makes_a_websocket_wss_so_the_https_page_may_open_it() -> None:
    via_proxy = forwarded_scope(
        scope(
            "127.0.0.1",
            (b"x-forwarded-proto", b"https"),
            (b"x-forwarded-for", b"203.0.113.7"),
            kind="websocket",
        )
    )
    assert via_proxy["scheme"] == "wss"
    assert origin_allowed("https://tapete.example", via_proxy, []) is True
    assert origin_allowed("http://tapete.example", via_proxy, []) is False
    plain = forwarded_scope(scope("127.0.0.1", (b"x-forwarded-proto", b"http"), kind="websocket"))
    assert plain["scheme"] == "ws"
    assert forwarded_scope(scope("127.0.0.1", (b"x-forwarded-proto", b"https")))["scheme"] == "https"


def test_with_no_trusted_proxy_nothing_forwarded_is_believed(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TRUSTED_PROXIES = []
    seen = forwarded_scope(scope("127.0.0.1", (b"x-forwarded-for", b"203.0.113.7")))
    assert seen["client"] == ["127.0.0.1", 51000] and seen["headers"] == [(b"host", b"tapete.example")]
