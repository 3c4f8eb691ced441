"""Request bodies are bounded before they are read (issue 26 item 4).

An anonymous 1 GB POST took daphne from 342 to 1,196 MB, and it stayed there: the server read
the whole body before any limit of Django's or DRF's applied. No page or API of the site takes
more than ``REQUEST_MAX_BODY_BYTES`` (1 MiB; the API's JSON is bounded at 64 kB on top), so a
bigger body is refused with a 413 and a message, in two places:

- ``BodyLimit``, an ASGI middleware in front of Django: a ``Content-Length`` over the limit is
  refused before the body is read; a body without one (chunked) is counted as it streams and
  refused once past the limit, the application seeing a disconnect instead of the rest. This
  is what bounds the body under any ASGI server that streams bodies to the application.
- ``bound_daphne``: daphne (Twisted) receives the *whole* body into a file before it calls the
  application at all, and then queues all of it in memory as ASGI messages, so the middleware
  alone comes too late there. Its request class is replaced by one that refuses a declared
  length over the limit as soon as the headers are in, stops a chunked body at the limit, and
  answers 413 itself; what the client still sends is read and dropped for a moment (so it
  reads the answer instead of a reset, as nginx's lingering close does), then the connection
  is closed.

Behind nginx, ``client_max_body_size`` refuses the same bodies first (deploy/nginx/).
"""

from __future__ import annotations

import json
import logging
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)
#: seconds a refused upload is still read (and dropped) so that the client hears the 413
LINGER_SECONDS = 2.0


def max_body_bytes() -> int:
    return int(settings.REQUEST_MAX_BODY_BYTES)


def _language(headers: dict[bytes, bytes]) -> str:
    """The language the site would answer in: its cookie, else the browser's, else Spanish."""
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get(b"cookie", b"").decode("latin1"))
    except Exception:  # a malformed cookie header: fall back to the browser's language
        cookie = SimpleCookie()
    chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    supported = {code for code, _name in settings.LANGUAGES}
    if chosen is not None and chosen.value in supported:
        return chosen.value
    accept = headers.get(b"accept-language", b"").decode("latin1")
    for lang, _q in translation.trans_real.parse_accept_lang_header(accept):
        if lang.split("-")[0] in supported:
            return lang.split("-")[0]
    return settings.LANGUAGE_CODE


def too_large_body(headers: dict[bytes, bytes]) -> bytes:
    """The 413's JSON body, in the client's language."""
    with translation.override(_language(headers)):
        detail = _("El cuerpo de la petición es demasiado grande (máximo %(n)d bytes).") % {
            "n": max_body_bytes()
        }
    return json.dumps({"detail": detail, "code": "too_large"}).encode()


def declared_length(headers: dict[bytes, bytes]) -> int | None:
    """The Content-Length, or None when absent or not a number (the server refuses those)."""
    raw = headers.get(b"content-length")
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        return None


class BodyLimit:
    """ASGI middleware for HTTP: refuse a body over ``REQUEST_MAX_BODY_BYTES`` with a 413."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "http":
            return await self.application(scope, receive, send)
        limit = max_body_bytes()
        headers = dict(scope.get("headers") or [])
        length = declared_length(headers)
        if length is not None and length > limit:
            return await self._refuse(headers, send)  # the body is never read

        received = 0
        over = False
        started = False

        async def counted_receive() -> dict[str, Any]:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # the application hears a client gone; the 413 is ours to send
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: dict[str, Any]) -> None:
            nonlocal started
            if over:
                return  # whatever the application says after the refusal
            started = started or message["type"] == "http.response.start"
            await send(message)

        result = await self.application(scope, counted_receive, guarded_send)
        if over and not started:
            await self._refuse(headers, send)
        return result

    @staticmethod
    async def _refuse(headers: dict[bytes, bytes], send: Any) -> None:
        body = too_large_body(headers)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def bound_daphne() -> bool:
    """Under daphne, bound request bodies in its Twisted request class (see the module's
    docstring). Returns whether daphne was there to bound."""
    import sys

    if "daphne.server" not in sys.modules:  # not running under daphne
        return False
    from daphne import http_protocol

    if getattr(http_protocol.WebRequest, "bounded", False):
        return True
    http_protocol.WebRequest = _bounded_request_class(http_protocol.WebRequest)
    return True


def _bounded_request_class(base: type) -> type:
    from io import BytesIO

    from twisted.internet import reactor
    from twisted.web.http import Request

    class BoundedWebRequest(base):  # type: ignore[misc, valid-type]
        """daphne's request, refusing a body over the limit before it is buffered."""

        bounded = True
        _refused = False
        _received = 0

        def gotLength(self, length: int | None) -> None:
            if length is not None and length > max_body_bytes():
                self.content = BytesIO()
                # no "100 Continue" after the refusal: the client must not send the body
                self.requestHeaders.removeHeader(b"expect")
                self._refuse()
                return
            super().gotLength(length)

        def handleContentChunk(self, data: bytes) -> None:
            if self._refused:
                return  # dropped while the connection lingers
            self._received += len(data)
            if self._received > max_body_bytes():
                self.content.close()
                self.content = BytesIO()
                self._refuse()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
            if self._refused:
                return  # never handed to the application
            super().requestReceived(command, path, version)

        def connectionLost(self, reason: Any) -> None:
            if self._refused:  # daphne never knew this request: only Twisted's own clean-up
                Request.connectionLost(self, reason)
                return
            super().connectionLost(reason)

        def _refuse(self) -> None:
            self._refused = True
            headers = {
                name.lower(): values[0] for name, values in self.requestHeaders.getAllRawHeaders() if values
            }
            body = too_large_body(headers)
            transport = self.channel.transport
            transport.write(
                b"HTTP/1.1 413 Content Too Large\r\n"
                b"Content-Type: application/json\r\n"
                b"Content-Length: " + str(len(body)).encode() + b"\r\n"
                b"Connection: close\r\n\r\n" + body
            )
            log.warning("refused a request body over %d bytes", max_body_bytes())
            # the answer, then end of writing; what still comes is read and dropped until the
            # client closes or LINGER_SECONDS pass
            if hasattr(transport, "loseWriteConnection"):
                transport.loseWriteConnection()
            else:
                transport.loseConnection()
            reactor.callLater(LINGER_SECONDS, _abort, transport)

    return BoundedWebRequest


def _abort(transport: Any) -> None:
    if getattr(transport, "connected", False):
        transport.abortConnection()
