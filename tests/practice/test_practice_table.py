"""The practice table (PF-13, PF-62): the live table's rules of play with no database, driven
through the real engines and bots as the browser's worker drives it (``PracticeSession``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engines import GAMES, get_engine
from cardgames.practice.session import PracticeSession
from cardgames.practice.table import YOU, PracticeError, PracticeTable
from cardgames.tables import flow

NOW = 1_800_000_000.0


def new_table(game: str, **kwargs: Any) -> PracticeTable:
    return PracticeTable.start(game=game, seed=kwargs.pop("seed", "s1"), now=NOW, **kwargs)


def settle(table: PracticeTable, now: float) -> float:
    """Wake the table until it waits for the person (or ends); the time it has reached."""
    for _ in range(2000):
        wake = table.next_wake()
        eng = get_engine(table.game)
        if table.status != "playing" or (YOU in eng.to_act(eng.load(table.state)) and wake is None):
            return now
        if wake is None:
            raise AssertionError("a practice table that waits for nobody")
        now = max(now, wake)
        table.wake(now)
        if YOU in eng.to_act(eng.load(table.state)):
            return now
    raise AssertionError("the bots never gave the turn back")


@pytest.mark.parametrize("game", GAMES)
def test_pf62_a_practice_table_deals_what_the_engine_deals_for_its_seed(game: str) -> None:
    table = new_table(game, seed="abc")
    eng = get_engine(game)
    dealt = eng.new_game(table.num_players, seed="abc", options=table.options)
    assert table.state == eng.dump(dealt)
    assert table.options["turn_seconds"] is None  # PF-13: no per-player clock against bots
    assert [s.kind for s in table.seats] == ["human"] + ["bot"] * (table.num_players - 1)


def test_pf13_players_level_and_options_are_checked_like_a_live_room() -> None:
    with pytest.raises(PracticeError) as bad:
        new_table("puteo", players=9, options={"mode": "classic"})  # PT-2: classic seats 8
    assert bad.value.code == "bad_players"
    with pytest.raises(PracticeError) as bad:
        new_table("puteo", options={"lives": 4})  # PT-50: 5 or 3
    assert bad.value.code == "bad_options"
    with pytest.raises(PracticeError) as bad:
        new_table("one_card", options={"deck": ["7H"]})  # test-only engine options never come in
    assert bad.value.code == "bad_options"
    with pytest.raises(PracticeError) as bad:
        new_table("pika", level="expert")
    assert bad.value.code == "bad_level"
    table = new_table("puteo", players=3, level="hard", options={"lives": 3})
    assert table.num_players == 3 and table.options["lives"] == 3 and table.seats[1].level == "hard"


def test_an_illegal_move_is_the_engines_refusal_and_changes_nothing() -> None:
    table = new_table("one_card", players=2)
    settle(table, NOW)
    before = json.dumps(table.dump(), sort_keys=True)
    with pytest.raises(PracticeError) as refused:
        table.act({"type": "play", "card": "XX"}, version=table.version, now=NOW + 5)
    assert refused.value.code not in {"stale", "not_playing"}  # the engine's own code
    with pytest.raises(PracticeError) as stale:
        table.act({"type": "draw"}, version=table.version - 1, now=NOW + 5)
    assert stale.value.code == "stale"
    assert json.dumps(table.dump(), sort_keys=True) == before


def test_bots_wait_their_think_time_then_make_one_move_a_wake() -> None:
    table = new_table("pika", players=4, think=1.0)
    eng = get_engine("pika")
    state = eng.load(table.state)
    if YOU in eng.to_act(state):
        table.act(eng.legal_actions(state, YOU)[0], version=table.version, now=NOW)
    version = table.version
    asked_at = table.bots_at
    assert asked_at is not None and table.next_wake() == pytest.approx(asked_at)
    assert table.wake(asked_at - 0.01) is False and table.version == version  # not yet
    assert table.wake(asked_at) is True and table.version == version + 1  # one bot move
    row = table.log[-1]
    assert row.source == "bot" and row.seat != YOU and row.seq == table.version


def test_a_bots_memory_is_kept_on_its_seat_between_moves() -> None:
    table = new_table("one_card", players=3, level="hard", seed="mem")
    memories: list[Any] = []
    now = NOW
    for _ in range(60):
        now = settle(table, now)
        memories += [s.memory for s in table.seats[1:]]
        if table.status != "playing":
            break
        eng = get_engine("one_card")
        legal = eng.legal_actions(eng.load(table.state), YOU)
        table.act(legal[-1], version=table.version, now=now)
    assert any(memories), "the hard One Card bot remembers its decisions (docs/bots.md)"


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_practice_game_through_the_workers_frames(game: str) -> None:
    """The person plays the normal bot's hint each turn (the page's "Sugerir"), through the frames
    the page sends; the table reaches the end, every answer is the live protocol's, and the table
    kept after each change reloads to the same table (IndexedDB, a reload mid-game)."""
    session = PracticeSession()
    options = {"start_levels": ["A", "A"]} if game == "guandan" else {}
    answer = session.start(
        {
            "game": game,
            "seed": f"whole-{game}",
            "players": 2 if game != "guandan" else 4,
            "think": 0.5,
            **options,
        },
        NOW,
    )
    assert [f["type"] for f in answer["frames"]] == ["log", "snapshot"]
    now = NOW
    kept = answer["table"]
    for _ in range(20_000):
        envelope = (
            answer["frames"][-1]["table"]
            if answer["frames"] and answer["frames"][-1]["type"] == "snapshot"
            else None
        )
        if answer["table"] is not None:
            kept = answer["table"]
            assert PracticeTable.load(json.loads(json.dumps(kept))).dump() == kept  # exact JSON round trip
        if answer["status"] == "finished":
            break
        action = None
        if envelope is not None and YOU in envelope["to_act"]:
            hint = session.frame({"type": "hint"}, now)["frames"][0]
            assert hint["type"] == "hint" and hint["version"] == envelope["version"]
            # Guandan's plays travel packed (legal_wire): the hint names one
            action = hint["action"] or (envelope["legal"] or [None])[0]
        if action is not None:
            answer = session.frame(
                {"type": "action", "action": action, "version": envelope["version"], "action_id": "a"}, now
            )
            continue
        now = max(now, (answer["wake_at"] or now * 1000) / 1000)
        answer = session.wake(now)
        if not answer["frames"]:
            answer = session.frame({"type": "sync"}, now)
    else:
        raise AssertionError(f"{game}: practice game did not end")
    final = session.frame({"type": "sync"}, now)["frames"][0]["table"]
    assert final["status"] == "finished" and final["result"] and final["seed"] == f"whole-{game}"
    assert final["mode"] == "practice" and final["earnings"] is None  # PF-13: nothing earned
    eng = get_engine(game)
    assert final["result"] == eng.result(eng.load(kept["state"]))


def test_a_reload_resumes_the_same_table_and_what_fell_due_happens_then() -> None:
    first = PracticeSession()
    answer = first.start({"game": "skyjo", "seed": "reload", "players": 3}, NOW)
    kept = answer["table"]
    envelope = answer["frames"][-1]["table"]
    later = (answer["wake_at"] or 0) / 1000 + 60  # the browser was closed a minute
    again = PracticeSession()
    resumed = again.resume(kept, later)
    log, snapshot = resumed["frames"]
    assert log["type"] == "log" and snapshot["type"] == "snapshot"
    assert snapshot["table"]["version"] >= envelope["version"]
    assert resumed["table"] is None or resumed["table"]["version"] > kept["version"]


def test_timers_lapse_by_id_while_the_person_waits() -> None:
    """A window (Pika's countdown, a Guandan pause) lapses at its deadline, by id, as on a live table."""
    table = new_table("guandan", seed="pause", think=0.0)
    now = NOW
    for _ in range(5000):
        eng = get_engine("guandan")
        state = eng.load(table.state)
        timers = eng.timers(state)
        pauses = [t for t in timers if t["seat"] is None]
        if pauses:
            start = table.timer_starts[pauses[0]["id"]]
            deadline = flow.deadline(pauses[0], table.timer_starts)
            assert deadline == start + pauses[0]["seconds"]
            before = table.version
            table.wake(deadline - 0.01)
            still = [t["id"] for t in eng.timers(eng.load(table.state))]
            assert pauses[0]["id"] in still or table.version > before
            return
        if YOU in eng.to_act(state):
            legal = eng.legal_actions(state, YOU)
            table.act(random.Random(table.version).choice(legal), version=table.version, now=now)
        else:
            now = table.next_wake() or now
            table.wake(now)
    raise AssertionError("no pause reached")


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    frame=st.dictionaries(st.sampled_from(["type", "action", "version", "action_id", "k"]), JSONISH)
    | JSONISH,
    current=st.booleans(),
)
def test_bad_frames_get_an_error_frame_and_change_nothing(frame: Any, current: bool) -> None:
    session = PracticeSession()
    session.start({"game": "puteo", "seed": "junk", "players": 3}, NOW)
    assert session.table is not None
    before = json.dumps(session.table.dump(), sort_keys=True)
    if isinstance(frame, dict) and isinstance(frame.get("type"), str) and frame["type"] == "action":
        # made against this version (the engine refuses the junk) or another (stale)
        frame["version"] = session.table.version if current else -1
        if isinstance(frame.get("action"), dict) and frame["action"].get("type") in {"bid", "play"}:
            frame["action"] = {"type": "junk"}  # a well-formed legal move would rightly be applied
    answer = session.frame(frame, NOW)
    assert all(f["type"] in {"error", "snapshot", "log", "hint"} for f in answer["frames"])
    kind = frame.get("type") if isinstance(frame, dict) else None
    if not (isinstance(kind, str) and kind in {"sync", "log", "hint", "ping"}):
        assert answer["frames"][0]["type"] == "error"  # (those are answered as the live consumer does)
    assert json.dumps(session.table.dump(), sort_keys=True) == before


@pytest.mark.parametrize(
    "request_",
    [
        None,
        [],
        {"game": "chess", "seed": "x"},
        {"game": "pika"},
        {"game": "pika", "seed": 3},
        {"game": "pika", "seed": "x", "think": -1},
        {"game": "pika", "seed": "x", "surprise": 1},
    ],
)
def test_a_bad_set_up_is_an_error_frame_and_no_table(request_: Any) -> None:
    session = PracticeSession()
    answer = session.start(request_, NOW)
    if isinstance(request_, dict) and request_.get("surprise"):
        assert answer["status"] == "playing"  # an unknown key of the page's is ignored
        return
    assert [f["type"] for f in answer["frames"]] == ["error"] and answer["table"] is None
    assert session.table is None and answer["ok"] is False


def test_another_game_deals_again_with_the_same_set_up_and_a_late_match_starts_afresh() -> None:
    """ "Otra partida": the set-up kept on the table (also after a reload) deals a new game; a
    Guandan match set up at A starts again at 2 (GD-3), as the live rematch does."""
    session = PracticeSession()
    first = session.start(
        {"game": "guandan", "seed": "one", "level": "hard", "think": 0.2, "start_levels": ["A", "A"]}, NOW
    )
    assert first["frames"][-1]["table"]["view"]["levels"] == ["A", "A"]
    kept = json.loads(json.dumps(first["table"]))
    again = session.start({**kept["setup"], "game": "guandan", "seed": "two"}, NOW + 1)
    assert again["ok"] and again["frames"][-1]["table"]["view"]["levels"] == ["2", "2"]
    assert session.table is not None and session.table.seats[1].level == "hard" and session.table.think == 0.2


@pytest.mark.parametrize("game", GAMES)
def test_autoplay_plays_the_persons_seat_too_so_a_whole_game_is_bots_moves(game: str) -> None:
    """bench/offline.py's games: every seat a bot of the chosen level, the table's wakes alone end it."""
    table = PracticeTable.start(game=game, seed="auto", now=NOW, level="hard", think=0, autoplay=True)
    now = NOW
    for _ in range(20_000):
        if table.status == "finished":
            break
        wake = table.next_wake()
        assert wake is not None, "an autoplay table never waits for the person"
        now = max(now, wake)
        table.wake(now)
    assert table.status == "finished"
    assert any(row.seat == YOU and row.source == "bot" for row in table.log)


@pytest.mark.parametrize(
    ("given", "shown"),
    [(None, "Jugador"), ("Player", "Player"), ("  ", "Jugador"), (7, "Jugador"), ("x" * 40, "x" * 20)],
)
def test_the_persons_seat_takes_the_pages_name_or_the_default(given: Any, shown: str) -> None:
    table = new_table("pika", name=given)
    assert table.envelope(NOW)["seats"][0]["name"] == shown


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: t.pop("state"),
        lambda t: t.update(surprise=1),
        lambda t: t["seats"].append(3),
        lambda t: t.update(log=[{}]),
    ],
)
def test_a_saved_table_it_cannot_read_is_refused_not_half_loaded(damage: Any) -> None:
    """The worker deals afresh when a kept table cannot be read (practice/worker.js): reading one
    raises instead of giving a table that breaks later."""
    kept = PracticeSession().start({"game": "pika", "seed": "kept"}, NOW)["table"]
    damage(kept)
    with pytest.raises((TypeError, KeyError, ValueError)):
        PracticeSession().resume(kept, NOW)
