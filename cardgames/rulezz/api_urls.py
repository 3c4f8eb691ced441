"""Rulezz JSON API, included under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from . import api

urlpatterns = [
    path("rulezz/sheets", api.SheetListView.as_view(), name="api-rulezz-sheets"),
    path("rulezz/sheets/<str:sheet_id>", api.SheetDetailView.as_view(), name="api-rulezz-sheet"),
    path("rulezz/sheets/<str:sheet_id>/rounds", api.RoundListView.as_view(), name="api-rulezz-rounds"),
    path(
        "rulezz/sheets/<str:sheet_id>/rounds/<int:number>",
        api.RoundDetailView.as_view(),
        name="api-rulezz-round",
    ),
]
