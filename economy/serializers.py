"""DRF serializers of the economy API (read shapes and the purchase input)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from . import payouts
from .models import Entry, Purchase
from .selectors import entry_description


class WalletSerializer(serializers.Serializer):
    balance = serializers.IntegerField()
    xp = serializers.IntegerField()
    level = serializers.IntegerField()
    vip = serializers.BooleanField()
    bonus_claimed_today = serializers.BooleanField()
    active_items = serializers.ListField(child=serializers.CharField())
    welcome_pending = serializers.BooleanField(
        help_text="The welcome coins wait for the first finished game."
    )
    welcome_coins = serializers.IntegerField(help_text="The welcome grant (PF-57).")


class EntrySerializer(serializers.ModelSerializer):
    kind = serializers.CharField(source="transfer.kind")
    description = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(source="transfer.created_at")

    class Meta:
        model = Entry
        fields = ["id", "amount", "balance_after", "kind", "description", "created_at"]

    def get_description(self, entry: Entry) -> str:
        return entry_description(entry)


class ShopItemSerializer(serializers.Serializer):
    item = serializers.CharField()
    name = serializers.CharField()
    price = serializers.IntegerField()
    hours = serializers.IntegerField()
    multiplier = serializers.CharField()
    active_until = serializers.DateTimeField(allow_null=True)


class PurchaseInputSerializer(serializers.Serializer):
    item = serializers.ChoiceField(
        choices=sorted(payouts.ITEM_PRICES),
        error_messages={"invalid_choice": _("Ese artículo no existe en la tienda.")},
    )
    request_id = serializers.CharField(max_length=100, required=False, allow_blank=False)


class PurchaseSerializer(serializers.ModelSerializer):
    class Meta:
        model = Purchase
        fields = ["id", "item", "starts_at", "ends_at"]
