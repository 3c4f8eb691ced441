"""Economy API routes; the lead mounts them with path("api/economy/", include("economy.api_urls"))."""

from django.urls import path

from . import api

app_name = "economy-api"

urlpatterns = [
    path("wallet/", api.WalletView.as_view(), name="wallet"),
    path("wallet/history/", api.HistoryView.as_view(), name="history"),
    path("bonus/", api.DailyBonusView.as_view(), name="bonus"),
    path("shop/", api.ShopView.as_view(), name="shop"),
    path("shop/purchase/", api.PurchaseView.as_view(), name="purchase"),
]
