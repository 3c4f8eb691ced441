"""A small HTTP client for tests against a real server (not a test module): cookies kept, the
CSRF token fetched from ``/api/auth/csrf`` and sent back, JSON in and out, every status
returned rather than raised. ``context`` serves https with a self-signed certificate;
``source`` is the local address to connect from (another loopback address: 127.0.0.2 …)."""

from __future__ import annotations

import functools
import http.client
import http.cookiejar
import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


class _SourceHTTPSHandler(urllib.request.HTTPSHandler):
    """https from a chosen local address."""

    def __init__(self, context: ssl.SSLContext | None, source: str) -> None:
        super().__init__(context=context)
        self.source = source
        self.tls = context

    def https_open(self, req: urllib.request.Request) -> Any:
        connection = functools.partial(http.client.HTTPSConnection, source_address=(self.source, 0))
        return self.do_open(connection, req, context=self.tls)


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]


class WebClient:
    def __init__(
        self,
        base: str,
        *,
        context: ssl.SSLContext | None = None,
        headers: dict[str, str] | None = None,
        source: str | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        handlers: list[Any] = [urllib.request.HTTPCookieProcessor(self.jar)]
        if source is not None:
            handlers.append(_SourceHTTPSHandler(context, source))
        elif context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)
        self.headers = dict(headers or {})
        self.csrf = ""

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        for name, value in {**self.headers, **(headers or {})}.items():
            request.add_header(name, value)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if method not in {"GET", "HEAD"} and self.csrf:
            request.add_header("X-CSRFToken", self.csrf)
        try:
            with self.opener.open(request, timeout=timeout) as response:
                status, raw, got = response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as err:
            status, raw, got = err.code, err.read(), dict(err.headers)
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return Answer(status, parsed, got)

    def ok(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        """The JSON of a 2xx answer; anything else fails the test with the answer."""
        answer = self.call(method, path, body, **kwargs)
        assert 200 <= answer.status < 300, (method, path, answer.status, answer.body)
        return answer.body

    def fetch_csrf(self) -> str:
        self.csrf = self.ok("GET", "/api/auth/csrf")["csrfToken"]
        return self.csrf

    def sign_up(self, username: str, password: str = "mesa-verde-2026") -> dict[str, Any]:
        self.fetch_csrf()
        user = self.ok("POST", "/api/auth/signup", {"username": username, "password": password})
        self.fetch_csrf()  # log-in rotates the token
        return user
