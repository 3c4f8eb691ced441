"""URL map: pages per app, the JSON API under /api/, the admin, and the i18n switch."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import config.schema  # noqa: F401  (registers the OpenAPI extension of our session auth)
from frontend import views as frontend_views

# JSON under /api/, the site's pages elsewhere (issue 13 item 11)
handler400 = "config.api.handler400"
handler403 = "config.api.handler403"
handler404 = "config.api.handler404"
handler500 = "config.api.handler500"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", frontend_views.set_language, name="set_language"),
    path("api/", include("accounts.api_urls")),
    path("api/", include("cardgames.rulezz.api_urls")),
    path("api/", include("cardgames.tables.api_urls")),
    path("api/", include("cardgames.matchmaking.api_urls")),
    path("api/economy/", include("economy.api_urls")),
    path("api/league/", include("league.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("cuenta/", include("accounts.urls")),
    path("", include("cardgames.rulezz.urls")),
    path("", include("economy.urls")),
    path("", include("league.urls")),
    path("", include("frontend.urls")),
]
