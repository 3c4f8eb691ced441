"""Issue 26 item 8: the language cookie has the same flags wherever the site sets it.

Under HTTPS the session and CSRF cookies are ``Secure`` and ``HttpOnly`` (docs/decisions.md);
the language cookie must be too, whether the HTML log-in, the profile's language form, the
header's language switch or the API's log-in sets it (``accounts.web.set_language_cookie``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


@pytest.fixture
def https(settings) -> None:  # type: ignore[no-untyped-def]
    """The cookie flags of a site served over HTTPS (``HTTPS=true``: settings.py derives them)."""
    settings.LANGUAGE_COOKIE_SECURE = settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True


def _html_login(client: Client) -> HttpResponse:
    return client.post("/cuenta/entrar/", {"username": "eve", "password": PASSWORD}, secure=True)


def _profile_form(client: Client) -> HttpResponse:
    client.force_login(get_user_model().objects.get(username="eve"))
    return client.post("/cuenta/perfil/idioma/", {"language": "en"}, secure=True)


def _header_switch(client: Client) -> HttpResponse:
    return client.post("/i18n/setlang/", {"language": "en", "next": "/"}, secure=True)


def _api_login(client: Client) -> HttpResponse:
    return client.post(
        "/api/auth/login",
        {"username": "eve", "password": PASSWORD},
        content_type="application/json",
        secure=True,
    )


@pytest.mark.parametrize(
    "set_by",
    [_html_login, _profile_form, _header_switch, _api_login],
    ids=["html-login", "profile-form", "header-switch", "api-login"],
)
def test_the_language_cookie_is_secure_httponly_and_lax_under_https(
    https: None, set_by: Callable[[Client], HttpResponse]
) -> None:
    get_user_model().objects.create_user(username="eve", password=PASSWORD, language="en")
    response = set_by(Client())
    assert response.status_code in (200, 302), response.content[:300]
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["secure"] is True
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == settings.LANGUAGE_COOKIE_PATH
