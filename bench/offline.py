"""Offline practice in Chromium (PF-62, issue 27): cold start from the cache, and bot moves in the worker.

    .venv/bin/python -m bench.offline                       # every game, every level
    .venv/bin/python -m bench.offline --games guandan --levels hard --seconds 40

Starts the site as ``bin/run`` serves it (daphne on the embedded defaults, a throwaway SQLite),
visits /practicar/ once online so the service worker keeps the practice files, then cuts the
network (``context.set_offline``) and measures, in Debian's Chromium:

- **cold start**: a fresh page of each game's practice table, from the cache, to its first playable
  hand (the runtime loaded in the worker, the rules unpacked, the game dealt and drawn, a legal
  control enabled); the median of ``--starts`` loads, and the worst.
- **bot moves**: whole games in which every seat is a bot of one level (``autoplay``, the bots'
  pause off), for ``--seconds`` per game and level; each wake-up of the worker that made a move is
  timed inside the worker (the bot's decision, the rules applied, the envelope and move log built:
  what the player waits for beyond the pause). p50, p95 and the worst, per game and level.

Targets on this 2-core machine (docs/performance.md): first hand ≤ 5 s from the cache, bot moves
p95 ≤ 300 ms (hard bots and Guandan's lead generation included).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.live_harness import free_port, percentile

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("one_card", "pika", "puteo", "skyjo", "guandan")
LEVELS = ("easy", "normal", "hard")
PLAYERS = {"one_card": 4, "pika": 4, "puteo": 4, "skyjo": 4, "guandan": 4}
READY = "#table-app[data-status=playing] #hand [data-card]"  # the hand drawn (whoever is to play)


def start_site(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        SQLITE_PATH=str(tmp / "site.sqlite3"), TAPETE_RUN_DIR=str(tmp / "run"), DEBUG="false", HTTPS="false"
    )
    env.setdefault("SECRET_KEY", "bench-offline-" + "x" * 40)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env={**env, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    import urllib.request

    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/practicar/", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the site did not start")


def warm(context: Any, url: str) -> None:
    """The first visit online: the practice files into the service worker's cache."""
    page = context.new_page()
    page.goto(url + "/practicar/")
    page.locator("#offline-download[data-state=ready]").wait_for(timeout=180_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.close()


def cold_start(context: Any, url: str, game: str) -> tuple[float, dict[str, int]]:
    """Seconds from a new page's navigation to the first playable hand, offline, from the cache;
    and the worker's own marks (ms from its start: Pyodide's module, the runtime, the rules, the table)."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"{url}/practicar/{game}/?nueva=1&bot_level=normal&players={PLAYERS[game]}")
    page.locator(READY).first.wait_for(timeout=60_000)
    seconds = time.perf_counter() - started
    marks = page.evaluate("window.__practiceStats.marks")
    page_ms = page.evaluate(
        "({worker_made: __practiceStats.opened, first_table: __practiceStats.firstSnapshot,"
        " hand_drawn: performance.now()})"
    )
    page.close()
    return seconds, {**marks, **{k: round(v) for k, v in page_ms.items()}}


def bot_moves(context: Any, url: str, game: str, level: str, seconds: float) -> list[float]:
    """Milliseconds of each bot move in the worker, over whole all-bot games for ``seconds``."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = context.new_page()
        page.goto(
            f"{url}/practicar/{game}/?nueva=1&bot_level={level}&players={PLAYERS[game]}&think=0&autoplay=1"
        )
        page.get_by_test_id("practice-loading").wait_for(state="hidden", timeout=60_000)
        left = max(1.0, deadline - time.monotonic())
        with contextlib.suppress(Exception):  # the time is up mid-game: its moves count
            page.locator("#table-app[data-status=finished]").wait_for(timeout=left * 1000)
        times += page.evaluate("window.__practiceStats.wakes")
        page.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--levels", nargs="*", default=list(LEVELS))
    parser.add_argument("--starts", type=int, default=5, help="cold starts per game")
    parser.add_argument(
        "--seconds", type=float, default=25.0, help="seconds of all-bot play per game and level"
    )
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    report: dict[str, Any] = {"cold_start_s": {}, "bot_move_ms": {}}
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_site(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(viewport={"width": 390, "height": 844})
                warm(context, url)
                context.set_offline(True)
                for game in args.games:
                    runs = [cold_start(context, url, game) for _ in range(args.starts)]
                    starts = [seconds for seconds, _ in runs]
                    report["cold_start_s"][game] = {
                        "median": round(statistics.median(starts), 2),
                        "max": round(max(starts), 2),
                        "n": len(starts),
                        # the page's marks from its navigation, the worker's from the worker's start
                        "marks_ms": {k: statistics.median(m[k] for _, m in runs) for k in runs[0][1]},
                    }
                    print(game, "cold start", report["cold_start_s"][game], flush=True)
                    for level in args.levels:
                        times = bot_moves(context, url, game, level, args.seconds)
                        row = {
                            "n": len(times),
                            "p50": round(percentile(times, 50), 1),
                            "p95": round(percentile(times, 95), 1),
                            "max": round(max(times), 1),
                        }
                        report["bot_move_ms"][f"{game}/{level}"] = row
                        print(game, level, "bot moves (ms)", row, flush=True)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
