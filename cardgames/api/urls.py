from django.urls import path

from . import rulezz

urlpatterns = [
    path("rulezz/sheets", rulezz.SheetListView.as_view(), name="api-rulezz-sheets"),
    path("rulezz/sheets/<str:sheet_id>", rulezz.SheetDetailView.as_view(), name="api-rulezz-sheet"),
    path("rulezz/sheets/<str:sheet_id>/rounds", rulezz.RoundListView.as_view(), name="api-rulezz-rounds"),
    path(
        "rulezz/sheets/<str:sheet_id>/rounds/<int:number>",
        rulezz.RoundDetailView.as_view(),
        name="api-rulezz-round",
    ),
]
