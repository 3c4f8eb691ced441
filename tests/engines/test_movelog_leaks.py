"""The move log never tells a viewer a card their view did not show them (OC-52, PK-52, PT-46 –
PT-48, SK-27 – SK-29, GD-57 – GD-59).

Whole bot games of the five games, played by the bots' own driver (in every other game most of
the moves are a random player's or a lapsing timer's, for the rare paths: catches, missed calls,
timeouts); after every applied action,
every seat and the spectator: each card the row's log entry (facts, banners) and the cards marked
as entering the hand name must have been in that viewer's ``engine.view`` at that version or
before in the same deal (the same cards are dealt again in the next), as many copies at once as
the entry names. Pika's bots never reorder their hand, so a
player here reorders now and then (PK-46), and that row must show nothing to anyone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardgames.bots.driver import BotTable, step
from cardgames.engines import GAMES, Engine, get_engine
from cardgames.tables import movelog
from tests.engines.harness import cards_in, random_step

#: game -> (seeds, player counts): whole games, kept short (Guandan plays a match from A: 1 deal+)
PLAN: dict[str, tuple[int, tuple[int, ...]]] = {
    "one_card": (6, (2, 3, 4)),
    "pika": (6, (2, 3, 4)),
    "puteo": (2, (3, 5)),
    "skyjo": (2, (2, 4)),
    "guandan": (2, (4,)),
}
LEVELS = ("easy", "normal", "hard")


class Recorder:
    """The engine, noting every applied (seat, action, events) for the test (the driver drops them)."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        self.rows: list[tuple[int | None, dict[str, Any], list[dict[str, Any]]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.eng, name)

    def apply(self, state: Any, seat: int | None, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        new, events = self.eng.apply(state, seat, action)
        self.rows.append((seat, dict(action), events))
        return new, events


def _options(game: str, seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {"turn_seconds": 30 if seed % 2 else None}
    if game == "puteo":
        options["lives"] = 3
    if game == "guandan":
        options["levels"] = ["Q", "Q"]  # a short match: a few deals, with tributes and returns
    return options


def _cards(entry: Any, codes: frozenset[str]) -> Counter[str]:
    return cards_in(entry, codes)


def _check_row(
    eng: Engine,
    game: str,
    state: Any,
    row: tuple[int | None, dict[str, Any], list[dict[str, Any]]],
    seen: dict[int | None, Counter[str]],
    viewers: list[int | None],
) -> None:
    seat, action, events = row
    for viewer in viewers:
        view = eng.view(state, viewer)
        now = cards_in(view, eng.card_codes)
        if movelog.starts_deal(game, events):  # a new deal: what was seen of the last one is gone
            seen[viewer] = Counter()
        seen[viewer] |= now  # the most copies of each card shown at once, so far in this deal
        entry = movelog.describe(game, seat, action, events, viewer)
        hand = view.get("hand") if isinstance(view, dict) else None
        told = Counter(movelog.entered(game, seat, events, viewer, hand))
        if entry is not None:  # a banner repeats its fact: each part is checked on its own
            told |= _cards(entry["facts"], eng.card_codes) | _cards(entry.get("banners"), eng.card_codes)
        leak = told - seen[viewer]
        assert not leak, f"{game}: row {action} tells seat {viewer} {dict(leak)} (entry {entry})"
        assert set(entry or {}) <= {"seat", "type", "facts", "banners", "new_deal"}


@pytest.mark.parametrize("game", GAMES)
def test_no_log_entry_names_a_card_its_viewer_was_not_shown(game: str) -> None:
    eng = get_engine(game)
    seeds, counts = PLAN[game]
    described = 0
    for seed in range(seeds):
        n = counts[seed % len(counts)]
        rng = random.Random(f"movelog:{game}:{seed}")
        recorder = Recorder(eng)
        table = BotTable.seated(game, [rng.choice(LEVELS) for _ in range(n)], seed)
        state = eng.new_game(n, seed=seed, options=_options(game, seed))
        viewers: list[int | None] = [*range(n), None]
        seen: dict[int | None, Counter[str]] = {
            v: cards_in(eng.view(state, v), eng.card_codes) for v in viewers
        }
        for _ in range(20_000):
            if eng.is_over(state):
                break
            if seed % 2 and rng.random() < 0.6:  # a person's move or a lapsing clock: the rare paths
                windows = [t for t in eng.timers(state) if t["name"] in ("catch", "pika")]
                if windows and rng.random() < 0.5:  # nobody catches in time; a Pika call forgotten
                    who, action = windows[0]["seat"], {"type": "timeout", "timer": windows[0]["name"]}
                else:
                    who, action = random_step(eng, state, rng)
                state = recorder.apply(state, who, action)[0]
            elif game == "pika" and rng.random() < 0.1:  # PK-46: a person reorders now and then
                who = rng.randrange(n)
                hand = list(eng.view(state, who)["hand"])
                rng.shuffle(hand)
                state = recorder.apply(state, who, {"type": "reorder", "order": hand})[0]
            else:
                state = step(recorder, state, table)  # type: ignore[arg-type]
            row = recorder.rows[-1]
            _check_row(eng, game, state, row, seen, viewers)
            if row[1]["type"] == "reorder":
                assert all(movelog.describe(game, row[0], row[1], row[2], v) is None for v in viewers)
            described += 1
    assert described > 50
