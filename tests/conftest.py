"""Shared fixtures: the real-service tier and the cache between tests.

Tests that need PostgreSQL, Redis or Chromium skip when those are missing,
unless REQUIRE_SERVICES=1 (set by .ci/run), which turns the skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import override_settings

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Folders whose tests never touch a database, a cache or a channel layer: the pure engines, bots
# and benchmark loops (tests/tables/test_purity.py keeps them free of Django). Their results do not
# depend on the services, so CI's real-service tier leaves them to the first tier.
PURE_FOLDERS = ("engines", "bots", "bench", "rulezz", "practice")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(config.rootpath).parts
        if len(parts) > 2 and parts[0] == "tests" and parts[1] in PURE_FOLDERS:
            item.add_marker(pytest.mark.pure)


def missing_service(reason: str) -> None:
    """Skip, or fail when the run promised the real services."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def require_postgres() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing_service("DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def require_redis() -> str:
    if not settings.REDIS_URL:
        missing_service("REDIS_URL is not set")
    return settings.REDIS_URL


@pytest.fixture
def chromium_path() -> str:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        missing_service(f"Chromium is not installed at {CHROMIUM}")
    return CHROMIUM if os.path.exists(CHROMIUM) else str(shutil.which("chromium"))


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Throttling counters live in the cache: every test starts with none.

    A fresh key prefix per test instead of ``cache.clear()``: with Redis the cache is
    shared by the parallel workers (and clear() would flush the whole database).
    """
    caches = {
        name: {**conf, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"} for name, conf in settings.CACHES.items()
    }
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _fresh_socket_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test counts its own open sockets (accounts.socket_quota): one that leaves a socket
    open must not fill another test's address or session."""
    from accounts import socket_quota

    monkeypatch.setattr(socket_quota, "_ledger", socket_quota.Ledger())


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings) -> None:  # type: ignore[no-untyped-def]
    """Passwords the tests set are hashed with MD5, as Django's testing docs advise: PBKDF2's
    million rounds cost a third of a second a hash here, a third of the suite's time. PBKDF2
    stays second so hashes made by the site's own processes (daphnes the tests start) still check;
    those processes keep the production hashers."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _hard_bots_think_briefly(settings) -> None:  # type: ignore[no-untyped-def]
    """Searching (hard) bots at the tests' tables get 5 ms a decision instead of the server's
    150 ms (``BOT_HARD_BUDGET_SECONDS``): whole games at hard tables stay quick."""
    settings.BOT_HARD_BUDGET_SECONDS = 0.005


@pytest.fixture(autouse=True)
def _tables_driven_by_the_tests(settings) -> None:  # type: ignore[no-untyped-def]
    """Tests wake tables themselves (``services.wake_table(now=…)``): no in-process runner, no
    Celery countdown tasks; tests of the runners start them explicitly."""
    settings.TABLE_RUNNER = "manual"


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """A new channel layer for every test: channels_redis binds its locks to the event loop that
    first used them, and pytest-asyncio runs each async test on a loop of its own.

    With Redis, each test's layer has a key prefix of its own: the parallel workers share the
    Redis database, and each has its own test database where table ids start at 1 again, so a
    group such as table 1's would carry one worker's snapshots to the other's sockets.
    """
    from channels.layers import channel_layers

    layers = {
        name: {**conf, "CONFIG": {**conf["CONFIG"], "prefix": f"test-{uuid.uuid4().hex}"}}
        if "hosts" in conf.get("CONFIG", {})
        else conf
        for name, conf in settings.CHANNEL_LAYERS.items()
    }
    channel_layers.backends.clear()
    with override_settings(CHANNEL_LAYERS=layers):
        yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True, scope="session")
def _socket_threads_give_their_connections_back() -> Iterator[None]:
    """channels' test communicator swaps ``channels.db.close_old_connections`` for a no-op while
    it sends or receives (to spare a TestCase's connection). The swap is process-wide, so a
    socket's database thread that finishes a call meanwhile keeps its connection; when the test's
    event loop closes, that thread dies holding it, and a slot of the PostgreSQL pool is lost for
    good, until one pytest worker's pool is empty and its tests wait 30 s for a connection. Our
    socket tests are transactional and their database calls run on other threads, so the swap
    protects nothing here: it swaps in the real function."""
    import channels.testing.application as communicator
    from django.db import close_old_connections

    no_op = communicator.no_op
    communicator.no_op = close_old_connections
    yield
    communicator.no_op = no_op


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Before pytest-django creates the test database: Django keeps one PostgreSQL connection
    pool per alias and never re-reads its settings, so a pool opened before the switch to the
    test database (by anything that queried at collection) would point every test of this
    worker at the site's own database. Close it; the next connection opens one on the test
    database."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.vendor == "postgresql":
            connection.close()
            connection.close_pool()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """pytest-django's test database, whose PostgreSQL sessions are ended before it is dropped:
    the threads of async tests (``database_sync_to_async``) keep connections no test closes, and
    the drop then fails ("being accessed by other users") and leaves the database behind."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
