"""League pages, mounted with path("", include("league.urls"))."""

from django.urls import path

from . import views

app_name = "league"

urlpatterns = [
    path("liga/", views.standings_page, name="standings"),
]
