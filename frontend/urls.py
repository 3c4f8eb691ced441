from django.urls import path

from . import practice, profile, replay, views

app_name = "frontend"
urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sin-conexion/", views.offline, name="offline"),
    path("practicar/", practice.practice_home, name="practice"),
    path("practicar/<slug:game>/", practice.practice_table, name="practice_table"),
    path("reglas/<slug:slug>/", views.rules, name="rules"),
    path("mesa/", views.join_by_code, name="join_by_code"),
    path("mesa/<str:code>/", views.table_page, name="table"),
    path("partida/<int:table_id>/repeticion/", replay.replay_page, name="replay"),
    # the profile pages keep their addresses under /cuenta/ (accounts' own pages live there too)
    path("cuenta/perfil/", profile.profile_view, name="profile"),
    path("cuenta/jugador/<str:username>/", profile.public_profile_view, name="public_profile"),
]
