"""Proof that an engine change plays the same games: digests of seeded games, recorded and compared.

    .venv/bin/python -m bench.identical_games --record before.json [--games one_card pika]
    .venv/bin/python -m bench.identical_games --check before.json

Two kinds of games per engine, each digested on its own (so a difference names its seed):

- random playouts (``--playouts``, default 10,000): 2–4 players by seed, the turn timer on for odd
  seeds; every step digests ``to_act``, every listed seat's ``legal_actions`` (order included),
  the chosen move and its events; about one move in twelve is a lapsed timer instead of a listed
  action; every 5th step tries a set of malformed or illegal actions and digests the refusal codes;
  every 10th step digests the acting seat's view and the timers; the end digests the dump and
  the result.
- bot games (``--bot-games``, default 2,000 per pairing): ``cardgames.bots.driver.play_game`` with
  four mixes of levels, digesting the final dump and the result. The bots and the driver are taken
  from the commit ``--bots-from`` (default: the one the record names), extracted with ``git
  archive``, so that only the engines differ between the record and the check, whatever happens to
  the bots in the working tree meanwhile.

Dumps leave out the ``"format"`` key (a version marker of the dump, not part of the game).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from typing import Any

import cardgames
from cardgames.engines import IllegalAction, get_engine

GAMES = ("one_card", "pika")
LEVELS = (
    ["hard", "easy", "easy", "easy"],
    ["normal", "easy", "easy", "easy"],
    ["hard", "normal", "normal", "normal"],
    ["easy", "hard", "normal", "easy"],
)
#: actions no legal list holds: their refusal codes must not change
PROBES: tuple[Any, ...] = (
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "7H"},
    {"type": "play", "card": "7H", "suit": "X"},
    {"type": "play", "card": "R5"},
    {"type": "play", "card": "W+4"},
    {"type": "play", "card": "W", "colour": "Q"},
    {"type": "play"},
    {"type": "draw"},
    {"type": "keep"},
    {"type": "take_stack"},
    {"type": "call_one_card"},
    {"type": "call_pika"},
    {"type": "catch", "target": 0},
    {"type": "catch", "target": True},
    {"type": "timeout", "timer": "turn"},
    {"type": "timeout", "timer": "catch"},
    {"type": "timeout", "timer": "pika"},
    {"type": "nope"},
    {"kind": "draw"},
    "draw",
)


def _json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def _dump(eng: Any, state: Any) -> Any:
    data = dict(eng.dump(state))
    data.pop("format", None)
    return data


def playout_digest(game: str, seed: int) -> str:
    eng = get_engine(game)
    h = hashlib.blake2b(digest_size=12)
    rng = random.Random(f"identical:{seed}")
    players = 2 + seed % 3
    options: dict[str, Any] = {} if seed % 2 else {"turn_seconds": None}
    state = eng.new_game(players, seed=seed, options=options)
    step = 0
    while not eng.is_over(state):
        step += 1
        seats = eng.to_act(state)
        h.update(_json(seats))
        listed = {seat: eng.legal_actions(state, seat) for seat in seats}
        h.update(_json([listed[seat] for seat in seats]))
        if step % 5 == 0:
            seat = rng.randrange(-1, players + 1)
            codes = []
            for probe in PROBES:
                try:
                    _, events = eng.apply(state, seat, probe)
                    codes.append(["ok", events])
                except IllegalAction as err:
                    codes.append(err.code)
            h.update(_json(codes))
        timers = eng.timers(state)
        if step % 10 == 0:
            h.update(_json([eng.view(state, seats[0]), eng.view(state, None), timers]))
        if timers and rng.random() < 1 / 12:
            timer = rng.choice(timers)
            seat, action = timer["seat"], {"type": "timeout", "timer": timer["name"]}
        else:
            seat = rng.choice([s for s in seats if listed[s]])
            action = rng.choice(listed[seat])
        state, events = eng.apply(state, seat, action)
        h.update(_json([seat, action, events]))
        if step > 20_000:
            raise RuntimeError(f"{game} seed {seed}: playout did not end")
    h.update(_json([_dump(eng, state), eng.result(state)]))
    return h.hexdigest()


def use_bots_from(rev: str) -> str:
    """Import ``cardgames.bots`` as it was at ``rev`` (the engines stay the working tree's)."""
    rev = subprocess.run(["git", "rev-parse", rev], capture_output=True, text=True, check=True).stdout.strip()
    where = tempfile.mkdtemp(prefix="bots-")
    archive = subprocess.run(["git", "archive", rev, "cardgames/bots"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", where], input=archive.stdout, check=True)
    cardgames.__path__.insert(0, os.path.join(where, "cardgames"))
    return rev


def bot_digest(game: str, levels: list[str], seed: int) -> str:
    from cardgames.bots.driver import play_game

    state, result = play_game(game, levels, seed=seed)
    eng = get_engine(game)
    return hashlib.blake2b(_json([_dump(eng, state), result]), digest_size=12).hexdigest()


def digests(game: str, playouts: int, bot_games: int) -> dict[str, str]:
    out = {f"playout:{seed}": playout_digest(game, seed) for seed in range(playouts)}
    for levels in LEVELS:
        for seed in range(bot_games):
            out[f"bots:{'-'.join(levels)}:{seed}"] = bot_digest(game, levels, seed)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--playouts", type=int, default=10_000)
    parser.add_argument("--bot-games", type=int, default=2_000)
    parser.add_argument(
        "--bots-from", metavar="REV", help="commit of the bots (default: the record's, else HEAD)"
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", metavar="FILE")
    mode.add_argument("--check", metavar="FILE")
    args = parser.parse_args()
    before = {}
    if args.check:
        with open(args.check) as f:
            before = json.load(f)
    rev = use_bots_from(args.bots_from or before.get("bots_from") or "HEAD")
    found = {game: digests(game, args.playouts, args.bot_games) for game in args.games}
    if args.record:
        with open(args.record, "w") as f:
            json.dump({"bots_from": rev, **found}, f)
        print(f"bots and driver from {rev}")
        for game, d in found.items():
            total = hashlib.blake2b(_json(d), digest_size=12).hexdigest()
            print(f"{game}: {len(d)} games recorded, digest {total}")
        return
    failed = False
    for game, d in found.items():
        old = before[game]
        diff = [k for k in d if old.get(k) != d[k]]
        total = hashlib.blake2b(_json(d), digest_size=12).hexdigest()
        part = "" if len(d) == len(old) else f" (a part of the {len(old)} recorded)"
        if diff:
            failed = True
            print(f"{game}: {len(diff)} of {len(d)} games differ{part} (first: {diff[:5]})")
        else:
            print(f"{game}: all {len(d)} games identical{part}, digest {total}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
