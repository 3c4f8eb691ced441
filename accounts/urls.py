from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("registro/", views.signup_view, name="signup"),
    path("entrar/", views.login_view, name="login"),
    path("salir/", views.logout_view, name="logout"),
    path("perfil/idioma/", views.language_view, name="language"),
    path("perfil/contrasena/", views.password_change_view, name="password_change"),
    path("invitado/", views.guest_view, name="guest"),
]
