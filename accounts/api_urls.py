from django.urls import path

from . import api

urlpatterns = [
    path("auth/csrf", api.CsrfView.as_view(), name="api-csrf"),
    path("auth/signup", api.SignupView.as_view(), name="api-signup"),
    path("auth/login", api.LoginView.as_view(), name="api-login"),
    path("auth/logout", api.LogoutView.as_view(), name="api-logout"),
    path("auth/password", api.PasswordChangeView.as_view(), name="api-password"),
    path("auth/guest", api.GuestView.as_view(), name="api-guest"),
    path("me", api.MeView.as_view(), name="api-me"),
    path("users", api.UserSearchView.as_view(), name="api-user-search"),
]
