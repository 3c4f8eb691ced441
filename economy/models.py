"""Economy tables: a double-entry ledger of integer coins (docs/economy.md).

* ``Account``: one wallet per user, one per buy-in pot, and house accounts that mint
  (welcome grant, daily bonus, rewards, league prizes, adjustments) or absorb (shop).
  ``balance`` is a cache of the sum of the account's entries, changed only by
  ``economy.ledger.post_transfer`` in the same transaction as the entries.
* ``Transfer`` + ``Entry``: one movement, two or more entries summing to zero, with a
  unique idempotency key. Both tables (and ``XpAward``) refuse UPDATE and DELETE at the
  database level (migration ``0005_ledger_immutability_triggers``).
* ``Pot`` + ``BuyIn``: a buy-in table's pot and who paid into it (PF-17, PF-18, PF-53).
* ``Purchase``: shop items and their time windows (PF-59). ``AuditReport``: results of
  ``economy.audit.audit_ledger``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .payouts import STAKES


class Account(models.Model):
    class Kind(models.TextChoices):
        WALLET = "wallet", _("monedero")
        POT = "pot", _("bote")
        HOUSE = "house", _("casa")

    kind = models.CharField(_("tipo"), max_length=8, choices=Kind.choices)
    code = models.CharField(_("código"), max_length=64, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usuario"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="wallet",
    )
    balance = models.BigIntegerField(_("saldo"), default=0)
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)

    class Meta:
        verbose_name = _("cuenta")
        verbose_name_plural = _("cuentas")
        constraints = [
            # Wallets and pots never go negative; house accounts mint, so theirs may.
            models.CheckConstraint(
                condition=Q(kind="house") | Q(balance__gte=0),
                name="economy_account_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(Q(kind="wallet") & Q(user__isnull=False))
                | (~Q(kind="wallet") & Q(user__isnull=True)),
                name="economy_account_user_iff_wallet",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class Transfer(models.Model):
    class Kind(models.TextChoices):
        WELCOME = "welcome", _("Regalo de bienvenida")
        BONUS = "bonus", _("Bono diario")
        BUYIN = "buyin", _("Entrada a mesa")
        STANDUP = "standup", _("Devolución al levantarse")
        REFUND = "refund", _("Reembolso por mesa anulada")
        SETTLE = "settle", _("Reparto del bote")
        REWARD = "reward", _("Premio de partida")
        PURCHASE = "purchase", _("Compra en la tienda")
        PRIZE = "prize", _("Premio de la liga")
        ADJUSTMENT = "adjustment", _("Ajuste de administración")

    key = models.CharField(_("clave de idempotencia"), max_length=200, unique=True)
    kind = models.CharField(_("tipo"), max_length=16, choices=Kind.choices)
    pot = models.ForeignKey(
        "economy.Pot",
        verbose_name=_("bote"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="transfers",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usuario"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("administrador"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    reference = models.CharField(_("referencia"), max_length=100, blank=True)
    reason = models.TextField(_("motivo"), blank=True)
    created_at = models.DateTimeField(_("fecha"), auto_now_add=True)

    class Meta:
        verbose_name = _("transferencia")
        verbose_name_plural = _("transferencias")
        indexes = [models.Index(fields=["kind", "created_at"], name="economy_transfer_kind_idx")]

    def __str__(self) -> str:
        return self.key


class Entry(models.Model):
    transfer = models.ForeignKey(
        Transfer, verbose_name=_("transferencia"), on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(
        Account, verbose_name=_("cuenta"), on_delete=models.PROTECT, related_name="entries"
    )
    amount = models.BigIntegerField(_("importe"))
    balance_after = models.BigIntegerField(_("saldo después"))

    class Meta:
        verbose_name = _("apunte")
        verbose_name_plural = _("apuntes")
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="economy_entry_amount_not_zero")]
        indexes = [models.Index(fields=["account", "-id"], name="economy_entry_account_idx")]

    def __str__(self) -> str:
        return f"{self.account_id}: {self.amount:+d}"


class Pot(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("abierto")
        STARTED = "started", _("en juego")
        SETTLED = "settled", _("repartido")
        CANCELLED = "cancelled", _("anulado")

    reference = models.CharField(_("pertenece a"), max_length=100, unique=True)
    stake = models.PositiveIntegerField(_("entrada"))
    account = models.OneToOneField(
        Account, verbose_name=_("cuenta"), on_delete=models.PROTECT, related_name="pot"
    )
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    closed_at = models.DateTimeField(_("cerrado"), null=True, blank=True)
    #: the (user id, place) pairs in seat order it was settled with: a second settlement must match
    results = models.JSONField(_("resultado del reparto"), null=True, blank=True)

    class Meta:
        verbose_name = _("bote")
        verbose_name_plural = _("botes")
        constraints = [
            models.CheckConstraint(condition=Q(stake__in=STAKES), name="economy_pot_stake_in_list")
        ]

    def __str__(self) -> str:
        return f"{self.reference} ({self.stake})"


class BuyIn(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("sentado")
        STOOD_UP = "stood_up", _("se levantó")
        REFUNDED = "refunded", _("reembolsado")
        PLAYED = "played", _("jugado")

    pot = models.ForeignKey(Pot, verbose_name=_("bote"), on_delete=models.PROTECT, related_name="buyins")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("usuario"), on_delete=models.PROTECT, related_name="+"
    )
    seq = models.PositiveIntegerField(_("número"))
    amount = models.PositiveIntegerField(_("importe"))
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.SEATED)
    transfer = models.OneToOneField(
        Transfer, verbose_name=_("entrada"), on_delete=models.PROTECT, related_name="buyin"
    )
    return_transfer = models.OneToOneField(
        Transfer,
        verbose_name=_("devolución"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="returned_buyin",
    )
    created_at = models.DateTimeField(_("creada"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrada")
        verbose_name_plural = _("entradas")
        constraints = [
            models.UniqueConstraint(fields=["pot", "user", "seq"], name="economy_buyin_seq_unique"),
            models.UniqueConstraint(
                fields=["pot", "user"], condition=Q(status="seated"), name="economy_buyin_one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pot_id}:{self.user_id}:{self.seq}"


class XpAward(models.Model):
    """Experience points earned by a game (PF-58); append-only like the ledger."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("usuario"), on_delete=models.PROTECT, related_name="+"
    )
    key = models.CharField(_("clave de idempotencia"), max_length=200, unique=True)
    amount = models.PositiveIntegerField(_("experiencia"))
    reference = models.CharField(_("partida"), max_length=100)
    created_at = models.DateTimeField(_("fecha"), auto_now_add=True)

    class Meta:
        verbose_name = _("experiencia ganada")
        verbose_name_plural = _("experiencia ganada")
        indexes = [models.Index(fields=["user"], name="economy_xpaward_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}: +{self.amount} XP"


class GameReward(models.Model):
    """A game rewarded once (PF-57, PF-58): what ``reward_game`` was called with for a reference.

    A second call with the same input returns the first rewards; with other input (places,
    seats, mode or game) it is refused with ``idempotency_conflict``, as the ledger does for
    transfers. Written in the same transaction as the game's coins and XP.
    """

    reference = models.CharField(_("partida"), max_length=100, unique=True)
    game = models.CharField(_("juego"), max_length=16)
    mode = models.CharField(_("modo"), max_length=10)
    #: [[user id or null, place, simulated], ...] in seat order
    seats = models.JSONField(_("puestos"))
    created_at = models.DateTimeField(_("fecha"), auto_now_add=True)

    class Meta:
        verbose_name = _("partida premiada")
        verbose_name_plural = _("partidas premiadas")

    def __str__(self) -> str:
        return f"{self.reference} ({self.mode})"


class Purchase(models.Model):
    """A shop item bought with coins and the time window it is active in (PF-59)."""

    class Item(models.TextChoices):
        GOLD_BOOSTER = "gold_booster", _("Booster de oro")
        VIP_PASS = "vip_pass", _("Pase VIP")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("usuario"), on_delete=models.PROTECT, related_name="+"
    )
    item = models.CharField(_("artículo"), max_length=16, choices=Item.choices)
    transfer = models.OneToOneField(
        Transfer, verbose_name=_("pago"), on_delete=models.PROTECT, related_name="purchase"
    )
    starts_at = models.DateTimeField(_("desde"))
    ends_at = models.DateTimeField(_("hasta"))
    created_at = models.DateTimeField(_("fecha"), auto_now_add=True)

    class Meta:
        verbose_name = _("compra")
        verbose_name_plural = _("compras")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="economy_purchase_window"
            )
        ]
        indexes = [models.Index(fields=["user", "item", "ends_at"], name="economy_purchase_active_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.item}"


class AuditReport(models.Model):
    """One run of the ledger audit (``economy.audit``): what was checked and what was wrong."""

    started_at = models.DateTimeField(_("inicio"))
    finished_at = models.DateTimeField(_("fin"))
    ok = models.BooleanField(_("cuadra"))
    problems = models.JSONField(_("problemas"), default=list, blank=True)
    stats = models.JSONField(_("cifras"), default=dict, blank=True)

    class Meta:
        verbose_name = _("informe de auditoría")
        verbose_name_plural = _("informes de auditoría")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        # in the site's time (Madrid), as every page shows times
        return f"{timezone.localtime(self.started_at):%Y-%m-%d %H:%M} {'OK' if self.ok else 'FAIL'}"
