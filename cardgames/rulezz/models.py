"""Rulezz's one table: a signed-up user's score sheet (guests keep theirs in the session).

The model belongs to the ``cardgames`` app (table ``cardgames_scoresheet``, its migrations in
``cardgames/migrations/``); ``cardgames/models.py`` imports it so Django finds it.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ScoreSheet(models.Model):
    """A Rulezz sheet of a signed-up user (SK-35..SK-39, PF-38, PF-39).

    Only the input is stored (players and the rounds as typed); doubling,
    totals and the end are always recomputed by ``cardgames.rulezz.scoring``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="score_sheets",
        verbose_name=_("dueño"),
    )
    title = models.CharField(_("título"), max_length=80, blank=True)
    players = models.JSONField(_("jugadores"))
    rounds = models.JSONField(_("rondas"), default=list)
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)
    updated_at = models.DateTimeField(_("actualizada"), auto_now=True)

    class Meta:
        app_label = "cardgames"
        ordering = ["-updated_at"]
        verbose_name = _("hoja de Rulezz")
        verbose_name_plural = _("hojas de Rulezz")

    def __str__(self) -> str:
        return self.title or ", ".join(self.players)
