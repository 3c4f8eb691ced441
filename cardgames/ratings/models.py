"""Skill ratings: the current rating per (user, game) and one append-only row per rated game.

Only ``cardgames.ratings.services`` writes these rows. ``RatingChange`` is history for the
profile's chart: one row per (finished game, user), never updated or deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .skill import DEFAULT_MU, DEFAULT_SIGMA, Skill


class PlayerRating(models.Model):
    """A player's current skill at one game (OpenSkill mu and sigma) and how many games rated it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("jugador")
    )
    game = models.CharField(_("juego"), max_length=16)
    mu = models.FloatField(_("media"), default=DEFAULT_MU)
    sigma = models.FloatField(_("incertidumbre"), default=DEFAULT_SIGMA)
    games = models.PositiveIntegerField(_("partidas puntuadas"), default=0)
    updated_at = models.DateTimeField(_("actualizada"), null=True, blank=True)

    class Meta:
        verbose_name = _("puntuación")
        verbose_name_plural = _("puntuaciones")
        ordering = ["user", "game"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="ratings_one_per_user_game")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.skill.ordinal:.1f}"

    @property
    def skill(self) -> Skill:
        return Skill(mu=self.mu, sigma=self.sigma)


class RatingChange(models.Model):
    """One rated game for one player: the skill before and after, the place, when (append-only)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("jugador"),
    )
    game = models.CharField(_("juego"), max_length=16)
    game_result = models.ForeignKey(
        "cardgames.GameResult",
        on_delete=models.PROTECT,
        related_name="rating_changes",
        verbose_name=_("partida"),
    )
    place = models.PositiveSmallIntegerField(_("puesto"))
    mu_before = models.FloatField(_("media antes"))
    sigma_before = models.FloatField(_("incertidumbre antes"))
    mu_after = models.FloatField(_("media después"))
    sigma_after = models.FloatField(_("incertidumbre después"))
    at = models.DateTimeField(_("fecha"), db_index=True)

    class Meta:
        verbose_name = _("cambio de puntuación")
        verbose_name_plural = _("cambios de puntuación")
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game_result", "user"], name="ratings_change_once_per_game")
        ]
        indexes = [models.Index(fields=["user", "game", "at"], name="ratings_change_user_game_at")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} #{self.game_result_id}"

    @property
    def before(self) -> Skill:
        return Skill(mu=self.mu_before, sigma=self.sigma_before)

    @property
    def after(self) -> Skill:
        return Skill(mu=self.mu_after, sigma=self.sigma_after)
