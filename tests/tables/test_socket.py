"""The table socket in-process (channels' WebsocketCommunicator on the real ASGI app): a whole
game of each of the five games with a spectator watching, a leak check on every frame, and
bad input answered by error frames that change nothing (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.guests import SESSION_KEY
from accounts.identity import Player, player_for_user
from cardgames.catalogue import GAMES
from cardgames.engines import get_engine
from cardgames.tables import broadcast, legal_wire, movelog, protocol, selectors, services
from cardgames.tables.models import ActionLog, ChatMessage, Table
from config.asgi import application
from tests.engines.harness import cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = b"http://127.0.0.1:8000"


def _session_cookie(prepare: Callable[[Client], Any]) -> bytes:
    client = Client()
    prepare(client)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={value}".encode()


@sync_to_async
def signed_in(username: str) -> tuple[Player, bytes]:
    user = get_user_model().objects.create_user(username=username, password="mesa-verde-2026")
    cookie = _session_cookie(lambda c: c.force_login(user))
    connection.close()  # this worker thread's connection would outlive the test database
    return player_for_user(user), cookie


@sync_to_async
def as_guest(name: str, gid: str) -> tuple[Player, bytes]:
    def prepare(client: Client) -> None:
        session = client.session
        session[SESSION_KEY] = {"id": gid, "name": name}
        session.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key

    cookie = _session_cookie(prepare)
    connection.close()
    return Player(kind="guest", id=gid, name=name), cookie


@sync_to_async
def started_practice(player: Player, game: str, **room: Any) -> int:
    """A bots room of ``player``, started: its table id."""
    table = services.create_room(player=player, game=game, mode="bots", **room)
    services.start_table(table_id=table.pk, player=player)
    connection.close()
    return table.pk


@sync_to_async
def friends_room(host: Player, guest: Player, game: str, **room: Any) -> int:
    """A waiting friends room of ``host`` where ``guest`` sits too: its table id."""
    table = services.create_room(player=host, game=game, mode="friends", **room)
    services.join_room(table_id=table.pk, code=table.code, player=guest)
    connection.close()
    return table.pk


class Client_:
    """A socket with the frames it received, able to wait for a version."""

    def __init__(
        self, table_id: int, cookie: bytes | None, origin: bytes = ORIGIN, *, code: str | None = None
    ) -> None:
        headers = [(b"origin", origin), (b"host", b"127.0.0.1:8000")]
        if cookie:
            headers.append((b"cookie", cookie))
        path = f"/ws/tables/{table_id}/" + (f"?code={code}" if code else "")
        self.ws = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[dict[str, Any]] = []
        self.version = -1

    async def connect(self) -> bool:
        connected, _ = await self.ws.connect()
        return connected

    async def next(self, timeout: float = 5) -> dict[str, Any]:
        frame = await self.ws.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        if frame.get("type") == "snapshot":
            self.version = frame["version"]
        return frame

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5) -> dict[str, Any]:
        while True:
            frame = await self.next(timeout)
            if predicate(frame):
                return frame

    async def until_version(self, version: int) -> dict[str, Any]:
        if self.version >= version:
            return self.snapshot
        return await self.until(lambda f: f.get("type") == "snapshot" and f["version"] >= version)

    @property
    def snapshot(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f.get("type") == "snapshot")

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_json_to(frame)

    async def close(self) -> None:
        await self.ws.disconnect()


@sync_to_async
def _table(table_id: int) -> Table:
    table = Table.objects.get(pk=table_id)
    connection.close()
    return table


def _states_by_version(table: Table) -> dict[int, Any]:
    """The game's state at every version, rebuilt from the seed and the log."""
    states = selectors.replay_states(table)
    dealt_at = states[1][0].seq - 1 if len(states) > 1 else table.version
    return {row.seq if row else dealt_at: state for row, state in states}


def assert_no_leaks(table: Table, seat: int | None, frames: list[dict[str, Any]]) -> int:
    """Every snapshot shows exactly ``engine.view`` for its seat, and no card beyond what the
    seat may see then (hands of others, the deck), and the seed only once the game is over. The
    last move and the move log name only cards the seat was shown at their version or before,
    in the same deal (tests/engines/test_movelog_leaks.py checks every row of whole games)."""
    eng = get_engine(table.game)
    states = _states_by_version(table)
    seen = _seen_by_version(table, seat, states)
    checked = 0
    for frame in frames:
        if frame.get("type") == "log":
            for entry in frame["entries"]:
                extra = cards_in(entry, eng.card_codes).keys() - seen[entry["seq"]]
                assert not extra, f"the log's move {entry['seq']} names {extra} to seat {seat}"
        if frame.get("type") != "snapshot" or frame["version"] not in states:
            continue
        state = states[frame["version"]]
        envelope = frame["table"]
        assert envelope["view"] == json.loads(json.dumps(eng.view(state, seat)))
        shown = cards_in({k: v for k, v in envelope.items() if k not in ("legal", "last")}, eng.card_codes)
        extra = shown - eng.visible_cards(state, seat)
        assert not extra, f"version {frame['version']} shows {extra} to seat {seat}"
        if envelope["last"] is not None:
            extra = cards_in(envelope["last"], eng.card_codes).keys() - seen[frame["version"]]
            assert not extra, f"version {frame['version']}'s last move names {extra} to seat {seat}"
        if envelope["legal"] or envelope["plays"]:
            # Guandan's plays come packed (legal_wire): unpacked, the engine's list exactly
            engine = [json.dumps(a, sort_keys=True) for a in eng.legal_actions(state, seat)]
            assert seat is not None
            unpacked = [json.dumps(a, sort_keys=True) for a in legal_wire.actions(envelope)]
            assert sorted(unpacked) == sorted(engine)
        if not eng.is_over(state):
            assert envelope["seed"] is None and table.seed not in json.dumps(frame)
        checked += 1
    return checked


def _seen_by_version(table: Table, seat: int | None, states: dict[int, Any]) -> dict[int, set[str]]:
    """The cards ``seat``'s view showed in the deal of each version, up to it."""
    eng = get_engine(table.game)
    rows = {row.seq: row for row in ActionLog.objects.filter(table=table)}
    seen: dict[int, set[str]] = {}
    cards: set[str] = set()
    for version in sorted(states):
        row = rows.get(version)
        if row is not None and movelog.starts_deal(table.game, row.events):
            cards = set()
        cards = cards | set(cards_in(eng.view(states[version], seat), eng.card_codes))
        seen[version] = cards
    return seen


async def drive(table_id: int, host: Client_, watchers: list[Client_], *, max_steps: int = 6000) -> Table:
    """Play the host's seat (first legal action) and let time run for the bots and timers."""
    moment = timezone.now()
    for step in range(max_steps):
        envelope = host.snapshot["table"]
        if envelope["status"] != "playing":
            break
        legal = legal_wire.actions(envelope)
        if legal:
            action = legal[0]
            await host.send(
                {"type": "action", "action": action, "action_id": f"h{step}", "version": envelope["version"]}
            )
            answer = await host.until(lambda f: f.get("type") in ("ack", "error"))
            if answer.get("code") == "rate_limited":  # a script outpaces the per-socket limit: wait
                await asyncio.sleep(protocol.RATE_SECONDS / 2)
                continue
            assert answer["type"] == "ack", answer
            await host.until_version(answer["version"])
        else:
            moment += timedelta(seconds=1.1)
            await sync_to_async(services.wake_table)(table_id=table_id, now=moment)
            table = await _table(table_id)
            await host.until_version(table.version)
    table = await _table(table_id)
    for watcher in watchers:
        await watcher.until_version(table.version)
    return table


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_over_the_socket_with_a_spectator_and_no_leaks(game: str) -> None:
    ana, ana_cookie = await signed_in("Ana")
    _mira, mira_cookie = await signed_in("Mira")
    options = {"lives": 3} if game == "puteo" else None

    table_id = await started_practice(ana, game, options=options, bot_level="easy")
    code = (await _table(table_id)).code  # Ana shared the link: its code lets Mira watch
    host, spectator = Client_(table_id, ana_cookie), Client_(table_id, mira_cookie, code=code)
    assert await host.connect() and await spectator.connect()
    await host.until(lambda f: f.get("type") == "chat_history")
    await spectator.until(lambda f: f.get("type") == "chat_history")
    assert host.snapshot["table"]["you"] == {"seat": 0, "role": "player"}
    assert spectator.snapshot["table"]["you"] == {"seat": None, "role": "spectator"}
    table = await drive(table_id, host, [spectator])
    assert table.status == Table.Status.FINISHED
    final = spectator.snapshot["table"]
    assert final["result"] == table.result and final["seed"] == table.seed  # revealed at the end

    @sync_to_async
    def check() -> tuple[int, int]:
        checked = assert_no_leaks(table, 0, host.frames), assert_no_leaks(table, None, spectator.frames)
        connection.close()
        return checked

    host_checked, spectator_checked = await check()
    assert host_checked > 5 and spectator_checked > 5
    await host.close()
    await spectator.close()


async def test_bad_frames_get_error_frames_and_change_nothing() -> None:
    ana, cookie = await signed_in("Ana")

    table_id = await started_practice(ana, "one_card", players=2)
    client = Client_(table_id, cookie)
    assert await client.connect()
    await client.until(lambda f: f.get("type") == "chat_history")
    version = client.version
    rows_before = await sync_to_async(lambda: ActionLog.objects.count())()

    async def error_for(raw: str) -> str:
        await client.ws.send_to(text_data=raw)
        frame = await client.until(lambda f: f.get("type") == "error")
        return frame["code"]

    assert await error_for("{nope") == "bad_json"
    assert await error_for("[1, 2]") == "bad_message"
    assert await error_for('{"type": "dance"}') == "unknown_type"
    assert await error_for("x" * (protocol.MAX_FRAME_BYTES + 1)) == "bad_frame"
    assert await error_for("[" * 1500 + "]" * 1500) == "bad_message"  # deep, yet under the size cap
    assert await error_for('{"type": "action", "action": {"type": "draw"}, "version": 1}') == "bad_message"
    timeout = {"type": "action", "action": {"type": "timeout", "timer": "turn"}, "action_id": "t"}
    timeout["version"] = version
    assert await error_for(json.dumps(timeout)) == "bad_action"
    play = {"type": "action", "action": {"type": "play", "card": "ZZ"}, "action_id": "z", "version": version}
    assert await error_for(json.dumps(play)) in ("bad_action", "not_your_turn")
    stale = {"type": "action", "action": {"type": "draw"}, "action_id": "s", "version": version + 99}
    assert await error_for(json.dumps(stale)) == "stale"
    await client.until(lambda f: f.get("type") == "snapshot")  # the current snapshot follows
    assert client.version == version
    assert await sync_to_async(lambda: ActionLog.objects.count())() == rows_before
    # a flood: the rate limit answers, the socket stays open
    for _ in range(protocol.RATE_FRAMES + 5):
        await client.send({"type": "ping"})
    codes = []
    for _ in range(protocol.RATE_FRAMES + 5):
        frame = await client.next()
        codes.append(frame.get("code") or frame["type"])
    assert "rate_limited" in codes
    # an action refused by the rate limit is named in its error: its sender stops waiting for it
    flooded = {"type": "action", "action": {"type": "draw"}, "action_id": "flood", "version": version}
    await client.ws.send_to(text_data=json.dumps(flooded))
    refusal = await client.until(lambda f: f.get("type") == "error")
    assert refusal["code"] == "rate_limited" and refusal["action_id"] == "flood"
    await asyncio.sleep(protocol.RATE_SECONDS)
    await client.send({"type": "ping"})
    assert (await client.until(lambda f: f["type"] in ("pong", "error")))["type"] == "pong"
    await client.close()


async def test_a_replayed_action_id_is_refused_and_applied_once() -> None:
    ana, cookie = await signed_in("Ana")

    table_id = await started_practice(ana, "skyjo", players=2)
    client = Client_(table_id, cookie)
    assert await client.connect()
    await client.until(lambda f: f.get("type") == "chat_history")
    envelope = client.snapshot["table"]
    frame = {"type": "action", "action": envelope["legal"][0], "action_id": "same"}
    frame["version"] = envelope["version"]
    await client.send(frame)
    assert (await client.until(lambda f: f["type"] in ("ack", "error")))["type"] == "ack"
    await client.send({**frame, "version": envelope["version"] + 1})
    refused = await client.until(lambda f: f["type"] == "error")
    assert refused["code"] == "duplicate" and refused["action_id"] == "same"
    count = await sync_to_async(lambda: ActionLog.objects.filter(action_id="same").count())()
    assert count == 1
    await client.close()


async def test_anonymous_sockets_are_refused_and_rooms_open_to_their_code_or_a_seat() -> None:
    """Issue 26 (PF-24, PF-61): a room's socket opens to a seat or its code, never to its id alone."""
    paco, paco_cookie = await as_guest("Paco", "g-paco")
    _lola, lola_cookie = await as_guest("Lola", "g-lola")
    _mira, mira_cookie = await signed_in("Mira")

    @sync_to_async
    def create() -> tuple[Table, Table, Table]:
        practice = services.create_room(player=paco, game="pika", mode="bots")
        friends = services.create_room(player=paco, game="pika", mode="friends")
        online = Table.objects.create(
            game="pika", mode="online", code="123456", num_players=2, last_activity_at=timezone.now()
        )
        connection.close()
        return practice, friends, online

    async def refusal(client: Client_) -> tuple[str, int]:
        assert await client.connect()
        code = (await client.next())["code"]
        return code, (await client.ws.receive_output())["code"]

    practice, friends, online = await create()
    assert await refusal(Client_(practice.pk, None, code=practice.code)) == ("identity_required", 4401)
    for table in (practice, friends):  # a guest and a user, by id alone or a wrong code
        for cookie in (lola_cookie, mira_cookie):
            assert await refusal(Client_(table.pk, cookie)) == ("private_room", 4403)
            assert await refusal(Client_(table.pk, cookie, code="999999")) == ("private_room", 4403)
    owner = Client_(practice.pk, paco_cookie)  # a seat needs no code: the player's reconnect
    assert await owner.connect()
    assert (await owner.next())["table"]["you"]["seat"] == 0
    await owner.close()
    for table in (practice, friends):  # the link's code: she may watch
        friend = Client_(table.pk, lola_cookie, code=table.code.lower())
        assert await friend.connect()
        assert (await friend.next())["table"]["you"]["role"] == "spectator"
        await friend.close()
    watcher = Client_(online.pk, mira_cookie)  # an online table is public to users
    assert await watcher.connect()
    assert (await watcher.next())["table"]["you"]["role"] == "spectator"
    await watcher.close()
    assert await refusal(Client_(online.pk, lola_cookie)) == ("guests_not_allowed", 4404)
    foreign = Client_(friends.pk, paco_cookie, origin=b"https://evil.example")
    assert not await foreign.connect()


async def test_chat_reaches_players_and_spectators_and_html_is_text() -> None:
    ana, ana_cookie = await signed_in("Ana")
    bea, bea_cookie = await signed_in("Bea")
    _mira, mira_cookie = await signed_in("Mira")

    table_id = await friends_room(ana, bea, "puteo", players=2)
    code = (await _table(table_id)).code
    clients = [Client_(table_id, c, code=code) for c in (ana_cookie, bea_cookie, mira_cookie)]
    for client in clients:
        assert await client.connect()
        await client.until(lambda f: f.get("type") == "chat_history")
    await clients[1].send({"type": "chat", "text": "<script>alert(1)</script>"})
    for client in clients:
        frame = await client.until(lambda f: f.get("type") == "chat")
        assert frame["message"]["text"] == "<script>alert(1)</script>" and frame["message"]["name"] == "Bea"
    await clients[2].send({"type": "chat", "text": "hola"})
    assert (await clients[2].until(lambda f: f.get("type") == "error"))["code"] == "spectator"
    assert await sync_to_async(lambda: ChatMessage.objects.count())() == 1
    for client in clients:
        await client.close()


async def test_presence_is_shown_and_a_reconnecting_player_gets_the_same_seat_back() -> None:
    ana, ana_cookie = await signed_in("Ana")
    bea, bea_cookie = await signed_in("Bea")

    table_id = await friends_room(ana, bea, "one_card", players=2)
    a, b = Client_(table_id, ana_cookie), Client_(table_id, bea_cookie)
    assert await a.connect() and await b.connect()
    seen = await a.until(
        lambda f: f.get("type") == "snapshot" and all(s["connected"] for s in f["table"]["seats"])
    )
    assert [s["name"] for s in seen["table"]["seats"]] == ["Ana", "Bea"]
    await b.close()
    await a.until(lambda f: f.get("type") == "snapshot" and not f["table"]["seats"][1]["connected"])
    again = Client_(table_id, bea_cookie)
    assert await again.connect()
    assert (await again.next())["table"]["you"]["seat"] == 1
    await again.send({"type": "sync", "version": 0})  # a client that saw a gap asks for a snapshot
    assert (await again.until(lambda f: f.get("type") == "snapshot"))["version"] == again.version
    await a.close()
    await again.close()


@sync_to_async
def _move_without_broadcast(table_id: int, players: list[Player]) -> int:
    """Whoever may move makes a legal move whose group message is never sent (a broadcast the
    layer lost): the new version."""
    table = selectors.get_table(table_id)
    for player in players:
        legal = selectors.table_view_for(table=table, viewer=player)["legal"]
        if legal:
            with broadcast.outbox():  # kept, never delivered
                applied = services.submit_action(
                    table_id=table_id, player=player, action=legal[0], action_id="lost", version=table.version
                )
            connection.close()
            return applied.version
    raise AssertionError("nobody may move")


@pytest.fixture
def envelope_reads(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The viewers (a name, None for anonymous) whose envelope was read from the database."""
    reads: list[str | None] = []
    real_view = selectors.table_view_for

    def counted_view(**kwargs: Any) -> dict[str, Any]:
        reads.append(kwargs["viewer"].name if kwargs["viewer"] else None)
        return real_view(**kwargs)

    monkeypatch.setattr(selectors, "table_view_for", counted_view)
    return reads


async def _dealt_two_player_one_card() -> tuple[int, Player, Player, bytes, bytes]:
    """Ana's and Bea's started friends One Card table: its id, the players and their cookies."""
    ana, ana_cookie = await signed_in("Ana")
    bea, bea_cookie = await signed_in("Bea")
    table_id = await friends_room(ana, bea, "one_card", players=2)
    await sync_to_async(lambda: services.start_table(table_id=table_id, player=ana))()
    return table_id, ana, bea, ana_cookie, bea_cookie


async def _settled(client: Client_) -> None:
    """Connected, its first frames read, and past the presence push of its own connection."""
    assert await client.connect()
    await client.until(lambda f: f.get("type") == "chat_history")
    await client.send({"type": "ping"})
    await client.until(lambda f: f["type"] == "pong")


async def test_a_heartbeat_at_the_current_version_is_a_pong_and_one_after_a_lost_broadcast_a_snapshot(
    envelope_reads: list[str | None],
) -> None:
    """Heartbeats come every few seconds from every socket: one at the current version reads the
    version alone, never a whole envelope; one that finds a newer version gets the snapshot."""
    table_id, ana, bea, ana_cookie, _ = await _dealt_two_player_one_card()
    client = Client_(table_id, ana_cookie)
    await _settled(client)
    seen = client.version

    envelope_reads.clear()
    await client.send({"type": "sync", "version": seen})  # nothing new: a pong, no snapshot
    assert (await client.next())["type"] == "pong"
    assert envelope_reads == []

    newer = await _move_without_broadcast(table_id, [ana, bea])
    assert newer > seen
    envelope_reads.clear()  # the move's own reads
    await client.send({"type": "sync", "version": seen})  # the heartbeat finds the lost push
    assert (await client.next())["version"] == newer and client.snapshot["version"] == newer
    assert (await client.next()) == {"type": "pong", "version": newer}
    assert envelope_reads == ["Ana"]
    await client.close()


async def test_pf63_presence_changes_reach_every_socket_without_any_of_them_reading_the_table(
    envelope_reads: list[str | None],
) -> None:
    """A page opening or closing tells the others at once (PF-63: who is connected), with the
    envelopes the writer built: no socket reads the table back for it, not even the one that
    opened (its first snapshot is its own of those envelopes)."""
    table_id, _, _, ana_cookie, bea_cookie = await _dealt_two_player_one_card()
    a = Client_(table_id, ana_cookie)
    await _settled(a)

    envelope_reads.clear()
    b = Client_(table_id, bea_cookie)
    assert await b.connect()
    seen = await a.until(lambda f: f.get("type") == "snapshot" and f["table"]["seats"][1]["connected"])
    assert seen["version"] == a.version
    await b.until(lambda f: f.get("type") == "chat_history")
    await b.close()
    gone = await a.until(lambda f: f.get("type") == "snapshot" and not f["table"]["seats"][1]["connected"])
    assert gone["table"]["view"]["hand"] == seen["table"]["view"]["hand"]  # Ana's own view, unchanged
    assert envelope_reads == []
    await a.close()


async def _ana_sees_bea_arrive() -> tuple[int, Client_, Client_, bytes]:
    """Ana's socket, then Bea's, both settled, and Ana shown Bea connected: the table's id, the
    two sockets and Bea's cookie (for a second page of hers)."""
    table_id, _, _, ana_cookie, bea_cookie = await _dealt_two_player_one_card()
    a = Client_(table_id, ana_cookie)
    await _settled(a)
    b = Client_(table_id, bea_cookie)
    await _settled(b)
    await a.until(lambda f: f.get("type") == "snapshot" and f["table"]["seats"][1]["connected"])
    return table_id, a, b, bea_cookie


async def test_pf63_a_socket_that_opens_gets_its_snapshot_once() -> None:
    """Its opening is announced to the table (presence, PF-63) at the version it is sent itself:
    that announcement's echo on its own socket is not a second copy of the same snapshot."""
    # Bea's arrival reached Ana: the one group message that is also the echo in Bea's own queue
    # (with Redis it may come after Bea's first pong, hence the wait for it)
    _, a, b, _ = await _ana_sees_bea_arrive()
    await b.send({"type": "ping"})
    await b.until(lambda f: f["type"] == "pong")

    def seen(client: Client_) -> list[tuple[int, bool]]:
        """Its snapshots: (version, whether Bea shows as connected)."""
        return [
            (f["version"], f["table"]["seats"][1]["connected"])
            for f in client.frames
            if f["type"] == "snapshot"
        ]

    # Bea was sent her opening once: her own presence's echo would be the same snapshot again.
    # (With Redis, Ana's own presence message can still reach the process after Bea joined the
    # group, and Bea is then sent that one too: it shows Bea not yet connected.)
    assert [frame for frame in seen(b) if frame[1]] == [(b.version, True)]
    # Ana was sent her own opening once, then Bea's arrival (same version, new presence)
    assert seen(a) == [(a.version, False), (a.version, True)]
    await a.close()
    await b.close()


async def test_a_move_message_is_shared_by_the_process_sockets_each_sending_its_own_frame() -> None:
    """The fanout hands one decoded message to every socket of its group in the process: a
    socket sends its own viewer's frame and leaves the message as it found it for the others."""
    from cardgames.tables.consumers import TableConsumer

    sent: dict[str, list[str]] = {"0": [], "1": []}
    sockets = []
    for key in sent:
        consumer = TableConsumer()
        consumer.viewer_key, consumer.sent_version, consumer.opening = key, 3, None
        consumer.socket_id = f"socket-{key}"

        async def send(text_data: str, key: str = key) -> None:
            sent[key].append(text_data)

        consumer.send = send  # type: ignore[method-assign]
        sockets.append(consumer)
    event = {"type": "table.changed", "version": 4, "force": False, "frames": {"0": "mine", "1": "theirs"}}
    for consumer in sockets:
        await consumer.hear(event)
    assert sent == {"0": ["mine"], "1": ["theirs"]}
    assert event["frames"] == {"0": "mine", "1": "theirs"}


async def test_a_process_joins_a_table_group_once_for_all_its_sockets_and_leaves_with_the_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One channel of the layer per process, not per socket: two sockets of one table make one
    member of its group, and the group is left when both have closed (on either layer: the
    layer's own calls are counted)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    calls: list[tuple[str, str, str]] = []

    def counting(name: str, real: Any) -> Any:
        def counted(group: str, channel: str) -> Any:
            calls.append((name, group, channel))
            return real(group, channel)

        return counted

    for name in ("group_add", "group_discard"):
        monkeypatch.setattr(layer, name, counting(name, getattr(layer, name)))
    table_id, a, b, _ = await _ana_sees_bea_arrive()
    group = broadcast.table_group(table_id)
    adds = [call for call in calls if call[:2] == ("group_add", group)]
    assert len(adds) == 1
    assert len({channel for _, _, channel in calls}) == 1
    await a.close()
    assert ("group_discard", group, adds[0][2]) not in calls
    await b.close()
    for _ in range(50):
        if ("group_discard", group, adds[0][2]) in calls:
            break
        await asyncio.sleep(0.01)
    assert [call for call in calls if call[:2] == ("group_discard", group)] == [
        ("group_discard", group, adds[0][2])
    ]


async def test_what_the_group_says_while_a_socket_opens_follows_its_first_snapshot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket joins its groups before it reads the table, so nothing sent after that read is
    missed; what arrives before its first snapshot is handled after it: the latest move's frame
    if it is newer, and the chat lines its history did not hold (none twice)."""
    from cardgames.tables import consumers

    def opening() -> tuple[consumers.TableConsumer, list[tuple[str, Any]]]:
        consumer = consumers.TableConsumer()
        consumer.table_id, consumer.player, consumer.opening = 1, None, consumers._Missed()
        consumer.socket_id = "me"
        sent: list[tuple[str, Any]] = []

        async def send_json(content: dict[str, Any], close: bool = False) -> None:
            sent.append((content["type"], content))

        async def send(text_data: str) -> None:
            sent.append(("pushed", text_data))

        consumer.send_json = send_json  # type: ignore[method-assign]
        consumer.send = send  # type: ignore[method-assign]
        return consumer, sent

    consumer, sent = opening()
    await consumer.hear({"type": "table.changed", "version": 5, "origin": "me", "force": True})  # own echo
    await consumer.hear({"type": "table.changed", "version": 5, "frames": {"0": "v5"}})
    await consumer.hear({"type": "table.changed", "version": 6, "frames": {"0": "v6"}})
    for line in (1, 2):
        await consumer.hear({"type": "table.chat", "version": 6, "message": {"id": line, "text": "hola"}})
    assert sent == []  # nothing before the first snapshot
    consumer.note_sent({"version": 5, "you": {"seat": 0}})
    await consumer.catch_up({1})
    assert [kind for kind, _ in sent] == ["pushed", "chat"]
    assert sent[0][1] == "v6" and sent[1][1]["message"]["id"] == 2
    await consumer.hear({"type": "table.changed", "version": 6, "frames": {"0": "v6"}})
    assert len(sent) == 2  # now open, and already at version 6

    # a move the first snapshot already holds is not sent again
    consumer, sent = opening()
    await consumer.hear({"type": "table.changed", "version": 6, "frames": {"0": "v6"}})
    consumer.note_sent({"version": 6, "you": {"seat": 0}})
    await consumer.catch_up(set())
    assert sent == []


async def test_a_read_of_the_table_that_a_newer_push_overtook_is_not_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A socket's read of the table runs beside the pushes (``spawn``): when a pushed frame of a
    newer version was sent while it ran, the older snapshot it read is dropped, forced or not,
    so the client never goes back a version."""
    from cardgames.tables import consumers

    consumer = consumers.TableConsumer()
    consumer.table_id, consumer.player, consumer.sent_version = 1, None, 7
    sent: list[dict[str, Any]] = []

    async def send_json(content: dict[str, Any], close: bool = False) -> None:
        sent.append(content)

    read = {"version": 6, "you": {"seat": 0}}

    async def envelope(table_id: int, player: Any) -> dict[str, Any]:
        return read

    consumer.send_json = send_json  # type: ignore[method-assign]
    monkeypatch.setattr(consumers, "_envelope", envelope)
    await consumer.send_snapshot(force=True)
    await consumer.send_snapshot()
    assert sent == [] and consumer.sent_version == 7
    read = {"version": 7, "you": {"seat": 0}}
    await consumer.send_snapshot(force=True)  # the same version, forced (presence): sent
    assert [frame["version"] for frame in sent] == [7]


async def test_a_socket_whose_task_is_cancelled_leaves_its_groups() -> None:
    """daphne cancels a socket's application when its connection dies without a close frame:
    the process stops handing that socket its table's messages (``__call__``'s ``finally``),
    so a dead socket keeps neither a place in the group nor the group's layer membership."""
    from cardgames.tables.fanout import fanout

    table_id, a, b, _ = await _ana_sees_bea_arrive()
    group = broadcast.table_group(table_id)
    assert len(fanout().groups[group].members) == 2
    a.ws.future.cancel()
    b.ws.future.cancel()
    for _ in range(50):
        if group not in fanout().groups:
            break
        await asyncio.sleep(0.01)
    assert group not in fanout().groups


async def test_pf63_a_second_page_of_a_connected_player_tells_the_others_nothing() -> None:
    """Presence is shown per seat (connected or not): Bea opening and closing a second page while
    her first stays open changes nothing Ana sees, so Ana is sent nothing for it."""
    table_id, a, b1, bea_cookie = await _ana_sees_bea_arrive()
    b2 = Client_(table_id, bea_cookie)
    await _settled(b2)
    await b2.close()
    await b1.send({"type": "ping"})
    await b1.until(lambda f: f["type"] == "pong")  # b2's closing is done before b1's ping answer
    await a.send({"type": "ping"})
    assert (await a.next()) == {"type": "pong", "version": a.version}
    await b1.close()
    gone = await a.until(lambda f: f.get("type") == "snapshot")
    assert not gone["table"]["seats"][1]["connected"]
    await a.close()


async def test_a_table_socket_handles_its_messages_without_a_trip_to_the_sync_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """channels' consumers go to the process's one sync thread before every message to close
    that thread's old database connections; the table socket, whose every database call closes
    them on its own thread, does not (5 such trips a move at a table of 4, all through one thread)."""
    trips: list[int] = []

    async def counted() -> None:
        trips.append(1)

    monkeypatch.setattr("channels.consumer.aclose_old_connections", counted)
    table_id, _, _, ana_cookie, bea_cookie = await _dealt_two_player_one_card()
    a, b = Client_(table_id, ana_cookie), Client_(table_id, bea_cookie)
    await _settled(a)
    await _settled(b)  # Ana's socket handles Bea's presence message too
    await a.send({"type": "sync", "version": a.version})
    await a.until(lambda f: f["type"] == "pong")
    assert trips == []
    await a.close()
    await b.close()
