"""The players' economy API: wallet, history, daily bonus, shop. Thin: parse, call, render."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import payouts, selectors, services
from .errors import EconomyError
from .models import Purchase
from .serializers import (
    EntrySerializer,
    PurchaseInputSerializer,
    PurchaseSerializer,
    ShopItemSerializer,
    WalletSerializer,
)

CONFLICTS = {
    "insufficient_coins",
    "bonus_already_claimed",
    "already_seated",
    "not_seated",
    "pot_not_open",
    "pot_settled",
    "pot_cancelled",
    "pot_empty",
    "idempotency_conflict",
}


def error_response(exc: EconomyError) -> Response:
    """A refused operation as JSON: 409 when the state forbids it, 400 for bad input."""
    code = status.HTTP_409_CONFLICT if exc.code in CONFLICTS else status.HTTP_400_BAD_REQUEST
    return Response({"detail": exc.message, "code": exc.code}, status=code)


def wallet_data(user: Any) -> dict[str, Any]:
    xp = selectors.user_xp(user=user)
    return {
        "balance": selectors.wallet_balance(user=user),
        "xp": xp,
        "level": payouts.level_for_xp(xp),
        "vip": selectors.has_vip(user=user),
        "bonus_claimed_today": selectors.bonus_claimed_today(user=user),
        "active_items": sorted({p.item for p in selectors.active_purchases(user=user)}),
        # issue 25: a new account's welcome coins arrive with its first finished game
        "welcome_pending": selectors.welcome_pending(user=user),
        "welcome_coins": payouts.WELCOME_GRANT,
    }


def shop_items(user: Any) -> list[dict[str, Any]]:
    return [
        {
            "item": item,
            "name": str(Purchase.Item(item).label),
            "price": price,
            "hours": payouts.ITEM_HOURS[item],
            "multiplier": str(payouts.ITEM_MULTIPLIERS[item]),
            "active_until": selectors.item_ends_at(user=user, item=item),
        }
        for item, price in payouts.ITEM_PRICES.items()
    ]


class WalletView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=WalletSerializer)
    def get(self, request: Request) -> Response:
        return Response(WalletSerializer(wallet_data(request.user)).data)


class HistoryView(generics.ListAPIView):
    """The wallet's entries, newest first, paginated, each with a readable reason."""

    permission_classes = [IsAuthenticated]
    serializer_class = EntrySerializer

    def get_queryset(self) -> Any:
        return selectors.wallet_history(user=self.request.user)


class DailyBonusView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=WalletSerializer)
    def post(self, request: Request) -> Response:
        try:
            services.claim_daily_bonus(user=request.user)
        except EconomyError as exc:
            return error_response(exc)
        return Response(WalletSerializer(wallet_data(request.user)).data, status=status.HTTP_201_CREATED)


class ShopView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ShopItemSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(ShopItemSerializer(shop_items(request.user), many=True).data)


class PurchaseView(APIView):
    """Buy an item. Send ``request_id`` (or an ``Idempotency-Key`` header) to make retries safe."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PurchaseInputSerializer, responses=PurchaseSerializer)
    def post(self, request: Request) -> Response:
        form = PurchaseInputSerializer(data=request.data)
        if not form.is_valid():
            first = next(iter(form.errors.values()))[0]
            return Response(
                {"detail": str(first), "code": "invalid_input"}, status=status.HTTP_400_BAD_REQUEST
            )
        request_id = form.validated_data.get("request_id") or request.headers.get("Idempotency-Key") or None
        try:
            purchase = services.purchase_item(
                user=request.user, item=form.validated_data["item"], request_id=request_id
            )
        except EconomyError as exc:
            return error_response(exc)
        return Response(PurchaseSerializer(purchase).data, status=status.HTTP_201_CREATED)
