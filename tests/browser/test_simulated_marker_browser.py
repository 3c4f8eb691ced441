"""The simulated-player marker in each game's own drawing (issue 12; PF-16, PF-51).

An online table that takes too long to fill gets simulated players, and they are disclosed as
such (docs/decisions.md). The seats strip of the table page shows the marker for every game
(test_journeys_browser's online journey checks it on a real online table); this checks that
each of the five game modules also marks the seat where it draws that player (the One Card and
Pika opponents, El Puteo's players, Skyjo's other grids, Guandan's seats), visibly and in the
accessibility tree, and marks nobody else. Each module is put on a page of the site by itself
with the envelope the server would send (test_skyjo_puteo_guandan_browser's ``mount``), for a
position the real engine dealt.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.test_onecard_pika_browser import axe_violations
from tests.browser.test_skyjo_puteo_guandan_browser import mount, open_page
from tests.browser.test_tables_browser import browser, server

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

#: game -> (players, the element that draws another player's seat)
SEATS = {
    "one_card": (3, ".opponent"),
    "pika": (3, ".opponent"),
    "puteo": (3, ".pt-player"),
    "skyjo": (3, ".sk-other"),
    "guandan": (4, ".gd-seat"),
}
SIMULATED = 1


def online_envelope(game: str, players: int) -> dict[str, Any]:
    """Seat 0's envelope at a free online table where seat 1 is a simulated player."""
    from cardgames.engines import get_engine

    engine = get_engine(game)
    state = engine.new_game(players, seed=3, options={"turn_seconds": None})
    seats = [
        {"seat": s, "name": f"Persona {s + 1}", "kind": "human", "connected": True} for s in range(players)
    ]
    seats[0]["name"] = "Ana"
    seats[SIMULATED] = {"seat": SIMULATED, "name": "Lucía 7", "kind": "simulated", "level": "normal"}
    seats[SIMULATED]["connected"] = True
    env = {
        "version": 1,
        "status": "playing",
        "game": game,
        "mode": "online",
        "seats": seats,
        "you": {"seat": 0, "role": "player"},
        "to_act": engine.to_act(state),
        "legal": engine.legal_actions(state, 0),
        "view": engine.view(state, 0),
        "last": None,
        "result": None,
    }
    return json.loads(json.dumps(env))


@pytest.mark.parametrize("game", list(SEATS))
def test_pf16_each_game_marks_the_simulated_seat_and_nobody_else(browser, server: str, game: str) -> None:
    players, seat_selector = SEATS[game]
    page = open_page(browser)
    mount(page, server, game, online_envelope(game, players))
    seat = page.locator(f'#game-area {seat_selector}[data-seat="{SIMULATED}"]')
    assert seat.count() == 1
    marker = seat.locator(".badge.kind-simulated")
    assert marker.count() == 1 and marker.is_visible()
    assert marker.inner_text() == "jugador simulado"
    assert "jugador simulado" in seat.aria_snapshot()  # read out, not hidden from it
    assert page.locator("#game-area .kind-simulated").count() == 1  # the people carry none
    people = page.locator(f'#game-area {seat_selector}:not([data-seat="{SIMULATED}"])')
    assert people.count() >= 1 and "simulado" not in " ".join(people.all_inner_texts())
    assert axe_violations(page) == []  # the badge's contrast on each game's seat
    assert page.errors == []
    page.context.close()
