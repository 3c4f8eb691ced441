"""URL map: pages per app, the JSON API under /api/, the admin, and the i18n switch."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from frontend import views as frontend_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", frontend_views.set_language, name="set_language"),
    path("api/", include("accounts.api_urls")),
    path("api/", include("cardgames.api.urls")),
    path("api/economy/", include("economy.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("cuenta/", include("accounts.urls")),
    path("", include("cardgames.urls")),
    path("", include("economy.urls")),
    path("", include("frontend.urls")),
]
