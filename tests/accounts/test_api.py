"""The JSON API: /api/auth/signup, login, logout, password, guest and /api/me, with CSRF."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


@pytest.fixture
def api() -> Client:
    """A client that must send the CSRF token like a browser does."""
    client = Client(enforce_csrf_checks=True)
    token = client.get("/api/auth/csrf").json()["csrfToken"]
    client.defaults["HTTP_X_CSRFTOKEN"] = token
    return client


def post(client: Client, url: str, data: dict | None = None):
    return client.post(url, data or {}, content_type="application/json")


def test_signup_then_me(api: Client) -> None:
    response = post(api, "/api/auth/signup", {"username": "Ana_1", "password": PASSWORD, "language": "en"})
    assert response.status_code == 201
    assert response.json()["username"] == "Ana_1"
    me = api.get("/api/me").json()
    assert me["authenticated"] is True and me["user"]["language"] == "en"


def test_anonymous_me(api: Client) -> None:
    assert api.get("/api/me").json() == {"authenticated": False, "user": None, "guest": None}


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"username": "ana", "password": PASSWORD}, "username_taken"),
        ({"username": "x", "password": PASSWORD}, "invalid_username"),
        ({"username": "Ana_2", "password": "123"}, "weak_password"),
    ],
)
def test_signup_errors_are_json_4xx_with_a_message(api: Client, payload: dict, code: str) -> None:
    User.objects.create_user(username="ANA", password=PASSWORD)
    response = post(api, "/api/auth/signup", payload)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]
    assert User.objects.count() == 1


def test_signup_with_missing_fields_or_garbage(api: Client) -> None:
    response = post(api, "/api/auth/signup", {"username": "Ana_3"})
    assert response.status_code == 400 and "detail" in response.json()
    response = api.post("/api/auth/signup", "{not json", content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()
    response = post(api, "/api/auth/signup", {"username": ["a"], "password": {"x": 1}})
    assert response.status_code == 400


def test_login_logout(api: Client) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    assert post(api, "/api/auth/login", {"username": "ana", "password": "bad"}).status_code == 400
    response = post(api, "/api/auth/login", {"username": "ana", "password": PASSWORD})
    assert response.status_code == 200 and response.json()["username"] == "Ana"
    api.defaults["HTTP_X_CSRFTOKEN"] = api.cookies["csrftoken"].value  # rotated at log-in
    assert post(api, "/api/auth/logout").status_code == 204
    assert api.get("/api/me").json()["authenticated"] is False


def test_login_throttled_with_429_and_the_wait(api: Client) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for _ in range(5):
        post(api, "/api/auth/login", {"username": "Ana", "password": "bad"})
    response = post(api, "/api/auth/login", {"username": "Ana", "password": PASSWORD})
    assert response.status_code == 429
    assert response.json()["code"] == "throttled" and "segundo" in response.json()["detail"]


def test_unsafe_requests_without_csrf_are_refused_even_when_anonymous() -> None:
    client = Client(enforce_csrf_checks=True)
    User.objects.create_user(username="Ana", password=PASSWORD)
    response = post(client, "/api/auth/login", {"username": "Ana", "password": PASSWORD})
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    response = post(client, "/api/auth/signup", {"username": "Bea", "password": PASSWORD})
    assert response.status_code == 403
    assert User.objects.count() == 1


def test_password_change_api(api: Client) -> None:
    post(api, "/api/auth/signup", {"username": "Ana", "password": PASSWORD})
    api.defaults["HTTP_X_CSRFTOKEN"] = api.cookies["csrftoken"].value
    bad = post(api, "/api/auth/password", {"old_password": "x", "new_password": "otra-mesa-2027"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_credentials"
    ok = post(api, "/api/auth/password", {"old_password": PASSWORD, "new_password": "otra-mesa-2027"})
    assert ok.status_code == 204
    assert User.objects.get().check_password("otra-mesa-2027")


def test_password_change_needs_login(api: Client) -> None:
    response = post(api, "/api/auth/password", {"old_password": "x", "new_password": "y"})
    assert response.status_code == 403


def test_guest_identity_then_signup_starts_fresh(api: Client) -> None:
    """PF-61: a guest keeps a session identity; signing up later is an ordinary new account."""
    response = post(api, "/api/auth/guest", {"name": "Invitada_7"})
    assert response.status_code == 201
    guest = response.json()["guest"]
    assert guest["name"] == "Invitada_7" and guest["id"]
    assert api.get("/api/me").json()["guest"] == guest
    post(api, "/api/auth/signup", {"username": "Invitada_7", "password": PASSWORD})
    me = api.get("/api/me").json()
    assert me["authenticated"] is True and me["guest"] is None


def test_guest_name_validated(api: Client) -> None:
    response = post(api, "/api/auth/guest", {"name": "<script>"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_name"


def test_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/auth/signup" in schema.content.decode()
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
