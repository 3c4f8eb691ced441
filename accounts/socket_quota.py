"""Open websockets per session and per address, counted across daphne processes (issue 26).

600 sockets of one user took ``GET /api/me`` from 0.04 s to 5.6 s. A socket opens only while its
session has fewer than ``SOCKETS_MAX_PER_SESSION`` open and its address fewer than
``SOCKETS_MAX_PER_ADDRESS`` (a page keeps two: its table's and the lobby's); else it is accepted,
told ``too_many_sockets`` and closed with 4429, before any database is asked who it is.

The counts must hold across processes and must not leak when one dies. Each process counts its own
open sockets in memory and publishes its counts in the cache (Redis in production) under keys of
its own that expire after ``SOCKET_LEASE_SECONDS``; a task refreshes them (and the process's entry
in the list of live processes) three times a lease. A socket's totals are its process's counts plus
every other live process's published ones. A process that dies stops refreshing: its sockets stop
counting within a lease, and nothing needs cleaning up. Two processes admitting at the same
instant may each pass the bound by one: a bound, not a ledger.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import threading
import time
import uuid
from collections import Counter
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.http.cookie import parse_cookie
from django.utils.translation import gettext as _

from .throttling import socket_ip

log = logging.getLogger(__name__)
PROCESSES_KEY = "sockets:processes"
#: the close code of a socket refused for too many open ones (the pages retry later)
CLOSE_CODE = 4429


def _lease() -> float:
    return float(settings.SOCKET_LEASE_SECONDS)


def _expiry() -> int:
    """A lease as a cache timeout: whole seconds (Redis's cache takes no fractions)."""
    return max(1, math.ceil(_lease()))


def subjects_of(scope: dict[str, Any]) -> dict[str, int]:
    """The counts a socket takes a place in, with their bounds: its session's (from the session
    cookie, hashed as ``accounts.sessions.session_fingerprint`` does) and its address's."""
    address = hashlib.sha256(socket_ip(scope).encode()).hexdigest()[:32]
    subjects = {"a:" + address: int(settings.SOCKETS_MAX_PER_ADDRESS)}
    for name, value in scope.get("headers") or ():
        if name == b"cookie":
            key = parse_cookie(value.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
            if key:
                digest = hashlib.sha256(key.encode()).hexdigest()[:32]
                subjects["s:" + digest] = int(settings.SOCKETS_MAX_PER_SESSION)
    return subjects


class Ledger:
    """This process's open sockets by subject, and what it has published of them."""

    def __init__(self) -> None:
        self.process = uuid.uuid4().hex
        self.counts: Counter[str] = Counter()
        self.others: list[str] = []  # the other live processes, as last read
        self.lock = threading.Lock()

    def _key(self, subject: str, process: str) -> str:
        return f"sockets:n:{subject}:{process}"

    def acquire(self, subjects: dict[str, int]) -> str | None:
        """Take a place in each count, or name the first that is full (nothing taken then)."""
        with self.lock:
            # one trip in the common case: the list of live processes comes with the counts of
            # those already known; a process that appeared since costs a second one
            known = list(self.others)
            published = cache.get_many([PROCESSES_KEY, *(self._key(s, p) for s in subjects for p in known)])
            self.others = self._alive_others(published.get(PROCESSES_KEY), time.time())
            new = [p for p in self.others if p not in known]
            if new:
                published.update(cache.get_many([self._key(s, p) for s in subjects for p in new]))
            for subject, bound in subjects.items():
                theirs = sum(int(published.get(self._key(subject, p), 0)) for p in self.others)
                if self.counts[subject] + theirs >= bound:
                    return subject
            for subject in subjects:
                self.counts[subject] += 1
            self._publish(list(subjects))
            return None

    def release(self, subjects: dict[str, int]) -> None:
        with self.lock:
            for subject in subjects:
                self.counts[subject] -= 1
            self._publish(list(subjects))
            for subject in subjects:
                if self.counts[subject] <= 0:
                    del self.counts[subject]

    def _publish(self, subjects: list[str]) -> None:
        lease = _expiry()
        alive = {self._key(s, self.process): self.counts[s] for s in subjects if self.counts[s] > 0}
        gone = [self._key(s, self.process) for s in subjects if self.counts[s] <= 0]
        if alive:
            cache.set_many(alive, timeout=lease)
        if gone:
            cache.delete_many(gone)

    def refresh(self, now: float | None = None) -> None:
        """Renew this process's published counts and its place in the list of live processes;
        learn the others (entries whose lease ran out are dropped: their processes died)."""
        now = time.time() if now is None else now
        lease = _expiry()
        with self.lock:
            if self.counts:
                cache.set_many(
                    {self._key(s, self.process): n for s, n in self.counts.items() if n > 0}, timeout=lease
                )
            listed = json.loads(cache.get(PROCESSES_KEY) or "{}")
            alive = {p: t for p, t in listed.items() if float(t) > now}
            alive[self.process] = now + lease
            cache.set(PROCESSES_KEY, json.dumps(alive), timeout=int(lease * 2) + 1)
            self.others = [p for p in alive if p != self.process]

    def _alive_others(self, listed: str | None, now: float) -> list[str]:
        """The other processes whose lease has not run out, from the list's text in the cache."""
        entries = json.loads(listed or "{}")
        return [p for p, until in entries.items() if p != self.process and float(until) > now]


_ledger = Ledger()
_refresher: threading.Thread | None = None
_refresher_lock = threading.Lock()


def ledger() -> Ledger:
    """This process's ledger (a test gives each test a fresh one)."""
    return _ledger


def _refresh_forever() -> None:
    while True:
        try:
            ledger().refresh()
        except Exception:  # the cache went away for a moment: try again at the next beat
            log.exception("socket counts: refresh failed")
        time.sleep(_lease() / 3)


def ensure_refresher() -> None:
    """Start the process's refresher once: a daemon thread, so it lives exactly as long as the
    process (no event loop owns it) and stops with it, which is what lets a dead process's
    counts lapse."""
    global _refresher
    with _refresher_lock:
        if _refresher is None or not _refresher.is_alive():
            ledger().refresh()  # known to the other processes before its first socket
            _refresher = threading.Thread(target=_refresh_forever, name="tapete-socket-counts", daemon=True)
            _refresher.start()


class SocketQuotaMiddleware:
    """ASGI middleware for websockets: refuses a socket over its session's or address's bound."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await self.inner(scope, receive, send)
        subjects = subjects_of(scope)
        counts = ledger()
        full = await sync_to_async(_admit, thread_sensitive=False)(counts, subjects)
        if full is not None:
            return await _refuse(full, receive, send)
        try:
            return await self.inner(scope, receive, send)
        finally:
            with contextlib.suppress(Exception):  # a cache hiccup must not keep a place taken
                await sync_to_async(counts.release, thread_sensitive=False)(subjects)


def _admit(counts: Ledger, subjects: dict[str, int]) -> str | None:
    ensure_refresher()
    return counts.acquire(subjects)


async def _refuse(subject: str, receive: Any, send: Any) -> None:
    """Accept, say why (a browser gets no reason from a refused handshake), and close with 4429."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    if subject.startswith("s:"):
        text = _("Hay demasiadas páginas abiertas en tu sesión: cierra alguna.")
    else:
        text = _("Hay demasiadas páginas abiertas desde tu conexión: cierra alguna.")
    frame = {"type": "error", "version": None, "code": "too_many_sockets", "message": text}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": CLOSE_CODE})
