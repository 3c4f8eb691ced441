"""Snapshot frame sizes of every game, for a seat and for a spectator (issue 26, item 13).

    .venv/bin/python -m bench.frames [--games guandan one_card …] [--deals 200] [--n 40] [--json out.json]

Bots (normal) play whole games on the bot driver's table clock (``cardgames.bots.driver``), at a
friends room of four (Ana, a person, in seat 0; bots in the others) with the 30 s turn clock, as a
table of people plays. After every move, each seat's and the spectator's envelope is built by the
table's own code (``envelopes.every_envelope``, from rows never saved: no database) and encoded as
the snapshot frame the broadcast sends (``protocol.encode_frame``): the sizes are the bytes of
that text, with the move log's ``last`` (facts, banners, entered cards) and the packed Guandan
plays (docs/protocol.md). Guandan plays whole matches until ``--deals`` deals were dealt; the
other games ``--n`` games each. Figures: docs/performance.md, "Frames".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
from typing import Any

import django

#: players at each game's table (Guandan and El Puteo's classic deal: four)
PLAYERS = {"one_card": 4, "pika": 4, "puteo": 4, "skyjo": 4, "guandan": 4}
TURN_SECONDS = 30
EPOCH = 1_767_225_600.0  # the tables' wall clock at the first move (any fixed moment)


class Recorded:
    """The engine, keeping the last applied move for the table's log (the driver drops it)."""

    def __init__(self, eng: Any) -> None:
        self.eng = eng
        self.move: tuple[int | None, dict[str, Any], list[dict[str, Any]]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.eng, name)

    def apply(self, state: Any, seat: int | None, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        new, events = self.eng.apply(state, seat, action)
        self.move = (seat, dict(action), events)
        return new, events


def play(game: str, seed: int, sizes: dict[str, list[int]]) -> int:
    """One game of bots: every version's frames measured into ``sizes`` ("seat", "spectator");
    the deals it dealt."""
    from cardgames.bots.driver import BotTable, step
    from cardgames.engines import get_engine
    from cardgames.tables import envelopes, flow, movelog
    from cardgames.tables.models import ActionLog, Seat, Table
    from cardgames.tables.protocol import encode_frame, snapshot_frame

    players = PLAYERS[game]
    eng = Recorded(get_engine(game))
    options = {"turn_seconds": TURN_SECONDS}
    secret = hashlib.sha256(f"frames:{game}:{seed}".encode()).hexdigest()[:32]
    table = Table(
        game=game,
        mode=Table.Mode.FRIENDS,
        code=f"{seed:06d}",
        status=Table.Status.PLAYING,
        host_key="user:1",
        num_players=players,
        options=options,
        seed=secret,
        seed_hash=hashlib.sha256(secret.encode()).hexdigest(),
        version=0,
    )
    table.pk = 1000 + seed
    seats = [Seat(index=0, kind=Seat.Kind.HUMAN, player_key="user:1", name="Ana", connections=1)]
    seats += [
        Seat(index=i, kind=Seat.Kind.BOT, name="Bot normal", bot_level="normal") for i in range(1, players)
    ]
    bots = BotTable.seated(game, ["normal"] * players, seed)
    state = eng.new_game(players, seed=seed, options=options)
    shown: ActionLog | None = None
    deals = 1
    while True:
        bots.starts = flow.sync_starts(eng.timers(state), bots.starts, bots.now)
        table.timer_starts = {k: EPOCH + v for k, v in bots.starts.items()}
        over = eng.is_over(state)
        if over:
            table.status = Table.Status.FINISHED
        for key, envelope in envelopes.every_envelope(table, seats, shown, eng.eng, state).items():
            size = len(encode_frame(snapshot_frame(envelope)).encode())
            sizes["spectator" if key == envelopes.SPECTATOR else "seat"].append(size)
        if over:
            return deals
        state = step(eng, state, bots)
        assert eng.move is not None
        seat, action, events = eng.move
        table.version += 1
        source = ActionLog.Source.TIMEOUT if action["type"] == "timeout" else ActionLog.Source.BOT
        if movelog.shown(game, action):
            shown = ActionLog(seq=table.version, seat=seat, action=action, events=events, source=source)
        deals += sum(1 for e in events if e.get("type") == "deal_started")


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(game: str, *, deals: int, n: int) -> dict[str, Any]:
    """Frames of ``n`` games (Guandan: whole matches until ``deals`` deals)."""
    sizes: dict[str, list[int]] = {"seat": [], "spectator": []}
    played = dealt = 0
    while (dealt < deals) if game == "guandan" else (played < n):
        dealt += play(game, played, sizes)
        played += 1
    row: dict[str, Any] = {"game": game, "games": played, "deals": dealt}
    for who, values in sizes.items():
        row[who] = {
            "frames": len(values),
            "p50": percentile(values, 0.5),
            "p99": percentile(values, 0.99),
            "max": max(values),
            "mean": round(statistics.fmean(values)),
        }
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--deals", type=int, default=200, help="Guandan: deals to play (whole matches)")
    parser.add_argument("--n", type=int, default=40, help="games of each other game")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    rows = []
    print("| game | games (deals) | seat frames | p50 | p99 | max | spectator p50 | p99 | max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in args.games:
        row = measure(game, deals=args.deals, n=args.n)
        rows.append(row)
        seat, spec = row["seat"], row["spectator"]
        played = f"{row['games']} ({row['deals']})" if game == "guandan" else str(row["games"])
        print(
            f"| {game} | {played} | {seat['frames']} | {seat['p50']} | {seat['p99']} | {seat['max']} "
            f"| {spec['p50']} | {spec['p99']} | {spec['max']} |",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
