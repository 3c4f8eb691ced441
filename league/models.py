"""The weekly league (PF-60): weeks, point rows with their provenance, prizes.

``LeaguePoint`` rows are append-only: the database refuses UPDATE and DELETE (migration
0002, like the economy's ledger), and a correction is a new row with the admin and the
reason. A game row links to its table and its game result; there is one per (game result,
user). ``LeagueWeek.standings`` is the snapshot frozen at the week's close; ``LeaguePrize``
records who won which place and the ledger transfer that paid it.
Only ``league.services`` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LeagueWeek(models.Model):
    """A league week: open, then frozen (standings snapshot + prize places), then paid."""

    key = models.CharField(_("semana"), max_length=10, unique=True)  # "2026-W49"
    start = models.DateTimeField(_("empieza"), unique=True)  # UTC, Monday 00:00 league time
    end = models.DateTimeField(_("termina"))
    #: {"all": [entry, …], "<game>": [entry, …]}; entry: position, user_id, username, points,
    #: wins, games, reached_at (ISO)
    standings = models.JSONField(_("clasificación congelada"), null=True, blank=True)
    frozen_at = models.DateTimeField(_("congelada"), null=True, blank=True)
    paid_at = models.DateTimeField(_("premios pagados"), null=True, blank=True)
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)

    class Meta:
        verbose_name = _("semana de liga")
        verbose_name_plural = _("semanas de liga")
        ordering = ["-start"]

    def __str__(self) -> str:
        return self.key

    @property
    def status(self) -> str:
        if self.paid_at is not None:
            return str(_("cerrada y pagada"))
        if self.frozen_at is not None:
            return str(_("congelada, premios pendientes"))
        return str(_("abierta"))


class LeaguePoint(models.Model):
    """Points earned by a user in a week: one finished game, or an admin's correction."""

    class Kind(models.TextChoices):
        GAME = "game", _("partida")
        CORRECTION = "correction", _("corrección")

    week = models.ForeignKey(
        LeagueWeek, verbose_name=_("semana"), on_delete=models.PROTECT, related_name="points"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("jugador"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    #: the game's slug; a correction may leave it blank (it then counts only overall)
    game = models.CharField(_("juego"), max_length=16, blank=True)
    table = models.ForeignKey(
        "cardgames.Table",
        verbose_name=_("mesa"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    game_result = models.ForeignKey(
        "cardgames.GameResult",
        verbose_name=_("partida terminada"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    seat = models.PositiveSmallIntegerField(_("asiento"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("puesto"), null=True, blank=True)
    players = models.PositiveSmallIntegerField(_("jugadores"), null=True, blank=True)
    points = models.IntegerField(_("puntos"))
    #: PF-16: simulated players sat at the table
    halved = models.BooleanField(_("a mitad"), default=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("administrador"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.TextField(_("motivo"), blank=True)
    #: a correction form's id: the same form posted twice adds one row
    request_id = models.CharField(_("id de la petición"), max_length=64, blank=True)
    #: when the points count: the game's end, or the correction's moment (ranking: who got there first)
    earned_at = models.DateTimeField(_("conseguidos"))
    created_at = models.DateTimeField(_("registrados"), auto_now_add=True)

    class Meta:
        verbose_name = _("punto de liga")
        verbose_name_plural = _("puntos de liga")
        ordering = ["-earned_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game_result", "user"],
                condition=Q(kind="game"),
                name="league_point_one_per_game_and_user",
            ),
            models.UniqueConstraint(
                fields=["request_id"], condition=~Q(request_id=""), name="league_point_one_per_request"
            ),
            models.CheckConstraint(condition=~Q(points=0), name="league_point_not_zero"),
            models.CheckConstraint(
                condition=(
                    Q(kind="game")
                    & Q(table__isnull=False)
                    & Q(game_result__isnull=False)
                    & Q(place__isnull=False)
                    & Q(players__isnull=False)
                    & Q(actor__isnull=True)
                )
                | (Q(kind="correction") & Q(actor__isnull=False) & ~Q(reason="")),
                name="league_point_provenance",
            ),
        ]
        indexes = [
            models.Index(fields=["week", "user"], name="league_point_week_user_idx"),
            models.Index(fields=["week", "game"], name="league_point_week_game_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.week_id}:{self.user_id} {self.points:+d} ({self.kind})"


class LeaguePrize(models.Model):
    """A prize place of a frozen week (PF-60: 1,000 / 500 / 250) and the transfer that paid it."""

    week = models.ForeignKey(
        LeagueWeek, verbose_name=_("semana"), on_delete=models.PROTECT, related_name="prizes"
    )
    place = models.PositiveSmallIntegerField(_("puesto"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("jugador"), on_delete=models.PROTECT, related_name="+"
    )
    points = models.IntegerField(_("puntos"))
    amount = models.PositiveIntegerField(_("monedas"))
    transfer = models.OneToOneField(
        "economy.Transfer",
        verbose_name=_("transferencia"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    paid_at = models.DateTimeField(_("pagado"), null=True, blank=True)

    class Meta:
        verbose_name = _("premio de liga")
        verbose_name_plural = _("premios de liga")
        ordering = ["-week__start", "place"]
        constraints = [
            models.UniqueConstraint(fields=["week", "place"], name="league_prize_one_per_place"),
            models.UniqueConstraint(fields=["week", "user"], name="league_prize_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.week_id} #{self.place}: {self.user_id}"
