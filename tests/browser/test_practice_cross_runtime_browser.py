"""The same game in both runtimes (PF-62, issue 27): seeded bot games of each of the five games,
played in Chromium's Pyodide (the practice zip the browser downloads) and on the server's CPython,
give the same digest for every state — the deal, each bot's choice and each rule applied."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardgames.engines import GAMES
from cardgames.practice.selfplay import digests
from tests.browser.test_skyjo_puteo_guandan_browser import open_page
from tests.browser.test_tables_browser import browser, server

__all__ = ["browser", "server"]  # the fixtures, used by name
pytestmark = pytest.mark.browser

SEEDS = list(range(1, 21))
#: every level plays in every game (hard without a budget: its fixed search, no clock)
LEVELS = ["easy", "normal", "hard", "normal"]

IN_PYODIDE = """
async ({ pyodide, bundle, request }) => {
  const { loadPyodide } = await import(pyodide + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: pyodide });
  py.unpackArchive(await (await fetch(bundle)).arrayBuffer(), "zip", { extractDir: "/tapete" });
  py.runPython("import sys; sys.path.insert(0, '/tapete')");
  const digests = py.pyimport("cardgames.practice.selfplay").digests_json;
  const out = {};
  for (const game of request.games) {
    out[game] = JSON.parse(digests(JSON.stringify({ game, seeds: request.seeds, levels: request.levels })));
  }
  out.version = py.runPython("import sys; sys.version.split()[0]");
  return out;
}
"""


def test_pf62_every_state_of_seeded_bot_games_is_the_same_in_pyodide_and_on_the_server(
    browser: Any, server: str
) -> None:
    page = open_page(browser)
    page.goto(server + "/practicar/pika/")  # its CSP lets the page compile WebAssembly
    config = json.loads(page.locator("#table-config").text_content())
    request = {"games": list(GAMES), "seeds": SEEDS, "levels": LEVELS}
    found = page.evaluate(
        IN_PYODIDE,
        {"pyodide": server + config["pyodide"], "bundle": server + config["bundle"], "request": request},
    )
    assert found.pop("version").startswith("3.11")  # the server's Python line (Pyodide 0.25)
    states = 0
    for game in GAMES:
        for seed in SEEDS:
            here = digests(game, seed, LEVELS)
            assert found[game][str(seed)] == here, f"{game} seed {seed} differs"
            states += len(here)
    assert states > 20 * 5 * 10
    page.context.close()
