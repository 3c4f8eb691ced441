"""Ending sessions ends their sockets (issue 13): log-out and password change.

A socket keeps the user it was opened with, so Django's own session checks never reach it.
On log-out the session's sockets (lobby and table, both in the per-user group ``user.<id>``)
are told to close; on a password change every socket of the user's *other* sessions is, and
those sessions are already dead for HTTP (their session hash no longer matches the password,
``django.contrib.auth.get_user`` flushes them on their next request; channels' too on reconnect).
The sockets belong to the games: this module only announces ``sessions_ended``, and
``cardgames`` (``CardgamesConfig.ready``) closes them, so that ``accounts`` imports nothing of
the apps above it (``tests/test_service_boundary.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from django.dispatch import Signal
from django.http import HttpRequest

#: sessions of a user ended: kwargs ``user_id`` and ``session`` (the fingerprint of the one that
#: ended) or ``keep`` (every session but that one ended; "" for all)
sessions_ended = Signal()


def session_fingerprint(session: Mapping[str, Any] | Any) -> str:
    """A stable, non-secret name for a session: the SHA-256 of its key ("" without one)."""
    key = getattr(session, "session_key", None) or ""
    return hashlib.sha256(key.encode()).hexdigest() if key else ""


def on_logged_out(sender: Any, request: HttpRequest | None = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out`` (sent before the session is flushed): close this session's sockets."""
    if user is None or request is None:
        return
    fingerprint = session_fingerprint(getattr(request, "session", None))
    if fingerprint:
        sessions_ended.send(sender=None, user_id=user.pk, session=fingerprint, keep="")


def end_other_sessions(*, user_id: int, keep: str = "") -> None:
    """After a password change: the sockets of every session of the user but ``keep`` (a
    ``session_fingerprint``; "" for none) close."""
    sessions_ended.send(sender=None, user_id=user_id, session="", keep=keep)


def should_close(event: Mapping[str, Any], mine: str) -> bool:
    """For a consumer's ``user_logout`` handler: does this message end this socket's session
    (``mine``: its ``session_fingerprint``, ``scope["session_fingerprint"]``)?"""
    if event.get("session"):
        return bool(event["session"] == mine)
    if event.get("keep"):
        return bool(event["keep"] != mine)
    return True
