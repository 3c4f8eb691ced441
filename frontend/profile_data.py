"""Read-only facts for the profile pages: stats per game, level, badges, rating and coin history.

Selectors only (nothing here writes). The public profile uses the same functions except the
coin ones: a player's coins are private (issue 12, PF-58).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from cardgames.catalogue import CATALOGUE
from cardgames.ratings.models import RatingChange
from cardgames.ratings.skill import PROVISIONAL_GAMES, SHOWN_START, Skill
from cardgames.tables.selectors import finished_games
from economy import payouts
from economy.models import Entry
from economy.selectors import has_vip, user_xp

from .charts import Series, line_chart

#: how many points a chart draws at most (the most recent ones)
CHART_POINTS = 200


@dataclass(frozen=True)
class GameStats:
    game: str
    name: str
    played: int
    won: int
    best_place: int | None
    average_place: float | None

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


@dataclass(frozen=True)
class Level:
    level: int
    xp: int
    start: int
    next: int

    @property
    def progress(self) -> int:
        """Per cent of the way from this level's start to the next one."""
        span = self.next - self.start
        return round(100 * (self.xp - self.start) / span) if span else 100


@dataclass(frozen=True)
class Badge:
    key: str
    name: Promise
    hint: Promise
    earned: bool


def game_stats(results: Iterable[Any], user_id: int) -> list[GameStats]:
    """Per game, in catalogue order: games finished, won (1st place), best and average place."""
    places: dict[str, list[int]] = {slug: [] for slug in CATALOGUE}
    for result in results:
        seat = next((s for s in result.seats if s.get("user_id") == user_id), None)
        if seat is not None and seat.get("place"):
            places.setdefault(result.game, []).append(int(seat["place"]))
    out = []
    for slug, got in places.items():
        out.append(
            GameStats(
                game=slug,
                name=CATALOGUE[slug].name if slug in CATALOGUE else slug,
                played=len(got),
                won=sum(1 for p in got if p == 1),
                best_place=min(got) if got else None,
                average_place=round(sum(got) / len(got), 1) if got else None,
            )
        )
    return out


def level_of(user: Any) -> Level:
    xp = user_xp(user=user)
    level = payouts.level_for_xp(xp)
    return Level(level=level, xp=xp, start=payouts.xp_for_level(level), next=payouts.xp_for_level(level + 1))


def badges_for(*, stats: list[GameStats], level: Level, vip: bool) -> list[Badge]:
    """Badges computed from what the player did; nothing stored, so nothing to keep in sync."""
    played = sum(s.played for s in stats)
    won = sum(s.won for s in stats)
    return [
        Badge("first_game", _("Primera partida"), _("Termina una partida."), played >= 1),
        Badge("first_win", _("Primera victoria"), _("Gana una partida."), won >= 1),
        Badge("ten_wins", _("Diez victorias"), _("Gana diez partidas."), won >= 10),
        Badge(
            "all_games",
            _("Los cinco juegos"),
            _("Termina una partida de cada juego."),
            bool(stats) and all(s.played for s in stats),
        ),
        Badge("level_5", _("Nivel 5"), _("Llega al nivel 5."), level.level >= 5),
        Badge("vip", _("VIP"), _("Ten el pase VIP activo."), vip),
    ]


def rating_series(user_id: int) -> list[Series]:
    """Per game, the rating as players see it (``Skill.shown``) after each rated game, oldest first."""
    rows = list(
        RatingChange.objects.filter(user_id=user_id)
        .order_by("-at", "-pk")
        .values_list("game", "at", "mu_after", "sigma_after")[: CHART_POINTS * len(CATALOGUE)]
    )
    by_game: dict[str, list[tuple[datetime, float]]] = {}
    for game, at, mu, sigma in reversed(rows):
        by_game.setdefault(game, []).append((at, float(Skill(mu=mu, sigma=sigma).shown)))
    return [
        Series(CATALOGUE[slug].name, by_game[slug][-CHART_POINTS:]) for slug in CATALOGUE if slug in by_game
    ]


def coin_series(user_id: int) -> list[Series]:
    """The wallet's balance after each movement, oldest first (private: own profile only)."""
    rows = list(
        Entry.objects.filter(account__user_id=user_id)
        .order_by("-id")
        .values_list("transfer__created_at", "balance_after")[:CHART_POINTS]
    )
    points = [(at, float(balance)) for at, balance in reversed(rows)]
    return [Series(str(_("Monedas")), points)] if points else []


def svg_chart(series: list[Series], *, title: Promise, chart_id: str) -> SafeString:
    """A chart ready for a template: charts.py escapes every text it writes, so it is safe as it is."""
    return mark_safe(line_chart(series, title=str(title), chart_id=chart_id))


RATING_TITLE = _("Puntuación a lo largo del tiempo")
COIN_TITLE = _("Monedas a lo largo del tiempo")


def profile_context(user: Any, *, private: bool) -> dict[str, Any]:
    """What both profile pages show; ``private`` adds the coins (own profile only)."""
    stats = game_stats(finished_games(user_id=user.pk), user.pk)
    level = level_of(user)
    vip = has_vip(user=user)
    context: dict[str, Any] = {
        "stats": stats,
        "level": level,
        "vip": vip,
        "show_coins": private,
        "badges": badges_for(stats=stats, level=level, vip=vip),
        "rating_chart": svg_chart(rating_series(user.pk), title=RATING_TITLE, chart_id="rating-chart"),
        # the ratings' legend: where everyone starts, how long a rating is provisional
        "rating_start": SHOWN_START,
        "provisional_games": PROVISIONAL_GAMES,
    }
    if private:
        context["coin_chart"] = svg_chart(coin_series(user.pk), title=COIN_TITLE, chart_id="coin-chart")
    return context
