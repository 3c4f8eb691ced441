"""The matchmaking queue: one row per time a player queued (issue 11).

A player has at most **one live entry** — waiting in the queue, or seated at an online
table — and the database enforces it (a partial unique index on the user over the live
statuses), so "in at most one queue and one running online table at a time" holds under
any race: a second join fails on the index, whatever the timing of a concurrent wave.

An entry lives ``waiting`` → ``seated`` (the wave sat it at a table; it stays seated
while the table is waiting or playing) → ``done`` once the table is over. It ends as
``left`` (the player left the queue, or stood up before the start), ``cancelled`` (a
buy-in table that did not fill in time; the entry was refunded, PF-52) or ``failed``
(it could not sit, e.g. not enough coins for the buy-in any more). Only
``cardgames.matchmaking``'s ``services``, ``seating`` and ``online`` write these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardgames.tables.models import Table


class QueueEntry(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("en la cola")
        SEATED = "seated", _("sentado")
        DONE = "done", _("terminada")
        LEFT = "left", _("salió")
        CANCELLED = "cancelled", _("mesa anulada")
        FAILED = "failed", _("no pudo sentarse")

    #: the statuses that count as "in a queue or at a running online table"
    LIVE = (Status.WAITING, Status.SEATED)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries")
    game = models.CharField(_("juego"), max_length=16)
    players = models.PositiveSmallIntegerField(_("jugadores"))
    #: 0: a free online table; 100/250/500/1000: a buy-in table (PF-17)
    stake = models.PositiveIntegerField(_("entrada"), default=0)
    #: the player's rating at the game when they queued (cardgames.ratings), 0.0 unrated
    rating = models.FloatField(_("puntuación"), default=0.0)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.WAITING)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="queue_entries"
    )
    #: why a failed entry could not sit (an EconomyError/TableError code)
    reason = models.CharField(_("motivo"), max_length=40, blank=True)
    joined_at = models.DateTimeField(_("en la cola desde"))
    seated_at = models.DateTimeField(_("sentado"), null=True, blank=True)
    ended_at = models.DateTimeField(_("terminó"), null=True, blank=True)

    class Meta:
        verbose_name = _("entrada en la cola")
        verbose_name_plural = _("cola de partidas")
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status__in=["waiting", "seated"]),
                name="matchmaking_one_live_entry_per_user",
            ),
            models.CheckConstraint(
                condition=Q(stake__in=[0, 100, 250, 500, 1000]), name="matchmaking_stake_valid"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "game", "players", "stake"], name="matchmaking_waiting_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}/{self.players}/{self.stake} ({self.status})"
