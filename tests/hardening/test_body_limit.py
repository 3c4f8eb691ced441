"""Issue 26 item 4: request bodies are bounded before they are read (config/bodylimit.py).

An anonymous 1 GB POST took daphne from 342 to 1,196 MB of memory, which it kept. Now a body
over ``REQUEST_MAX_BODY_BYTES`` is a 413 with a message: refused from its Content-Length
before any of it is read, or stopped at the limit when it comes chunked. On a real daphne a
1 GB upload, streamed by the test, leaves daphne's memory within 20 MB of where it was.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from bench.live_harness import free_port, rss_kb
from config.bodylimit import BodyLimit
from tests.services.processes import embedded_env, spawn_daphne, stop_group

GIB = 1024**3
CSRF = b"GET /api/auth/csrf HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
CHUNK = 256 * 1024


# -- the ASGI middleware, in front of any server --------------------------------------------------
class App:
    """An application that reads the whole body, as Django's handler does, then answers 200."""

    def __init__(self) -> None:
        self.body = b""
        self.disconnected = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected = True
                return
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def _call(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[App, list[dict], int]:
    app = App()
    sent: list[dict] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= len(chunks):
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/x", "headers": headers}
    await BodyLimit(app)(scope, receive, send)
    return app, sent, read


@pytest.mark.asyncio
async def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read(settings) -> None:  # type: ignore[no-untyped-def]
    settings.REQUEST_MAX_BODY_BYTES = 1000
    headers = [(b"content-length", b"1001"), (b"accept-language", b"en-GB,en;q=0.9")]
    app, sent, read = await _call(headers, [b"x" * 1001])
    assert read == 0 and app.body == b""
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"]) == {
        "detail": "The request body is too large (at most 1000 bytes).",
        "code": "too_large",
    }


@pytest.mark.asyncio
async def test_a_chunked_body_is_stopped_at_the_limit_and_the_app_hears_a_disconnect(settings) -> None:  # type: ignore[no-untyped-def]
    settings.REQUEST_MAX_BODY_BYTES = 1000
    app, sent, read = await _call([], [b"x" * 400] * 10)  # no Content-Length: 4,000 bytes
    assert read == 3  # 1,200 bytes read: stopped at the chunk that passed the limit
    assert app.disconnected and app.body == b"x" * 800
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]
    assert json.loads(sent[1]["body"])["code"] == "too_large"
    assert "máximo 1000 bytes" in json.loads(sent[1]["body"])["detail"]  # Spanish by default


@pytest.mark.asyncio
async def test_a_body_within_the_limit_reaches_the_app_whole(settings) -> None:  # type: ignore[no-untyped-def]
    settings.REQUEST_MAX_BODY_BYTES = 1000
    app, sent, _ = await _call([(b"content-length", b"1000")], [b"a" * 600, b"b" * 400])
    assert app.body == b"a" * 600 + b"b" * 400
    assert sent[0]["status"] == 200


# -- a real daphne ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """daphne on the embedded defaults, as bin/run starts it: (port, pid)."""
    tmp = tmp_path_factory.mktemp("body-limit")
    proc = spawn_daphne(embedded_env(tmp, TABLE_RUNNER="manual"), tmp, free_port())
    assert proc.port is not None
    try:
        deadline = time.monotonic() + 90
        while _status(proc.port, CSRF) != 200:
            assert proc.alive and time.monotonic() < deadline, proc.tail()
            time.sleep(0.2)
        yield proc.port, proc.popen.pid
    finally:
        stop_group(proc.popen, grace=10)


def _status(port: int, request: bytes) -> int:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(request)
            return int(sock.recv(4096).split(b" ", 2)[1])
    except (OSError, IndexError, ValueError):
        return 0


def upload(port: int, *, size: int, chunked: bool) -> tuple[int, dict[str, Any], int]:
    """POST ``size`` bytes, streamed (never held whole), until the server answers or has it all;
    returns (status, JSON body, bytes of the body sent, chunk framing included)."""
    head = b"POST /cuenta/entrar/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
    head += b"Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n".encode()
    piece = b"\0" * CHUNK
    frame = f"{CHUNK:x}\r\n".encode() + piece + b"\r\n" if chunked else piece
    answer = b""
    sent = 0
    pending = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _complete(answer):
            sending = sent < size or pending
            readable, writable, _ = select.select([sock], [sock] if sending else [], [], 1.0)
            if readable:
                try:
                    data = sock.recv(65536)
                except (ConnectionResetError, BlockingIOError):
                    data = b""
                if not data:
                    break
                answer += data
            elif writable:
                pending = pending or frame
                try:
                    n = sock.send(pending)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    size = sent  # the server stopped reading: wait for its answer
                    pending = b""
                    continue
                pending = pending[n:]
                sent += n
    head_part, _, body = answer.partition(b"\r\n\r\n")
    status = int(head_part.split(b" ", 2)[1]) if head_part else 0
    return status, json.loads(body) if body.startswith(b"{") else {}, sent


def _complete(answer: bytes) -> bool:
    head, sep, body = answer.partition(b"\r\n\r\n")
    return bool(sep) and len(body) >= _length(head)


def _length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def test_a_1_gb_upload_is_refused_and_leaves_daphne_within_20_mb(daphne: tuple[int, int]) -> None:
    port, pid = daphne
    limit = settings.REQUEST_MAX_BODY_BYTES
    # a body under the limit still reaches the site (the form refuses it without a CSRF token)
    status, _, _ = upload(port, size=limit // 2, chunked=False)
    assert status == 403
    before = rss_kb(pid)

    # a declared 1 GB: answered 413 from the headers, before the body is read
    status, body, sent = upload(port, size=GIB, chunked=False)
    assert status == 413 and body["code"] == "too_large", (status, body)
    assert f"{limit} bytes" in body["detail"]
    assert sent < 64 * 1024 * 1024, sent  # the client heard the answer and stopped early

    # 1 GB chunked (no length): read up to the limit, then answered 413
    status, body, sent = upload(port, size=GIB, chunked=True)
    assert status == 413 and body["code"] == "too_large", (status, body)
    assert limit < sent < 64 * 1024 * 1024, sent

    time.sleep(0.5)
    grew_mb = (rss_kb(pid) - before) / 1024
    assert grew_mb < 20, f"daphne grew by {grew_mb:.1f} MB"
    # and it still serves
    assert _status(port, CSRF) == 200
