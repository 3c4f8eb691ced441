"""The games shown on the site: the catalogue's names and player counts, our blurbs, rule sources."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.catalogue import CATALOGUE, GameSpec

RULES_DIR = Path(__file__).resolve().parent / "rules"


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str
    players: str
    blurb: Promise

    def rules_source(self, language: str) -> Path:
        """The players' rules page in ``language`` ("es" or "en"), written for Tapete."""
        return RULES_DIR / ("en" if language == "en" else "es") / f"{self.slug}.md"


#: the pages' own words for each game, by catalogue slug (names and player counts come from the
#: catalogue, ``cardgames.catalogue``)
BLURBS: dict[str, Promise] = {
    "one_card": _(
        "El clásico coreano: iguala palo o número, ataca con K y A, y no olvides cantar «One Card»."
    ),
    "pika": _("Colores, bloqueos y cambios de sentido, con +2 y +4 que se acumulan. ¡Canta «Pika» a tiempo!"),
    "puteo": _("Predice cuántas bazas harás, ni una más ni una menos. Con vidas y una ronda a ciegas."),
    "skyjo": _("Descubre y cambia cartas para sumar lo menos posible; las columnas iguales desaparecen."),
    "guandan": _(
        "Por parejas, con dos barajas, comodines de nivel, bombas y tributo. Sube de nivel hasta el As."
    ),
}


def players_text(spec: GameSpec) -> str:
    """The players line: "2–4" for a range, "4" for a fixed count (PF-1, PF-12, PF-37, PF-41, PF-43)."""
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}–{spec.max_players}"


GAME_LIST: tuple[GameInfo, ...] = tuple(
    GameInfo(spec.slug, spec.name, players_text(spec), BLURBS[spec.slug]) for spec in CATALOGUE.values()
)
GAMES_BY_SLUG = {game.slug: game for game in GAME_LIST}
