"""`bin/screenshots`: start the site on embedded defaults and photograph every page and each
game's table mid-game, at 390 × 844 (phone) and 1440 × 900 (desktop), in the light theme or,
with ``--themes light,dark``, in both (the system's colour scheme: theme.js follows it).

The site runs as `bin/run` runs it (daphne on the ASGI app; the sweeper and bots inside it),
on a free port, with a fresh SQLite file and production-like settings (DEBUG off), so the
pictures show what a player sees. A bots game per game is started from the home page as a
signed-in player, who then plays the first legal control a few times (the table pages mark
every move control with ``.legal``, docs/protocol.md) so the table is mid-game. PNGs go to
``.run/screenshots/`` (or the folder given), which git ignores.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / ".run" / "screenshots"
VIEWPORTS = {"phone": (390, 844), "desktop": (1440, 900)}
GAMES = ("one_card", "pika", "puteo", "skyjo", "guandan")
PLAYER, PASSWORD = "Ana", "mesa-verde-2026"
#: pages as a signed-in player sees them, then as a visitor (name, path)
SIGNED_IN_PAGES = [
    ("home", "/"),
    *[(f"rules-{game}", f"/reglas/{game}/") for game in GAMES],
    ("wallet", "/monedero/"),
    ("shop", "/tienda/"),
    ("league", "/liga/"),
    ("profile", "/cuenta/perfil/"),
    ("public-profile", f"/cuenta/jugador/{PLAYER}/"),
    ("rulezz", "/rulezz/"),
]
VISITOR_PAGES = [
    ("visitor-home", "/"),
    ("login", "/cuenta/entrar/"),
    ("signup", "/cuenta/registro/"),
    ("guest", "/cuenta/invitado/"),
    ("offline", "/sin-conexion/"),
]
#: how many moves the player makes before the table's picture, and how long that may take
MOVES = 4
MOVES_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def site_env(work: Path) -> dict[str, str]:
    """The embedded defaults of `bin/run` in a folder of their own (never the developer's db)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        SQLITE_PATH=str(work / "site.sqlite3"),
        TAPETE_RUN_DIR=str(work / "run"),
        DEBUG="false",
        HTTPS="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        TABLE_BOT_THINK_SECONDS=os.environ.get("TABLE_BOT_THINK_SECONDS", "0.5"),
        # one player starts a bots table per game, size and theme (20 with both themes): more than
        # the 10 live rooms a host may keep (issue 26), which these pictures are not about
        TABLES_MAX_LIVE_ROOMS="100",
    )
    return env


@contextmanager
def running_site(work: Path) -> Iterator[str]:
    env = site_env(work)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "compiletranslations"], env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    create = f"from accounts.models import User; User.objects.create_user({PLAYER!r}, password={PASSWORD!r})"
    subprocess.run([*manage, "shell", "-c", create], env=env, check=True, cwd=ROOT)
    port = free_port()
    log = (work / "daphne.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the site did not start; see {work / 'daphne.log'}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # daphne waits for open sockets to close; ours are done
            proc.kill()
            proc.wait()
        log.close()


def chromium() -> str:
    path = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
    if not path:
        raise SystemExit("bin/screenshots needs Chromium (apt-get install chromium)")
    return path


def log_in(page: Any, url: str) -> None:
    page.goto(url + "/cuenta/entrar/")
    page.get_by_label("Nombre de usuario").fill(PLAYER)
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.get_by_test_id("nav-profile").wait_for()


def table_version(page: Any) -> int:
    table_id = page.evaluate("JSON.parse(document.getElementById('table-config').textContent).id")
    envelope = page.evaluate(f"fetch('/api/tables/{table_id}').then((r) => r.json())")
    return int(envelope.get("version", 0))


def play_a_few_moves(page: Any) -> None:
    """Click the first legal control until the table has moved on a few versions (bots move too)."""
    start = table_version(page)
    deadline = time.monotonic() + MOVES_SECONDS
    while time.monotonic() < deadline and table_version(page) < start + MOVES * 2:
        control = page.locator("#game-area .legal:not([disabled])").first
        try:
            control.click(timeout=3_000)
        except Exception:  # not our turn yet, or the control re-rendered: look again
            page.wait_for_timeout(300)


def shoot(page: Any, out: Path, name: str) -> None:
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(out / f"{name}.png"), full_page=True, animations="disabled")
    print("saved", out / f"{name}.png")


def take_all(url: str, out: Path, games: tuple[str, ...], themes: tuple[str, ...] = ("light",)) -> list[str]:
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
        for theme, (size, (width, height)) in [(t, v) for t in themes for v in VIEWPORTS.items()]:
            # the light theme keeps the plain names (phone-home.png); the dark one adds "-dark"
            label = size if theme == "light" else f"{size}-dark"
            viewport = {"width": width, "height": height}
            # no service worker: its cache would keep files that change while a developer works
            options = {
                "viewport": viewport,
                "locale": "es-ES",
                "service_workers": "block",
                "color_scheme": theme,
            }
            visitor = browser.new_context(**options)
            page = visitor.new_page()
            for name, path in VISITOR_PAGES:
                page.goto(url + path)
                shoot(page, out, f"{label}-{name}")
            visitor.close()

            context = browser.new_context(**options)
            context.set_default_timeout(30_000)
            page = context.new_page()
            errors: list[str] = []  # the table pages' script errors, reported at the end
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            page.on(
                "console",
                lambda msg, errors=errors: errors.append(msg.text) if msg.type == "error" else None,
            )
            log_in(page, url)
            for name, path in SIGNED_IN_PAGES:
                page.goto(url + path)
                shoot(page, out, f"{label}-{name}")
            for game in games:
                errors.clear()
                try:
                    page.goto(url + "/")
                    page.get_by_test_id(f"play-bots-{game}").click()
                    page.wait_for_url("**/mesa/*/")
                    play_a_few_moves(page)
                    # the first screen, as a player sees it (the hand and controls docked at its
                    # bottom, issue 25 §1), then the whole page
                    page.wait_for_load_state("networkidle")
                    page.evaluate("window.scrollTo(0, 0)")  # a click may have scrolled it
                    page.screenshot(path=str(out / f"{label}-table-{game}.png"), animations="disabled")
                    print("saved", out / f"{label}-table-{game}.png")
                    shoot(page, out, f"{label}-table-{game}-full")
                except Exception as exc:  # one game's table must not cost the others
                    problems.append(f"{label} {game}: {exc}".splitlines()[0])
                    page.screenshot(path=str(out / f"{label}-table-{game}.png"), full_page=True)
                problems += [f"{label} {game}: {error}" for error in dict.fromkeys(errors)]
            context.close()
        browser.close()
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bin/screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT, help="folder for the PNGs")
    parser.add_argument(
        "--games", default=",".join(GAMES), help="comma-separated games for the table pictures"
    )
    parser.add_argument(
        "--themes", default="light", help="light, dark or light,dark (dark pictures end in -dark)"
    )
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    games = tuple(g for g in args.games.split(",") if g)
    work = ROOT / ".run" / "screenshots-site"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    with running_site(work) as url:
        themes = tuple(t for t in args.themes.split(",") if t in {"light", "dark"}) or ("light",)
        problems = take_all(url, out, games, themes)
    for problem in problems:
        print("problem:", problem, file=sys.stderr)
    print(f"screenshots in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
