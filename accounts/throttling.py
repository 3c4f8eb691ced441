"""Throttles against guessing and farming (issues 13, 26): log-in, password checks, sign-ups,
room codes, guests.

Log-in failures are counted per (username, address) and per address, never per username
alone: an attacker elsewhere cannot lock a person out of their own account. Each count has
a few free failures; after them every new attempt must wait ``base * 2**(n - free)``
seconds after the last failure (1 s, 2 s, 4 s … up to ``LOGIN_DELAY_MAX_SECONDS``), and
only one attempt may go through each wait (an atomic ``cache.add``), so a burst of parallel
guesses buys nothing. A success forgives its (username, address) count; counts are forgotten
``LOGIN_FAILURE_MEMORY_SECONDS`` after their last failure. Wrong old passwords on the
password change are counted per account the same way. Sign-ups are counted per address in
fixed windows. Everything lives in the cache: Redis when ``REDIS_URL`` is set, so all
processes share the counts (docs/decisions.md says why this is ours and not django-axes).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from .names import name_key


@dataclass(frozen=True)
class Lockout:
    retry_after_seconds: int

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.retry_after_seconds / 60))


@dataclass(frozen=True)
class Rule:
    """Growing delays: ``free`` failures, then ``base * 2**(n - free)`` seconds, at most ``cap``."""

    name: str
    free: int
    base: float
    cap: float
    memory: int

    def delay(self, failures: int) -> float:
        if failures < self.free:
            return 0.0
        return float(min(self.cap, self.base * 2 ** min(failures - self.free, 40)))


def _now() -> float:
    return time.time()


def client_ip(request: HttpRequest) -> str:
    """The address every per-address count keys on: ``REMOTE_ADDR``, which behind a reverse
    proxy listed in ``TRUSTED_PROXIES`` is already the client's, taken from the proxy's
    X-Forwarded-For by config.proxy (never from a header any other peer sends)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def socket_ip(scope: Mapping[str, Any]) -> str:
    """A websocket's address, the one ``client_ip`` gives its page: the ASGI scope's client (behind a
    trusted proxy, the client's own, as for HTTP)."""
    client = scope.get("client") or ()
    return str(client[0]) if client and client[0] else "unknown"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]


def _rules() -> tuple[Rule, Rule, Rule]:
    base = float(settings.LOGIN_DELAY_BASE_SECONDS)
    cap = float(settings.LOGIN_DELAY_MAX_SECONDS)
    memory = int(settings.LOGIN_FAILURE_MEMORY_SECONDS)
    return (
        Rule("login-pair", int(settings.LOGIN_FREE_FAILURES), base, cap, memory),
        Rule("login-ip", int(settings.LOGIN_IP_FREE_FAILURES), base, cap, memory),
        Rule("password-check", int(settings.LOGIN_FREE_FAILURES), base, cap, memory),
    )


def _wait(rule: Rule, key: str, now: float) -> tuple[float, int]:
    """Seconds still to wait under ``rule`` for ``key`` (0 when free), and its failure count."""
    values = cache.get_many([f"{key}:n", f"{key}:last"])
    failures = int(values.get(f"{key}:n", 0))
    if failures < rule.free:
        return 0.0, failures
    last = float(values.get(f"{key}:last", 0.0))
    return max(0.0, last + rule.delay(failures) - now), failures


def _check(checks: list[tuple[Rule, str]], now: float | None) -> Lockout | None:
    """The longest wait in force; when none, claim the one attempt each past-free count allows."""
    now = _now() if now is None else now
    waits = []
    counted = []
    for rule, key in checks:
        wait, failures = _wait(rule, key, now)
        if wait > 0:
            waits.append(wait)
        elif failures >= rule.free:
            counted.append((rule, key, failures))
    if waits:
        return Lockout(max(1, math.ceil(max(waits))))
    for rule, key, failures in counted:
        # One attempt per wait: a parallel twin finds the gate taken and waits the same delay.
        gate_seconds = max(1, math.ceil(rule.delay(failures)))
        if not cache.add(f"{key}:gate:{failures}", 1, timeout=gate_seconds):
            return Lockout(gate_seconds)
    return None


def _fail(rule: Rule, key: str, now: float | None) -> None:
    now = _now() if now is None else now
    count_key = f"{key}:n"
    cache.add(count_key, 0, timeout=rule.memory)
    try:
        cache.incr(count_key)
    except ValueError:  # expired between add and incr
        cache.set(count_key, 1, timeout=rule.memory)
    cache.touch(count_key, timeout=rule.memory)
    cache.set(f"{key}:last", now, timeout=rule.memory)


def _clear(key: str) -> None:
    cache.delete_many([f"{key}:n", f"{key}:last"])


def _pair_key(username: str, ip: str) -> str:
    return f"throttle:login-pair:{_digest(name_key(username), ip)}"


def _ip_key(ip: str) -> str:
    return f"throttle:login-ip:{_digest(ip)}"


def check_lockout(*, username: str, ip: str, now: float | None = None) -> Lockout | None:
    """Before a log-in attempt: the wait in force for this (username, address) or address, if any."""
    pair, by_ip, _ = _rules()
    return _check([(pair, _pair_key(username, ip)), (by_ip, _ip_key(ip))], now)


def record_failure(*, username: str, ip: str, now: float | None = None) -> None:
    pair, by_ip, _ = _rules()
    _fail(pair, _pair_key(username, ip), now)
    _fail(by_ip, _ip_key(ip), now)


def clear_failures(*, username: str, ip: str) -> None:
    """A successful log-in forgives its (username, address) failures, not the address's."""
    _clear(_pair_key(username, ip))


def _password_key(user_id: int) -> str:
    return f"throttle:password-check:{user_id}"


def password_check_lockout(*, user_id: int, now: float | None = None) -> Lockout | None:
    """Before checking a signed-in user's current password (password change)."""
    return _check([(_rules()[2], _password_key(user_id))], now)


def password_check_failed(*, user_id: int, now: float | None = None) -> None:
    _fail(_rules()[2], _password_key(user_id), now)


def password_check_passed(*, user_id: int) -> None:
    _clear(_password_key(user_id))


def _code_rule() -> Rule:
    return Rule(
        "room-code",
        int(settings.ROOM_CODE_FREE_MISSES),
        float(settings.LOGIN_DELAY_BASE_SECONDS),
        float(settings.LOGIN_DELAY_MAX_SECONDS),
        int(settings.LOGIN_FAILURE_MEMORY_SECONDS),
    )


def _code_key(ip: str) -> str:
    return f"throttle:room-code:{_digest(ip)}"


def code_guess_lockout(*, ip: str, now: float | None = None) -> Lockout | None:
    """Before trying a room code from ``ip`` (issue 26: the code is a room's key): the wait in
    force after too many wrong ones, if any (``ROOM_CODE_FREE_MISSES``, then the log-in delays)."""
    return _check([(_code_rule(), _code_key(ip))], now)


def code_guess_failed(*, ip: str, now: float | None = None) -> None:
    _fail(_code_rule(), _code_key(ip), now)


def reserve_signup(*, ip: str, now: float | None = None) -> Lockout | None:
    """Count a sign-up from ``ip`` in this window, or the wait if the window is full.

    ``SIGNUP_MAX_PER_ADDRESS`` per ``SIGNUP_WINDOW_SECONDS``; the count is taken before the
    account is created (atomic), and given back with ``release_signup`` if it is not.
    """
    return _reserve(
        "signup", ip, int(settings.SIGNUP_MAX_PER_ADDRESS), int(settings.SIGNUP_WINDOW_SECONDS), now
    )


def release_signup(*, ip: str, now: float | None = None) -> None:
    """A reserved sign-up that created no account (a taken name, a weak password)."""
    _release("signup", ip, int(settings.SIGNUP_WINDOW_SECONDS), now)


def reserve_guest(*, ip: str, now: float | None = None) -> Lockout | None:
    """Count a guest identity started from ``ip`` in this window, or the wait if it is full
    (issue 26: guests are free, and each may host rooms): ``GUESTS_MAX_PER_ADDRESS`` per
    ``GUESTS_WINDOW_SECONDS``."""
    return _reserve(
        "guest", ip, int(settings.GUESTS_MAX_PER_ADDRESS), int(settings.GUESTS_WINDOW_SECONDS), now
    )


def _reserve(kind: str, ip: str, limit: int, window: int, now: float | None) -> Lockout | None:
    """Count one ``kind`` from ``ip`` in the current fixed window (atomic), or the wait until the
    next window when ``limit`` are already counted."""
    now = _now() if now is None else now
    key = _window_key(kind, ip, window, now)
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=window)
        count = 1
    if count > limit:
        cache.decr(key)
        return Lockout(max(1, math.ceil((now // window + 1) * window - now)))
    return None


def _release(kind: str, ip: str, window: int, now: float | None) -> None:
    with contextlib.suppress(ValueError):
        cache.decr(_window_key(kind, ip, window, _now() if now is None else now))


def _window_key(kind: str, ip: str, window: int, now: float) -> str:
    return f"throttle:{kind}:{_digest(ip)}:{int(now // window)}"
