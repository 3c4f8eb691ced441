"""Offline practice pages (PF-13, PF-62; docs/offline.md): the games' list and each game's table.

Both pages name nobody (no account, no coins, no CSRF token) so the service worker can keep them
and show them with no network: everything after the first load happens in the browser, on the
practice table run by ``static/frontend/practice/worker.js`` (Pyodide). The table page is the live
table's page (``_board.html``, ``table.js`` and the same game modules) fed by the worker.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse

from .games import GAMES_BY_SLUG
from .table_strings import table_strings
from .views import BOT_LEVELS, home_games

#: Pyodide's runtime (12 MB): a cache of its own, named by its version, so a new deployment of the
#: site does not make players download it again (only an upgrade of the pinned package does)
RUNTIME_FILES: tuple[str, ...] = (
    "vendor/pyodide/pyodide.mjs",
    "vendor/pyodide/pyodide.asm.js",
    "vendor/pyodide/pyodide.asm.wasm",
    "vendor/pyodide/python_stdlib.zip",
    "vendor/pyodide/pyodide-lock.json",
)
#: the rest a practice table needs beyond the site's shell (sw.js): the rules code, the scripts
PRACTICE_FILES: tuple[str, ...] = (
    "offline/tapete-practice.zip",
    "frontend/practice/worker.js",
    "frontend/practice/store.js",
    "frontend/practice/transport.js",
    "frontend/practice/download.js",
    "frontend/practice/home.js",
    "frontend/table.js",
    "frontend/table.css",
    "frontend/games.css",
    "frontend/endgame.js",
    "frontend/api.js",
    "frontend/tabs.js",
    "frontend/cards.js",
    "frontend/render.js",
    "frontend/movelog.js",
    "frontend/turn.js",
    "frontend/games/onecard.js",
    "frontend/games/pika.js",
    "frontend/games/puteo.js",
    "frontend/games/skyjo.js",
    "frontend/games/guandan.js",
    "frontend/games/shedding.js",
    "frontend/games/controls.js",
    "frontend/games/guandan_help.js",
    "frontend/games/guandan_legal.js",
)
#: a page's size for the download's progress (the static files' are read from disk)
PAGE_BYTES = 24_000


def practice_pages() -> list[str]:
    """The practice pages' addresses: the list and each game's table."""
    return [reverse("frontend:practice")] + [
        reverse("frontend:practice_table", args=[slug]) for slug in GAMES_BY_SLUG
    ]


def _found(name: str) -> Path:
    found = finders.find(name)
    if not isinstance(found, str):
        raise FileNotFoundError(f"{name}: run bin/setup (python -m frontend.offline)")
    return Path(found)


@lru_cache(maxsize=1)
def offline_caches() -> dict[str, str]:
    """The service worker's two practice caches: the runtime's (by Pyodide's version) and the
    rest's (by the content of its files; the pages are refreshed from the network when online)."""
    version = _found("vendor/pyodide/VERSION").read_text().strip()
    digest = hashlib.sha256()
    for name in PRACTICE_FILES:
        digest.update(name.encode() + _found(name).read_bytes())
    return {"runtime": f"tapete-pyodide-{version}", "practice": f"tapete-practice-{digest.hexdigest()[:12]}"}


def offline_manifest() -> dict[str, Any]:
    """What "Descargar para jugar sin conexión" stores: each cache, its addresses and their sizes."""
    names = offline_caches()
    runtime = [{"url": static(n), "bytes": _found(n).stat().st_size} for n in RUNTIME_FILES]
    practice = [{"url": url, "bytes": PAGE_BYTES} for url in practice_pages()]
    practice += [{"url": static(n), "bytes": _found(n).stat().st_size} for n in PRACTICE_FILES]
    return {
        "caches": [
            {"name": names["runtime"], "files": runtime},
            {"name": names["practice"], "files": practice},
        ]
    }


def practice_home(request: HttpRequest) -> HttpResponse:
    """/practicar/: the five games with their set-up, and the download for playing offline."""
    context: dict[str, Any] = {
        "rooms": home_games(request),
        "levels": BOT_LEVELS,
        "offline": offline_manifest(),
    }
    return render(request, "frontend/practice_home.html", context)


def practice_table(request: HttpRequest, game: str) -> HttpResponse:
    """/practicar/<game>/: the game's table, played against bots in this browser."""
    info = GAMES_BY_SLUG.get(game)
    if info is None:
        raise Http404("unknown game")
    config = {
        "game": game,
        "practice": True,
        "home": reverse("frontend:practice"),
        "worker": static("frontend/practice/worker.js"),
        "bundle": static("offline/tapete-practice.zip"),
        "pyodide": static("vendor/pyodide/"),
        "strings": table_strings(),
        "levels": [[value, str(label)] for value, label in BOT_LEVELS],
    }
    return render(request, "frontend/practice_table.html", {"game": info, "config": config, "practice": True})
