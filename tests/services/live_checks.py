"""Checks of finished live tables shared by the real-service tests (not a test module)."""

from __future__ import annotations

import time
from typing import Any

from bench.live_harness import Stack


def assert_log_sound(audit: dict[str, Any]) -> None:
    """One ActionLog row per version after the deal: no gap, no duplicate, replays to the state."""
    seqs = audit["seqs"]
    assert seqs, audit
    assert seqs == list(range(seqs[0], audit["version"] + 1)), "the log has gaps or duplicates"
    assert audit["verify"]["ok"] and audit["verify"]["replay_matches_final_state"], audit["verify"]
    assert audit["verify"]["result_matches"], audit["verify"]
    assert audit["verify"]["actions"] == len(seqs)
    assert audit["game_results"] == 1 and audit["settled"], audit


def wait_settled(stack: Stack, table_id: int, timeout: float = 20) -> dict[str, Any]:
    """The table's audit once it is settled, or the last one read when ``timeout`` passed."""
    deadline = time.monotonic() + timeout
    while True:
        audit = stack.django("audit", {"tables": [table_id]})[0]
        if audit["settled"] or time.monotonic() > deadline:
            return audit
        time.sleep(0.5)
