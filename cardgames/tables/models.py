"""Live tables: rooms, seats, the action log, invitations, chat and finished games.

The ``ActionLog`` is the source of truth: ``Table.state`` is a cache of the log replayed
from the seed (a test replays every finished game and compares). Only
``cardgames.tables.services`` and ``cardgames.tables.settlement`` write these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Table(models.Model):
    """A room and its game: waiting for players, playing, finished, then closed (PF-54)."""

    class Mode(models.TextChoices):
        BOTS = "bots", _("contra la máquina")
        FRIENDS = "friends", _("con amigos")
        ONLINE = "online", _("online")
        BUYIN = "buyin", _("mesa con entrada")

    class Status(models.TextChoices):
        WAITING = "waiting", _("esperando")
        PLAYING = "playing", _("en juego")
        FINISHED = "finished", _("terminada")
        CLOSED = "closed", _("cerrada")

    game = models.CharField(_("juego"), max_length=16)
    mode = models.CharField(_("modo"), max_length=10, choices=Mode.choices)
    #: PF-55: unique among live rooms; a closed room gives its code back (NULL)
    code = models.CharField(_("código"), max_length=8, null=True, blank=True, unique=True)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.WAITING)
    host_key = models.CharField(_("anfitrión"), max_length=64)
    num_players = models.PositiveSmallIntegerField(_("jugadores"))
    options = models.JSONField(_("opciones"), default=dict)
    #: secret until the game is over; its SHA-256 is published at the deal
    seed = models.CharField(_("semilla"), max_length=64, blank=True)
    seed_hash = models.CharField(_("huella de la semilla"), max_length=64, blank=True)
    state = models.JSONField(_("estado del juego"), null=True, blank=True)
    version = models.PositiveIntegerField(_("versión"), default=0)
    #: wall-clock start (epoch seconds) of every live timer id (design.md)
    timer_starts = models.JSONField(_("inicio de los temporizadores"), default=dict)
    #: when the first live timer lapses, or None
    deadline_at = models.DateTimeField(_("próximo plazo"), null=True, blank=True)
    #: when the bots are next asked, or None
    bots_at = models.DateTimeField(_("próxima jugada de bot"), null=True, blank=True)
    #: min(deadline_at, bots_at), or the settlement still owed: what the sweeper looks at
    wake_at = models.DateTimeField(_("despertar"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("resultado"), null=True, blank=True)
    settled_at = models.DateTimeField(_("liquidada"), null=True, blank=True)
    #: PF-16: simulated players sat here (league points halved)
    simulated = models.BooleanField(_("con jugadores simulados"), default=False)
    #: what each seat took from the game once settled: [{"seat", "coins", "xp", "league_points"}]
    #: (settlement.finish_table; issue 25 item 4: the result screen labels every number)
    earnings = models.JSONField(_("ganancias"), null=True, blank=True)
    #: the room that plays this room's rematch (issue 25 item 4: "Revancha", "Otra partida")
    rematch = models.OneToOneField(
        "self",
        verbose_name=_("revancha"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
    )
    pot = models.OneToOneField(
        "economy.Pot",
        verbose_name=_("bote"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)
    started_at = models.DateTimeField(_("empezada"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminada"), null=True, blank=True)
    last_activity_at = models.DateTimeField(_("última actividad"), db_index=True)

    class Meta:
        verbose_name = _("mesa")
        verbose_name_plural = _("mesas")

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.code or '-'})"

    @property
    def group(self) -> str:
        return f"table.{self.pk}"


class Seat(models.Model):
    """A place at a table: a user, a guest, a bot, or a simulated player (a bot shown as a player)."""

    class Kind(models.TextChoices):
        HUMAN = "human", _("jugador")
        GUEST = "guest", _("invitado")
        BOT = "bot", _("bot")
        SIMULATED = "simulated", _("jugador simulado")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("asiento"))
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_key = models.CharField(_("jugador"), max_length=64, blank=True)  # "user:1", "guest:ab…"
    name = models.CharField(_("nombre"), max_length=40)
    bot_level = models.CharField(_("nivel"), max_length=8, blank=True)
    #: PF-63 bookkeeping: open sockets, turn timeouts in a row, a bot standing in
    connections = models.PositiveSmallIntegerField(_("conexiones"), default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(_("tiempos agotados seguidos"), default=0)
    stand_in = models.BooleanField(_("un bot juega por él"), default=False)
    #: a bot's private memory between moves (JSON, cardgames.bots.decide)
    bot_memory = models.JSONField(_("memoria del bot"), default=dict, blank=True)
    muted = models.BooleanField(_("silenciado"), default=False)

    class Meta:
        verbose_name = _("asiento")
        verbose_name_plural = _("asientos")
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tables_seat_index_unique"),
            models.UniqueConstraint(
                fields=["table", "player_key"], condition=~Q(player_key=""), name="tables_seat_player_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index} {self.name}"

    @property
    def is_bot(self) -> bool:
        return self.kind in (self.Kind.BOT, self.Kind.SIMULATED)

    @property
    def is_person(self) -> bool:
        """A registered player or a guest: someone who can be away (PF-63)."""
        return self.kind in (self.Kind.HUMAN, self.Kind.GUEST)

    @property
    def plays_by_bot(self) -> bool:
        """A bot decides for this seat now: a bot seat, or a stand-in for an absent player (PF-63)."""
        return self.is_bot or self.stand_in


class ActionLog(models.Model):
    """One applied action: ``seq`` is the table version it produced (1, 2, …)."""

    class Source(models.TextChoices):
        PLAYER = "player", _("jugador")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("tiempo agotado")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField(_("número"))
    seat = models.SmallIntegerField(_("asiento"), null=True, blank=True)  # None: a table-wide timer
    action = models.JSONField(_("acción"))
    events = models.JSONField(_("eventos"), default=list)
    source = models.CharField(_("origen"), max_length=8, choices=Source.choices)
    action_id = models.CharField(_("id de la acción"), max_length=64, blank=True)
    timer_id = models.CharField(_("temporizador"), max_length=64, blank=True)
    at = models.DateTimeField(_("hora"))

    class Meta:
        verbose_name = _("acción")
        verbose_name_plural = _("acciones")
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="tables_log_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "seat", "action_id"],
                condition=~Q(action_id=""),
                name="tables_log_action_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.action.get('type')}"


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pendiente")
        ACCEPTED = "accepted", _("aceptada")
        DECLINED = "declined", _("rechazada")
        EXPIRED = "expired", _("caducada")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invitations"
    )
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("creada"))
    expires_at = models.DateTimeField(_("caduca"))

    class Meta:
        verbose_name = _("invitación")
        verbose_name_plural = _("invitaciones")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "recipient"],
                condition=Q(status="pending"),
                name="tables_one_pending_invitation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id} → {self.recipient_id} ({self.status})"


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    player_key = models.CharField(_("jugador"), max_length=64)
    name = models.CharField(_("nombre"), max_length=40)
    text = models.CharField(_("texto"), max_length=300)
    at = models.DateTimeField(_("hora"), db_index=True)

    class Meta:
        verbose_name = _("mensaje")
        verbose_name_plural = _("mensajes")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"


class GameResult(models.Model):
    """A finished game, recorded once by the settlement; the league reads these (PF-60)."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="game_result")
    game = models.CharField(_("juego"), max_length=16)
    mode = models.CharField(_("modo"), max_length=10)
    #: per seat: {"seat", "kind", "user_id", "name", "place"}
    seats = models.JSONField(_("puestos"))
    result = models.JSONField(_("resultado"))
    simulated = models.BooleanField(_("con jugadores simulados"), default=False)
    finished_at = models.DateTimeField(_("terminada"))

    class Meta:
        verbose_name = _("partida terminada")
        verbose_name_plural = _("partidas terminadas")

    def __str__(self) -> str:
        return f"{self.game} #{self.table_id}"
