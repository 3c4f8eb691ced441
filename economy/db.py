"""Database glue for the immutability triggers (migration 0005).

On SQLite the DELETE triggers ask ``economy_ledger_wiping()``, a function registered on
every connection here; it answers 1 only inside ``manage.py flush`` (our override of the
command), which is how test teardown empties a database. PostgreSQL needs nothing: its
teardown uses TRUNCATE, which row triggers do not see.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_state = threading.local()


def _wiping() -> int:
    return 1 if getattr(_state, "wiping", 0) else 0


@contextmanager
def ledger_wipe_allowed() -> Iterator[None]:
    """Let this thread delete ledger rows on SQLite: only for a whole-database flush."""
    previous = getattr(_state, "wiping", 0)
    _state.wiping = 1
    try:
        yield
    finally:
        _state.wiping = previous


def register_sqlite_functions(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: give SQLite connections ``economy_ledger_wiping()``."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("economy_ledger_wiping", 0, _wiping)
