"""Log-in throttling against brute force.

After ``LOGIN_MAX_FAILURES`` failed log-ins within ``LOGIN_FAILURE_WINDOW_SECONDS``
for the same account (by lower-cased username) or from the same IP, further
attempts are refused until the oldest failure leaves the window. Failures are
kept in the cache (Redis when REDIS_URL is set, so every process shares them).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


@dataclass(frozen=True)
class Lockout:
    retry_after_seconds: int

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after_seconds / 60))


def client_ip(request: HttpRequest) -> str:
    # Behind a proxy, configure it to set REMOTE_ADDR; X-Forwarded-For is spoofable.
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _keys(username: str, ip: str) -> list[str]:
    return [f"login-fail:user:{username.strip().lower()}", f"login-fail:ip:{ip}"]


def _recent(key: str, now: float) -> list[float]:
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    return [t for t in cache.get(key, []) if now - t < window]


def check_lockout(*, username: str, ip: str, now: float | None = None) -> Lockout | None:
    """The lockout in force for this account or IP, if any."""
    now = time.time() if now is None else now
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    waits = []
    for key in _keys(username, ip):
        failures = _recent(key, now)
        if len(failures) >= settings.LOGIN_MAX_FAILURES:
            # Locked until enough failures age out of the window.
            unlock_at = sorted(failures)[len(failures) - settings.LOGIN_MAX_FAILURES] + window
            waits.append(math.ceil(unlock_at - now))
    return Lockout(max(waits)) if waits else None


def record_failure(*, username: str, ip: str, now: float | None = None) -> None:
    now = time.time() if now is None else now
    for key in _keys(username, ip):
        failures = [*_recent(key, now), now][-(settings.LOGIN_MAX_FAILURES * 2) :]
        cache.set(key, failures, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def clear_failures(*, username: str) -> None:
    """A successful log-in forgives the account's failures (not the IP's)."""
    cache.delete(_keys(username, "")[0])
