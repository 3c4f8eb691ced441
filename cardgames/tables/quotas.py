"""How many live rooms one person and one address may hold (issue 26: bots games cost the server).

A room is live while it waits or is played. A host holds at most ``TABLES_MAX_LIVE_ROOMS``
(``too_many_rooms``); an address at most ``TABLES_MAX_LIVE_ROOMS_PER_ADDRESS``, however many guest
identities it starts (``too_many_rooms_here``). The address's rooms are a list of table ids in the
cache (Redis in production, so every process counts the same ones), checked against the database
and written under a short per-address lock, so a burst of parallel creations cannot pass the bound
together. The list outlives a room's idle expiry (PF-54), so it never forgets a live room.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache

from accounts.identity import Player

from .errors import TableError
from .models import Table

LIVE = (Table.Status.WAITING, Table.Status.PLAYING)
#: how long the address's list is kept after its last new room: past the 4-hour idle close (PF-54)
MEMORY_SECONDS = 5 * 3600
#: a lock held longer than this was left by a process that died; it lapses
LOCK_SECONDS = 10
#: how long a creation waits for another from the same address before it gives up (``busy``)
WAIT_SECONDS = 3.0


def _key(address: str) -> str:
    return "rooms:address:" + hashlib.sha256(address.encode()).hexdigest()[:32]


@contextmanager
def _locked(key: str) -> Iterator[None]:
    deadline = time.monotonic() + WAIT_SECONDS
    while not cache.add(f"{key}:lock", 1, timeout=LOCK_SECONDS):
        if time.monotonic() > deadline:
            raise TableError("busy")
        time.sleep(0.02)
    try:
        yield
    finally:
        cache.delete(f"{key}:lock")


@contextmanager
def room_slot(*, player: Player, address: str) -> Iterator[list[int]]:
    """Hold a slot for one new room of ``player`` from ``address`` ("" for none: no address
    bound). Refuses when a bound is reached; the block appends the new room's id to the list it
    is given, and the address's list is saved when it ends."""
    key = _key(address or player.key)
    with _locked(key):
        hosted = Table.objects.filter(host_key=player.key, status__in=LIVE).count()
        if hosted >= int(settings.TABLES_MAX_LIVE_ROOMS):
            raise TableError("too_many_rooms")
        known = cache.get(key) if address else None
        live = list(Table.objects.filter(pk__in=known or [], status__in=LIVE).values_list("pk", flat=True))
        if address and len(live) >= int(settings.TABLES_MAX_LIVE_ROOMS_PER_ADDRESS):
            raise TableError("too_many_rooms_here")
        created: list[int] = []
        yield created
        if address and created:
            cache.set(key, live + created, timeout=MEMORY_SECONDS)
