"""Instructions per action of the benchmark loops, counted by valgrind (stable on a busy machine).

    .venv/bin/python -m bench.instructions [--games one_card pika] [--count 60] [--anchor-count 200] [--parts]

For each loop of ``bench.engines`` (ours and the anchor's) this runs Python under
``valgrind --tool=cachegrind --cache-sim=no`` twice, playing ``--count`` and then
``2 * --count`` seeded games, and divides the difference of the instruction counts
by the difference of the actions played: start-up, imports, set-up and first-use
costs cancel out. Instructions are not
time (C code such as RLCard's numpy or OpenSpiel's C++ may run at another number
of instructions per cycle), but they do not move with the load of the machine.

``--parts`` splits our loop: the same games replayed with only ``new_game`` and
``apply``, then adding ``legal_actions``, ``to_act`` and ``is_over`` one at a time
(see ``_replay``); each step's increase is that call's share.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import subprocess
import sys
from typing import Any

from cardgames.engines import get_engine

from .engines import ANCHORS, engine_loop

OPTIONS = {"turn_seconds": None}
#: replays for --parts: which contract calls a replay of recorded games makes, besides apply
#: (new_game and apply; then each part adds one call per action; the rest of the loop is its two
#: rng.choice calls and the loop itself)
PARTS = ("apply", "apply+legal", "apply+legal+to_act", "apply+legal+to_act+is_over")


def _record(game: str, players: int, count: int) -> list[tuple[int, list[tuple[int, Any]]]]:
    """The games ``engine_loop`` would play (seeds and moves), to replay them call by call."""
    eng = get_engine(game)
    rng = random.Random(0)
    out = []
    for _ in range(count):
        seed = rng.randrange(2**31)
        state = eng.new_game(players, seed=seed, options=dict(OPTIONS))
        moves = []
        while not eng.is_over(state):
            seat = rng.choice(eng.to_act(state))
            action = rng.choice(eng.legal_actions(state, seat))
            moves.append((seat, action))
            state, _ = eng.apply(state, seat, action)
        out.append((seed, moves))
    return out


def _replay(game: str, players: int, games: list[tuple[int, list[tuple[int, Any]]]], part: str) -> int:
    eng = get_engine(game)
    actions = 0
    legal, to_act, is_over = "legal" in part, "to_act" in part, "is_over" in part
    for seed, moves in games:
        state = eng.new_game(players, seed=seed, options=dict(OPTIONS))
        for seat, action in moves:
            if is_over:
                eng.is_over(state)
            if to_act:
                eng.to_act(state)
            if legal:
                eng.legal_actions(state, seat)
            state, _ = eng.apply(state, seat, action)
            actions += 1
    return actions


def inner(kind: str, game: str, players: int, count: int, part: str, replayed: int) -> None:
    """Runs in the valgrind child: plays ``count`` games and prints the actions.

    ``gc.freeze()`` after the set-up: a full collection walks every object of the imports
    (RLCard's numpy alone holds many), and whether one falls into the counted games or not would
    move the difference of two runs by thousands of instructions per action.
    """
    if kind == "parts":  # both runs record the same games, then replay the first ``count`` of them
        games = _record(game, players, 2 * replayed)
        gc.freeze()
        actions = _replay(game, players, games[:count], part)
    elif kind == "ours":
        loop = engine_loop(game, players, 0.0, dict(OPTIONS), max_games=count)
        gc.freeze()
        actions = loop(0)[1] if count else 0
    else:
        loop = ANCHORS[game][1](players, 0.0, count)
        gc.freeze()
        actions = loop(0)[1] if count else 0
    print(f"actions={actions}")


def count_instructions(kind: str, game: str, players: int, count: int, part: str, replayed: int) -> int:
    cmd = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench.instructions",
        "--inner",
        kind,
        game,
        str(players),
        str(count),
        part,
        str(replayed),
    ]
    # a fixed hash seed: the same set and dict layouts in both runs
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    # one game without valgrind first, so that both counted runs find every module compiled
    warm = [*cmd[cmd.index(sys.executable) : -3], "1", part, "1"]
    subprocess.run(warm, capture_output=True, check=True, env=env)
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    acts = re.search(r"actions=(\d+)", done.stdout)
    if not refs or not acts:
        raise RuntimeError(f"valgrind output not understood:\n{done.stderr[-2000:]}")
    ir = int(refs.group(1).replace(",", ""))
    return ir * 1_000_000_000 + int(acts.group(1))


def per_action(kind: str, game: str, players: int, count: int, part: str = "loop") -> tuple[float, int]:
    """(instructions per action, actions counted) of games ``count + 1`` to ``2 * count``: the
    difference of a run of ``2 * count`` games and one of ``count``, so that start-up, imports
    and first-use costs (RLCard's first game costs millions) cancel out."""
    ir1, acts1 = divmod(count_instructions(kind, game, players, count, part, count), 1_000_000_000)
    ir2, acts2 = divmod(count_instructions(kind, game, players, 2 * count, part, count), 1_000_000_000)
    return (ir2 - ir1) / (acts2 - acts1), acts2 - acts1


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        kind, game, players, count, part, replayed = sys.argv[2:8]
        inner(kind, game, int(players), int(count), part, int(replayed))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=["one_card", "pika"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--count", type=int, default=60, help="games counted of our loops")
    # the anchors' counts move by millions of instructions between identical runs (numpy's set-up):
    # many games make that noise small per action
    parser.add_argument("--anchor-count", type=int, default=200, help="games counted of the anchor loops")
    parser.add_argument("--parts", action="store_true", help="split our loop by contract call")
    parser.add_argument("--no-anchor", action="store_true")
    args = parser.parse_args()
    anchors_done: dict[str, float] = {}
    for game in args.games:
        eng = get_engine(game)
        players = min(max(args.players, eng.min_players), eng.max_players)
        ours, acts = per_action("ours", game, players, args.count)
        line = f"{game} ({players}p): {ours:,.0f} instructions/action over {acts} actions"
        if game in ANCHORS and not args.no_anchor:
            label = ANCHORS[game][0]
            if label not in anchors_done:
                anchors_done[label] = per_action("anchor", game, players, args.anchor_count)[0]
            theirs = anchors_done[label]
            line += f"; {label} {theirs:,.0f} (ratio {theirs / ours:.2f}x)"
        print(line, flush=True)
        if args.parts:
            previous = 0.0
            for part in PARTS:
                ir, _ = per_action("parts", game, players, args.count, part)
                print(f"  {part:<28}{ir:>10,.0f}  (+{ir - previous:,.0f})", flush=True)
                previous = ir


if __name__ == "__main__":
    main()
