"""The catalogue of games shown on the site: names, blurbs and rule sources."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RULES_DIR = Path(__file__).resolve().parent / "rules"


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str
    players: str
    blurb: Promise

    def rules_source(self, language: str) -> Path:
        """Spanish rules are the client's seed documents; English ones the numbered spec."""
        if language == "en":
            return RULES_DIR / "en" / f"{self.slug}.md"
        return RULES_DIR / "es" / f"{self.slug}.txt"


GAME_LIST: tuple[GameInfo, ...] = (
    GameInfo(
        "one_card",
        "One Card",
        "2–4",
        _("El clásico coreano: iguala palo o número, ataca con K y A, y no olvides cantar «One Card»."),
    ),
    GameInfo(
        "pika",
        "Pika",
        "2–4",
        _("Colores, bloqueos y cambios de sentido, con +2 y +4 que se acumulan. ¡Canta «Pika» a tiempo!"),
    ),
    GameInfo(
        "puteo",
        "El Puteo",
        "2–12",
        _("Predice cuántas bazas harás, ni una más ni una menos. Con vidas y una ronda a ciegas."),
    ),
    GameInfo(
        "skyjo",
        "Skyjo",
        "2–8",
        _("Descubre y cambia cartas para sumar lo menos posible; las columnas iguales desaparecen."),
    ),
    GameInfo(
        "guandan",
        "Guandan",
        "4",
        _("Por parejas, con dos barajas, comodines de nivel, bombas y tributo. Sube de nivel hasta el As."),
    ),
)
GAMES_BY_SLUG = {game.slug: game for game in GAME_LIST}
