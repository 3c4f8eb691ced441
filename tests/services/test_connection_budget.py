"""Issue 26 item 1: PostgreSQL connections under ASGI stay within the site's budget.

Under daphne every HTTP request runs its view on a thread of its own; with persistent
connections (``CONN_MAX_AGE=60``) each such thread opened and kept a connection, and two
bursts of 40 anonymous requests reached PostgreSQL's ``too many clients`` (500s). Django's
docs: under ASGI, persistent connections off and the backend's own pool instead. Each process
now borrows from a pool of ``DATABASE_POOL_SIZE`` connections (docs/deploy.md, "Connection
budget"): 200 requests at once at one daphne answer without a 500, and the connections the
daphne holds — sampled during the burst and after it — never exceed the pool.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

import psycopg
import pytest
from django.conf import settings

from bench.live_harness import live_stack

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]
BURST = 200
PATH = "/api/league/standings/"


def _connections(admin: psycopg.Connection, database: str) -> int:
    row = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]).fetchone()
    return int(row[0]) if row else 0


def test_200_requests_at_once_at_one_daphne_stay_within_its_connection_budget(
    require_postgres: None, require_redis: str
) -> None:
    budget = settings.DATABASE_POOL_SIZE
    assert 0 < budget < BURST
    with live_stack(daphnes=1, worker=False, redis_url=require_redis) as stack:
        database = urlsplit(stack.database_url).path.lstrip("/")
        port = stack.ports[0]
        admin = psycopg.connect(stack.database_url.replace(f"/{database}", "/postgres"), autocommit=True)
        peak = 0
        sampling = True

        def sample() -> None:
            nonlocal peak
            while sampling:
                peak = max(peak, _connections(admin, database))
                time.sleep(0.005)

        statuses: Counter[int] = Counter()
        errors: list[str] = []
        start = threading.Barrier(BURST)

        def get() -> None:
            try:
                start.wait(timeout=60)
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                conn.request("GET", PATH)
                response = conn.getresponse()
                response.read()
                statuses[response.status] += 1
                conn.close()
            except Exception as exc:  # a refused or dropped connection is a failure too
                errors.append(repr(exc))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            # when 200 anonymous clients ask at the same moment
            clients = [threading.Thread(target=get) for _ in range(BURST)]
            for client in clients:
                client.start()
            for client in clients:
                client.join(timeout=180)
            time.sleep(1.0)  # what the daphne keeps once the burst is over
            after = _connections(admin, database)
        finally:
            sampling = False
            sampler.join(timeout=5)
            admin.close()

        # then every one was answered, none with a 5xx
        assert errors == [], errors[:5]
        assert statuses == Counter({200: BURST}), (statuses, stack.daphnes[0].tail())
        # and the daphne never held more connections than its pool, during the burst or after it
        assert 0 < peak <= budget, (peak, budget)
        assert after <= budget, (after, budget)
