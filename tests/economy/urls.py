"""The site's URLs plus the economy's, until config/urls.py includes them."""

from django.urls import include, path

from config.urls import urlpatterns as site_urlpatterns

urlpatterns = [
    path("", include("economy.urls")),
    path("api/economy/", include("economy.api_urls")),
    *site_urlpatterns,
]
