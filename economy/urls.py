"""Economy pages; the lead mounts them with path("", include("economy.urls"))."""

from django.urls import path

from . import views

app_name = "economy"

urlpatterns = [
    path("monedero/", views.wallet_page, name="wallet"),
    path("monedero/bono/", views.claim_bonus, name="bonus"),
    path("tienda/", views.shop_page, name="shop"),
    path("tienda/comprar/", views.buy, name="buy"),
]
