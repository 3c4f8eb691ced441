"""Seeded bot games as one digest per state: the same list in CPython and in Pyodide (PF-62).

The cross-runtime test (tests/practice/test_cross_runtime_browser.py) runs ``digests`` on the
server's Python and in Chromium's Pyodide and compares them: the deal, every bot choice and every
state the engine reaches must be the same bytes in both. The bots play on the bench driver's
paced table (``cardgames.bots.driver``) with no time budget, so a game depends only on its seed.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cardgames.bots.driver import MAX_STEPS, BotTable, step
from cardgames.engines import get_engine


def state_digest(dumped: Any) -> str:
    """A short SHA-256 of a dumped state's canonical JSON."""
    text = json.dumps(dumped, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(game: str, seed: int, levels: list[str], options: dict[str, Any] | None = None) -> list[str]:
    """The digest of every state of one bots game of ``game`` (``levels[seat]``), deal to end."""
    eng = get_engine(game)
    table = BotTable.seated(game, levels, seed)
    state = eng.new_game(len(levels), seed=seed, options=dict(options or {"turn_seconds": None}))
    found = [state_digest(eng.dump(state))]
    for _ in range(MAX_STEPS):
        if eng.is_over(state):
            return found
        state = step(eng, state, table)
        found.append(state_digest(eng.dump(state)))
    raise RuntimeError(f"{game}: bot game with seed {seed} did not end")


def digests_json(request: str) -> str:
    """``digests`` for the browser's worker: JSON {game, seeds, levels, options} in, {seed: digests} out."""
    spec = json.loads(request)
    return json.dumps(
        {
            str(seed): digests(spec["game"], seed, spec["levels"], spec.get("options"))
            for seed in spec["seeds"]
        }
    )
