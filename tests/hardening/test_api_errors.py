"""Issue 13 items 10 and 11: every /api/ error is a clean JSON answer, bodies bounded before parsing."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from accounts.models import User
from config.parsers import json_depth

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


@pytest.fixture
def api() -> Client:
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    token = client.get("/api/auth/csrf").json()["csrfToken"]
    client.defaults["HTTP_X_CSRFTOKEN"] = token
    return client


def nested(depth: int) -> str:
    return '{"username": ' + "[" * depth + "]" * depth + ', "password": "x"}'


def sheet(api: Client) -> str:
    response = api.post("/api/rulezz/sheets", {"players": ["Ana", "Bea"]}, content_type="application/json")
    assert response.status_code == 201
    return response.json()["id"]


@pytest.mark.parametrize(
    "url", ["/api/auth/login", "/api/auth/signup", "/api/rulezz/sheets", "/api/auth/guest"]
)
def test_deeply_nested_body_is_a_clean_400(api: Client, url: str) -> None:
    response = api.post(url, nested(5000), content_type="application/json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "too_deep"


def test_nested_round_body_is_a_clean_400(api: Client) -> None:
    response = api.post(
        f"/api/rulezz/sheets/{sheet(api)}/rounds", nested(5000), content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "too_deep"


def test_brackets_inside_strings_do_not_count_as_nesting(api: Client) -> None:
    body = json.dumps({"title": "[" * 20 + "{" * 20 + '\\"', "players": ["Ana", "Bea"]})
    response = api.post("/api/rulezz/sheets", body, content_type="application/json")
    assert response.status_code == 201


def test_body_over_the_api_limit_is_413_json(api: Client) -> None:
    body = json.dumps({"title": "x" * 100_000, "players": ["Ana", "Bea"]})
    response = api.post("/api/rulezz/sheets", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


def test_three_megabyte_form_body_is_413_json(api: Client) -> None:
    response = api.post("/api/auth/login", {"username": "a", "password": "x" * 3_000_000})
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


def test_broken_json_is_a_400_json(api: Client) -> None:
    response = api.post("/api/auth/login", '{"username": ', content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_json"


@pytest.mark.parametrize(
    "url",
    [
        "/api/nope",
        "/api/rulezz/sheets/abc/rounds/-1",
        "/api/tables/-3",
        "/api/tables/99999999999999999999999",
        "/api/tables/1/replay",
        "/api/economy/nope/",
        "/api/",
    ],
)
def test_unknown_api_paths_are_json_404(api: Client, url: str) -> None:
    response = api.get(url, HTTP_ACCEPT="text/html")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] in {"not_found", "no_such_table"} and response.json()["detail"]


def test_negative_round_index_is_json_404(api: Client) -> None:
    response = api.delete(f"/api/rulezz/sheets/{sheet(api)}/rounds/-1")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_unknown_page_is_still_the_site_page(api: Client) -> None:
    response = api.get("/no-existe/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_validation_errors_are_flat_readable_messages(api: Client) -> None:
    response = api.post("/api/rulezz/sheets", {"players": [None, "Bea"]}, content_type="application/json")
    assert response.status_code == 400
    data = response.json()
    assert "ErrorDetail" not in response.content.decode()
    assert list(data["errors"]) == ["players[0]"]
    assert all(isinstance(m, str) for m in data["errors"]["players[0]"])
    assert data["detail"].startswith("players[0]: ")


def test_missing_fields_are_listed_by_name(api: Client) -> None:
    response = api.post("/api/auth/login", {}, content_type="application/json")
    data = response.json()
    assert response.status_code == 400
    assert set(data["errors"]) == {"username", "password"}
    assert data["code"] == "required"


def test_api_errors_are_json_even_when_a_browser_asks_for_html(api: Client) -> None:
    response = api.post("/api/auth/password", {}, content_type="application/json", HTTP_ACCEPT="text/html")
    assert response.status_code in (401, 403)
    assert response["Content-Type"] == "application/json"


def test_login_still_works_with_the_bounded_parser(api: Client) -> None:
    User.objects.create_user(username="ana", password=PASSWORD)
    response = api.post(
        "/api/auth/login", {"username": "ana", "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("raw", "depth"),
    [
        (b'{"a": ["[[", "\\"[", {"b": [1]}]}', 4),
        (b'"[\\\\" [ "]"', 1),
        (b"[" * 60_000, 17),
        (b'"' + b'\\"' * 30_000 + b"\\", 0),
        (b'"' * 60_000, 0),
    ],
)
def test_depth_is_counted_outside_strings_in_linear_time(raw: bytes, depth: int) -> None:
    started = time.perf_counter()
    assert json_depth(raw, stop=16) == depth
    assert time.perf_counter() - started < 0.5
