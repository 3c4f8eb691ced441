"""Rulezz pages. The URL names keep the ``cardgames`` namespace they have always had
(``cardgames:rulezz_list`` …); ``config/urls.py`` includes this module at the site root."""

from django.urls import path

from . import views

app_name = "cardgames"
urlpatterns = [
    path("rulezz/", views.rulezz_list, name="rulezz_list"),
    path("rulezz/<uuid:sheet_id>/", views.rulezz_sheet, name="rulezz_sheet"),
    path("rulezz/<uuid:sheet_id>/borrar/", views.rulezz_sheet_delete, name="rulezz_sheet_delete"),
    path("rulezz/<uuid:sheet_id>/ronda/<int:number>/", views.rulezz_round_edit, name="rulezz_round_edit"),
    path(
        "rulezz/<uuid:sheet_id>/ronda/<int:number>/borrar/",
        views.rulezz_round_delete,
        name="rulezz_round_delete",
    ),
]
