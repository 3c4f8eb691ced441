"""HTML pages for accounts: thin, they parse forms and call accounts.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import services, web
from .forms import GuestForm, LoginForm, PasswordChangeForm, SignupForm
from .guests import start_guest
from .models import User

FIELD_FOR_CODE = {"invalid_username": "username", "username_taken": "username", "weak_password": "password1"}


def _next_url(request: HttpRequest, default: str = "frontend:home") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return default


def _activate_language(request: HttpRequest, response: HttpResponse, language: str) -> HttpResponse:
    translation.activate(language)
    web.set_language_cookie(response, language)
    return response


@require_http_methods(["GET", "POST"])
def signup_view(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            user = web.sign_up(
                request,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                language=translation.get_language() or "es",
            )
        except services.AccountError as err:
            form.add_error(FIELD_FOR_CODE.get(err.code), err.message)
            status = err.status
        else:
            messages.success(request, _("¡Bienvenido a Tapete, %(name)s!") % {"name": user.username})
            web.page_signed_up.send(sender=User, request=request, user=user)  # e.g. when the coins come
            return redirect(_next_url(request))
    if form.errors and status == 200:
        status = 400
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    form = LoginForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            user = web.log_in(
                request,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
            )
        except services.AccountError as err:
            form.add_error(None, err.message)
            status = err.status
        else:
            return _activate_language(request, redirect(_next_url(request)), user.language)
    elif form.errors:
        status = 400
    return render(
        request, "accounts/login.html", {"form": form, "next": _next_url(request, "")}, status=status
    )


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.info(request, _("Has cerrado la sesión."))
    return redirect("frontend:home")


@login_required
@require_http_methods(["GET", "POST"])
def password_change_view(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            web.change_password(
                request,
                user=request.user,  # type: ignore[arg-type]
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
        except services.AccountError as err:
            fields = {"bad_credentials": "old_password", "throttled": None}
            form.add_error(fields.get(err.code, "new_password1"), err.message)
        else:
            messages.success(request, _("Contraseña cambiada."))
            return redirect("frontend:profile")
    return render(
        request, "accounts/password_change.html", {"form": form}, status=400 if form.errors else 200
    )


@require_http_methods(["GET", "POST"])
def guest_view(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("frontend:home")
    form = GuestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            guest = start_guest(request, name=form.cleaned_data["name"])
        except ValidationError as err:
            form.add_error("name", err.messages[0])
        else:
            messages.success(request, _("Juegas como invitado: %(name)s.") % {"name": guest.name})
            return redirect(_next_url(request))
    return render(request, "accounts/guest.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def language_view(request: HttpRequest) -> HttpResponse:
    """Save the profile's language and switch the site to it."""
    language = request.POST.get("language", "")
    try:
        services.set_language(user=request.user, language=language)  # type: ignore[arg-type]
    except services.AccountError as err:
        messages.error(request, err.message)
        return redirect("frontend:profile")
    return _activate_language(request, redirect("frontend:profile"), language)
