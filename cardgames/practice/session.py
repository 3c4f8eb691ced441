"""The practice table as the browser's worker speaks to it: the live socket's frames (PF-62).

The table page talks to a live table through a socket (docs/protocol.md); offline, the same page
talks to a Web Worker that runs this module in Pyodide. The worker passes the page's frames in
(``action``, ``sync``, ``log``, ``hint``) and gets back the frames a live server would send
(``snapshot``, ``log``, ``hint``, ``error``), the table to keep in IndexedDB and when to wake the
table next (a bot's move, a window's deadline). JSON in, JSON out: nothing crosses the boundary
but text, so the worker's glue stays a few lines.
"""

from __future__ import annotations

import json
from typing import Any

from cardgames import bots
from cardgames.bots.budget import Clock
from cardgames.tables import protocol

from .table import PracticeError, PracticeTable

#: the hard bots' thinking time per decision in the browser: the server's default (issue 28)
BUDGET_SECONDS = 0.15
#: frames the page may send a practice table (chat needs other people)
FRAMES = frozenset({"action", "sync", "log", "hint", "ping"})


class PracticeSession:
    """One worker's practice table (or none yet). ``clock``: the searching bots' clock (the
    worker passes ``time.perf_counter``); None runs their fixed search, as the tests do."""

    def __init__(self, *, clock: Clock | None = None, budget_seconds: float = BUDGET_SECONDS) -> None:
        self.table: PracticeTable | None = None
        self.budget = None if clock is None else bots.Budget(budget_seconds, clock)

    # -- the worker's calls (JSON text both ways) -------------------------------------------------------
    def start_json(self, request: str, now: float) -> str:
        return json.dumps(self.start(json.loads(request), now))

    def resume_json(self, saved: str, now: float) -> str:
        return json.dumps(self.resume(json.loads(saved), now))

    def frame_json(self, frame: str, now: float) -> str:
        return json.dumps(self.frame(json.loads(frame), now))

    def wake_json(self, now: float) -> str:
        return json.dumps(self.wake(now))

    # -- the same, as dicts -------------------------------------------------------------------------
    def start(self, request: dict[str, Any], now: float) -> dict[str, Any]:
        """A new practice table from the page's set-up (game, seed, players, level, options, name,
        think, start_levels); a refused set-up answers with an error frame and no table."""
        if not isinstance(request, dict):
            frames = [protocol.error_frame(None, "bad_options", "Opciones no válidas.")]
            return {**self._answer(frames, changed=False), "ok": False}
        allowed = {"game", "seed", "players", "level", "options", "name", "think", "start_levels", "autoplay"}
        try:
            args = {k: v for k, v in request.items() if k in allowed}
            if not isinstance(args.get("seed"), str) or not args["seed"]:
                raise PracticeError("bad_options")
            self.table = PracticeTable.start(now=now, **args)
        except (PracticeError, TypeError) as exc:
            code = exc.code if isinstance(exc, PracticeError) else "bad_options"
            message = exc.message if isinstance(exc, PracticeError) else "Opciones no válidas."
            return {**self._answer([protocol.error_frame(None, code, message)], changed=False), "ok": False}
        return self._answer(self._opening(now), changed=True)

    def resume(self, saved: dict[str, Any], now: float) -> dict[str, Any]:
        """The table kept in IndexedDB, as it was; what fell due while the page was closed happens now."""
        self.table = PracticeTable.load(saved)
        changed = self.table.wake(now, budget=self.budget)
        return self._answer(self._opening(now), changed=changed)

    def frame(self, frame: Any, now: float) -> dict[str, Any]:
        """One frame from the page, answered as the live consumer answers it."""
        table = self.table
        kind = frame.get("type") if isinstance(frame, dict) else None
        if table is None or not isinstance(kind, str) or kind not in FRAMES:
            return self._answer(
                [protocol.error_frame(None, "bad_frame", "Eso no se puede hacer aquí.")], changed=False
            )
        if kind == "action":
            try:
                table.act(frame.get("action"), version=frame.get("version"), now=now)
            except PracticeError as exc:
                frames = [
                    protocol.error_frame(
                        table.version, exc.code, exc.message, str(frame.get("action_id", ""))
                    )
                ]
                if exc.code == "stale":
                    frames.append(protocol.snapshot_frame(table.envelope(now)))
                return self._answer(frames, changed=False)
            return self._answer(self._changed(now), changed=True)
        if kind == "hint":
            try:
                action = table.hint(self.budget)
            except PracticeError as exc:
                return self._answer(
                    [protocol.error_frame(table.version, exc.code, exc.message)], changed=False
                )
            return self._answer([protocol.hint_frame(table.version, action)], changed=False)
        if kind == "log":
            return self._answer([protocol.log_frame(table.version, table.log_entries())], changed=False)
        return self._answer([protocol.snapshot_frame(table.envelope(now))], changed=False)  # sync, ping

    def wake(self, now: float) -> dict[str, Any]:
        """The worker's timer fired: lapsed windows, then a bot's move."""
        if self.table is None or not self.table.wake(now, budget=self.budget):
            return self._answer([], changed=False)
        return self._answer(self._changed(now), changed=True)

    # -- helpers ----------------------------------------------------------------------------------------
    def _opening(self, now: float) -> list[dict[str, Any]]:
        assert self.table is not None
        return [
            protocol.log_frame(self.table.version, self.table.log_entries()),
            protocol.snapshot_frame(self.table.envelope(now)),
        ]

    def _changed(self, now: float) -> list[dict[str, Any]]:
        # the log first: the page merges the snapshot's own move into it (table.js, renderLog)
        return self._opening(now)

    def _answer(self, frames: list[dict[str, Any]], *, changed: bool) -> dict[str, Any]:
        """What the worker does next: post ``frames``, keep ``table`` (if it changed), wake at ``wake_at``;
        ``ok`` is False for a refused set-up (the table, if any, is the one before)."""
        table = self.table
        wake_at = table.next_wake() if table is not None else None
        return {
            "ok": True,
            "frames": frames,
            "table": table.dump() if changed and table is not None else None,
            "wake_at": None if wake_at is None else round(wake_at * 1000),
            "status": table.status if table is not None else None,
        }
