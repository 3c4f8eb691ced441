"""The real-service tier: proves a CI run really used PostgreSQL and Redis.

Skipped on the embedded defaults; with REQUIRE_SERVICES=1 (CI) a missing
service is a failure.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from django.db import connection

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_database_is_postgresql(require_postgres: None) -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


def test_channel_layer_is_redis_and_delivers(require_redis: str) -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisPubSubChannelLayer"

    async def round_trip() -> dict:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "probe", "token": "t"})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert asyncio.run(round_trip())["token"] == "t"


def test_a_quiet_channel_keeps_waiting_past_redis_py_s_socket_timeout(require_redis: str) -> None:
    """redis-py 8's default socket timeout is 5 s: with the core layer, a channel with no traffic
    for 5 s raised TimeoutError from ``receive`` and every table socket of a quiet daphne closed
    with 1011 (found by the fault tests: tests/services/test_faults.py). A quiet channel must
    simply keep waiting."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def wait_quietly() -> None:
        channel = await layer.new_channel()
        with pytest.raises(asyncio.TimeoutError):  # ours, not redis-py's
            await asyncio.wait_for(layer.receive(channel), timeout=8)

    asyncio.run(wait_quietly())


def test_celery_broker_and_cache_are_redis(require_redis: str) -> None:
    import redis
    from django.core.cache import cache

    from config.celery import app

    assert app.conf.broker_url.startswith("redis://")
    assert redis.Redis.from_url(require_redis).ping()
    key = f"probe-{uuid.uuid4()}"
    cache.set(key, 1, 10)
    assert redis.Redis.from_url(require_redis).keys(f"*{key}*")
