"""League API routes, mounted with path("api/league/", include("league.api_urls"))."""

from django.urls import path

from . import api

app_name = "league-api"

urlpatterns = [
    path("weeks/", api.WeeksView.as_view(), name="weeks"),
    path("standings/", api.StandingsView.as_view(), name="standings"),
    path("me/points/", api.MyPointsView.as_view(), name="my-points"),
]
