"""Fingerprints of whole bot games: proof that a change to the bots or the driver plays the same games.

    .venv/bin/python -m bench.bot_fingerprints            # check against bench/bot_fingerprints.json
    .venv/bin/python -m bench.bot_fingerprints --record   # write the file (only on purpose)

Every game of the plan is played with ``cardgames.bots.driver.play_game`` (levels, player count
and options drawn from the seed); its fingerprint is a SHA-256 of every applied ``(seat, action)``
and the result. The plan covers all five games: several hundred seeds each, fewer for Guandan
(a whole match a game). The file was recorded at the commit before the bots' memory became
explicit (docs/bots.md, "Bot memory"); an engine change that alters a game on purpose (a rule fix)
changes its fingerprints, and then the file is recorded again in the same commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cardgames.bots import LEVELS
from cardgames.bots.driver import play_game
from cardgames.engines import get_engine

FILE = Path(__file__).with_name("bot_fingerprints.json")
#: game -> number of seeds (Guandan plays whole matches, and hard searches: fewer)
PLAN: dict[str, int] = {"one_card": 400, "pika": 400, "puteo": 300, "skyjo": 300, "guandan": 40}


def setup(game: str, seed: int) -> tuple[list[str], dict[str, Any]]:
    """The levels and options of game ``seed`` in the plan: drawn from the seed, so the plan is fixed."""
    eng = get_engine(game)
    r = random.Random(f"fingerprint:{game}:{seed}")
    top = min(eng.max_players, 6)
    n = r.randint(eng.min_players, top) if eng.min_players < top else eng.min_players
    levels = [r.choice(LEVELS) for _ in range(n)]
    options: dict[str, Any] = {"turn_seconds": None if r.random() < 0.75 else 30}
    if game == "puteo":
        options["lives"] = r.choice([5, 3])
        options["mode"] = r.choice(["classic", "classic", "big"])
    return levels, options


def fingerprint(job: tuple[str, int]) -> tuple[str, int, str, int]:
    """Play one game of the plan; return (game, seed, sha256 of its moves and result, moves)."""
    game, seed = job
    levels, options = setup(game, seed)
    eng = get_engine(game)
    cls = type(eng)
    moves: list[Any] = []
    original = cls.apply

    def recording(self: Any, state: Any, seat: Any, action: Any) -> Any:
        out = original(self, state, seat, action)
        moves.append([seat, action])
        return out

    cls.apply = recording  # type: ignore[method-assign]
    try:
        _, result = play_game(game, levels, seed=seed, options=options)
    finally:
        cls.apply = original  # type: ignore[method-assign]
    blob = json.dumps({"moves": moves, "result": result}, sort_keys=True, separators=(",", ":"))
    return game, seed, hashlib.sha256(blob.encode()).hexdigest(), len(moves)


def run(games: list[str], workers: int) -> dict[str, dict[str, str]]:
    jobs = [(game, seed) for game in games for seed in range(PLAN[game])]
    out: dict[str, dict[str, str]] = {game: {} for game in games}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game, seed, digest, _ in pool.map(fingerprint, jobs, chunksize=4):
            out[game][str(seed)] = digest
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(PLAN))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--record", action="store_true", help="write the file instead of checking it")
    parser.add_argument("--file", type=Path, default=FILE)
    args = parser.parse_args()
    got = run(args.games, args.workers)
    if args.record:
        stored = json.loads(args.file.read_text()) if args.file.exists() else {}
        stored.update(got)
        args.file.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"recorded {sum(len(v) for v in got.values())} games in {args.file}")
        return
    stored = json.loads(args.file.read_text())
    bad = 0
    for game, digests in got.items():
        diff = [seed for seed, digest in digests.items() if stored[game].get(seed) != digest]
        bad += len(diff)
        verdict = "identical" if not diff else f"{len(diff)} differ: {diff[:10]}"
        print(f"{game:<10}{len(digests):>5} games  {verdict}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
