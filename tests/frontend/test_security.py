"""Issue 13 items 7 and 8: production settings, security headers, the site's own error pages."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import include, path

from accounts.models import User

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3Yq9-Xw2_vT7rLp0ZbN4mHs8CjUe1GfA6dRoIyK5tQxWnVzM"  # 49+ varied characters, tests only


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        # the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE is for their own process, never a deployment
        if k not in {"DEBUG", "SECRET_KEY", "HTTPS", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], env={**base, **env}, cwd=ROOT, capture_output=True, text=True
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    out = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY=STRONG_KEY + "Z",
        ALLOWED_HOSTS="tapete.example",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


@pytest.mark.parametrize("key", ["", "x", "a" * 60, "django-insecure-" + "q" * 50])
def test_production_refuses_a_missing_or_weak_secret_key(key: str) -> None:
    out = run_manage("check", DEBUG="false", SECRET_KEY=key)
    assert out.returncode != 0 and "SECRET_KEY" in out.stderr


def test_production_defaults_are_https_and_strict_cookies() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SESSION_COOKIE_HTTPONLY, s.SESSION_COOKIE_SAMESITE, s.SECURE_PROXY_SSL_HEADER)"
    )
    out = run_manage(
        "shell",
        "-c",
        code,
        DEBUG="false",
        SECRET_KEY=STRONG_KEY + "Z",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
    )
    expected = "True 31536000 True True True Lax ('HTTP_X_FORWARDED_PROTO', 'https')"
    assert out.stdout.strip().splitlines()[-1] == expected


def page_urls() -> list[str]:
    return [
        "/",
        "/cuenta/entrar/",
        "/cuenta/registro/",
        "/cuenta/invitado/",
        "/cuenta/perfil/",
        "/monedero/",
        "/tienda/",
        "/reglas/one-card/",
        "/rulezz/",
        "/admin/",
        "/admin/accounts/user/",
        "/api/docs/",
        "/nope/",
    ]


@pytest.mark.django_db
def test_every_page_carries_the_security_headers_and_no_inline_script(client: Client) -> None:
    admin = User.objects.create_superuser(username="jefa", password="mesa-verde-2026", email="")
    client.force_login(admin)
    for url in page_urls():
        response = client.get(url)
        assert response.status_code in {200, 302, 404}, url
        csp = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        assert "frame-ancestors 'none'" in csp
        assert response.headers.get("Referrer-Policy") == "same-origin"
        assert "camera=()" in response.headers.get("Permissions-Policy", "")
        body = response.content.decode()
        for tag in re.findall(r"<script\b[^>]*>", body):
            assert "src=" in tag or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"\son[a-z]+\s*=", body), url  # no inline event handlers


def test_templates_have_no_inline_script_or_style() -> None:
    for folder in ["frontend/templates", "economy/templates", "accounts", "cardgames"]:
        for template in (ROOT / folder).rglob("*.html"):
            text = template.read_text()
            assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", text), template
            assert "<style" not in text and " style=" not in text, template
            assert not re.search(r"\son(click|load|submit|change|input)=", text), template


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret traceback detail")


def forbidden(request: HttpRequest) -> HttpResponse:
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied


def bad(request: HttpRequest) -> HttpResponse:
    from django.core.exceptions import SuspiciousOperation

    raise SuspiciousOperation("nope")


urlpatterns = [
    path("boom/", boom),
    path("forbidden/", forbidden),
    path("bad/", bad),
    path("", include("config.urls")),
]


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
@pytest.mark.parametrize(
    ("url", "status", "es", "en"),
    [
        ("/nope/", 404, "Página no encontrada", "Page not found"),
        ("/forbidden/", 403, "Acceso denegado", "Access denied"),
        ("/bad/", 400, "Petición incorrecta", "Bad request"),
        ("/boom/", 500, "Error del servidor", "Server error"),
    ],
)
def test_error_pages_are_the_sites_and_translated(url: str, status: int, es: str, en: str) -> None:
    client = Client(raise_request_exception=False)
    response = client.get(url)
    body = response.content.decode()
    assert response.status_code == status
    assert es in body and 'class="site-header"' in body and "Traceback" not in body and "secret" not in body
    english = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    assert en in english.get(url).content.decode()
