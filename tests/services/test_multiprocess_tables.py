"""Live tables across processes: two daphnes, one Celery worker with beat, PostgreSQL and Redis.

Issue 10's proofs, run in CI's second tier (REQUIRE_SERVICES=1 turns a missing service into a
failure). The stack runs in subprocesses on a database of its own (bench/live_harness.py), so
everything here goes through real sockets, the real channel layer and committed rows:

- four people play a whole One Card game over websockets, two seats on each daphne; half-way
  one daphne is killed with SIGKILL, its players reconnect to the other and the game ends;
  the action log is gapless, replays to the stored state, and the game is settled once;
- a person against bots: every bot move and timeout comes from the Celery worker.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from bench.live_harness import SeatClient, Stats, live_stack, sessions_from
from tests.services.live_checks import assert_log_sound, wait_settled

pytestmark = [pytest.mark.services, pytest.mark.timeout(480)]


def test_four_people_on_two_daphnes_survive_a_killed_daphne(
    require_postgres: None, require_redis: str
) -> None:
    with live_stack(daphnes=2, redis_url=require_redis) as stack:
        # given four signed-in users and a friends room made, joined and started over the API
        host, *guests = sessions_from(stack.django("users", {"prefix": "mp", "count": 4}))
        room = host.api(stack.http(0), "POST", "/api/tables", {"game": "one_card", "mode": "friends"})
        table_id = room["id"]
        for i, user in enumerate(guests):
            code = {"code": room["code"]}  # the room's key (issue 26)
            joined = user.api(stack.http(i % 2), "POST", f"/api/tables/{table_id}/join", code)
            assert joined["seat"] == i + 1
        host.api(stack.http(1), "POST", f"/api/tables/{table_id}/start", {})
        first, second = stack.ports
        doomed = stack.daphnes[0]

        # when seats 0 and 1 play through daphne A, seats 2 and 3 through daphne B ...
        stats = Stats()
        clients = [
            SeatClient(
                path=f"/ws/tables/{table_id}/",
                cookie=user.cookie,
                ports=[first, second] if seat < 2 else [second, first],
                stats=stats,
                seed=seat,
            )
            for seat, user in enumerate([host, *guests])
        ]

        async def kill_half_way() -> int:
            # ... and daphne A dies (SIGKILL) once the game is under way
            while min(c.version for c in clients) < 0:
                await asyncio.sleep(0.01)
            start = min(c.version for c in clients)
            while max(c.version for c in clients) < start + 15:
                if any(c.over for c in clients):
                    return -1
                await asyncio.sleep(0.01)
            version = max(c.version for c in clients)
            stack.kill(doomed, signal.SIGKILL)
            return version

        async def play() -> tuple[list[dict], int]:
            killer = asyncio.create_task(kill_half_way())
            ends = await asyncio.gather(*(c.play(timeout=100) for c in clients))  # ~20 s typical
            return list(ends), await killer

        ends, killed_at = asyncio.run(play())

        # then the game finished for everyone, A's players having moved to B
        assert killed_at > 0, "the game ended before the kill"
        assert not doomed.alive
        assert all(end["status"] == "finished" for end in ends)
        assert len({end["version"] for end in ends}) == 1
        assert stats.reconnects >= 2, stats
        assert all(c.connected_to == second for c in clients)
        assert [end["you"]["seat"] for end in ends] == [0, 1, 2, 3]
        assert stats.acked > 10
        unexpected = {
            code: n
            for code, n in stats.errors.items()
            if code not in {"stale", "duplicate", "rate_limited", "not_playing"}
        }  # a loaded box bunches frames
        assert not unexpected, stats.errors

        # and the log is one row per version, replays to the stored state, settled once
        audit = wait_settled(stack, table_id)
        assert audit["status"] == "finished"
        assert_log_sound(audit)
        assert audit["version"] == ends[0]["version"]
        players = audit["sources"].get("player", 0)
        assert stats.acked <= players <= stats.acked + stats.resent  # a resent, applied move: "duplicate"


def test_a_person_against_bots_whose_moves_and_timeouts_come_from_the_worker(
    require_postgres: None, require_redis: str
) -> None:
    # bots think 0.1 s instead of 1 s (TABLE_BOT_THINK_SECONDS) so a long game still fits the test
    with live_stack(
        daphnes=1, redis_url=require_redis, extra_env={"TABLE_BOT_THINK_SECONDS": "0.1"}
    ) as stack:
        (host,) = sessions_from(stack.django("users", {"prefix": "solo", "count": 1}))
        room = host.api(
            stack.http(0), "POST", "/api/tables", {"game": "one_card", "mode": "friends", "players": 2}
        )
        table_id = room["id"]
        host.api(stack.http(0), "POST", f"/api/tables/{table_id}/bots", {"level": "hard"})
        host.api(stack.http(0), "POST", f"/api/tables/{table_id}/start", {})

        # the person lets their first turn lapse (30 s): the worker's countdown task or sweeper times it out
        client = SeatClient(
            path=f"/ws/tables/{table_id}/",
            cookie=host.cookie,
            ports=stack.ports,
            seed=7,
            skip=lambda c: c.turns == 1,
        )
        end = asyncio.run(client.play(timeout=120))  # ~45 s typical: 30 of them the lapse

        assert end["status"] == "finished"
        audit = wait_settled(stack, table_id)
        assert_log_sound(audit)
        assert audit["sources"].get("bot", 0) > 0
        assert any(t.startswith("turn:") for t in audit["timeouts"]), audit["timeouts"]


def test_each_of_the_five_games_is_played_to_the_end_over_real_daphne_and_the_worker(
    require_postgres: None, require_redis: str
) -> None:
    """Issue 10: a whole game of every game over real sockets on PostgreSQL and Redis: a person
    against easy bots in each, all five at once, the bots' moves coming from the Celery worker."""
    games = ("one_card", "pika", "puteo", "skyjo", "guandan")
    with live_stack(
        daphnes=2, redis_url=require_redis, extra_env={"TABLE_BOT_THINK_SECONDS": "0.02"}
    ) as stack:
        people = sessions_from(stack.django("users", {"prefix": "five", "count": len(games)}))
        clients, tables = [], []
        for index, (game, person) in enumerate(zip(games, people, strict=True)):
            http = stack.http(index % 2)
            options = {"lives": 3} if game == "puteo" else {}
            room = person.api(
                http,
                "POST",
                "/api/tables",
                {"game": game, "mode": "bots", "bot_level": "easy", "options": options},
            )
            person.api(http, "POST", f"/api/tables/{room['id']}/start", {})
            tables.append(room["id"])
            ports = stack.ports[index % 2 :] + stack.ports[: index % 2]
            clients.append(
                SeatClient(path=f"/ws/tables/{room['id']}/", cookie=person.cookie, ports=ports, seed=index)
            )

        async def play_all() -> list[dict]:
            return list(await asyncio.gather(*(c.play(timeout=420) for c in clients)))

        ends = asyncio.run(play_all())
        assert [end["status"] for end in ends] == ["finished"] * len(games)
        for table_id in tables:
            audit = wait_settled(stack, table_id)
            assert_log_sound(audit)
            assert audit["sources"].get("bot", 0) > 0
