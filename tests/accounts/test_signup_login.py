"""Accounts through the HTML pages: sign-up, log-in, log-out, password change, profile."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db
GOOD_PASSWORD = "mesa-verde-2026"


def signup(client: Client, username: str, password: str = GOOD_PASSWORD, password2: str | None = None):
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": password, "password2": password2 or password},
    )


def test_signup_creates_account_and_logs_in(client: Client) -> None:
    response = signup(client, "Ana_99")
    assert response.status_code == 302
    user = User.objects.get()
    assert user.username == "Ana_99"  # shown as typed
    assert client.get(reverse("frontend:profile")).status_code == 200


@pytest.mark.parametrize("taken", ["ana", "ANA", "aNa"])
def test_usernames_are_unique_case_insensitively(client: Client, taken: str) -> None:
    User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    response = signup(client, taken)
    assert response.status_code == 400
    assert "ya existe" in response.content.decode()
    assert User.objects.count() == 1


def test_database_refuses_a_case_variant_even_past_the_form() -> None:
    from django.db import IntegrityError, transaction

    User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="aNA", password=GOOD_PASSWORD)


@pytest.mark.parametrize("bad", ["ab", "a" * 21, "ana maria", "ana-maria", "___", "", "ana!"])
def test_invalid_usernames_are_refused_with_a_message(client: Client, bad: str) -> None:
    response = signup(client, bad)
    assert response.status_code == 400
    assert User.objects.count() == 0
    assert 'class="error"' in response.content.decode()


@pytest.mark.parametrize("weak", ["123", "password", "12345678901", "Ana_9912"])
def test_weak_passwords_are_refused_by_django_validators(client: Client, weak: str) -> None:
    response = signup(client, "Ana_99", password=weak)
    assert response.status_code == 400
    assert User.objects.count() == 0


def test_mismatched_passwords(client: Client) -> None:
    response = signup(client, "Ana_99", password2="otra-cosa-2026")
    assert response.status_code == 400
    assert "no coinciden" in response.content.decode()


def test_login_any_case_and_logout(client: Client) -> None:
    User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    response = client.post(reverse("accounts:login"), {"username": "ANA", "password": GOOD_PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("frontend:profile")).status_code == 200
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert client.get(reverse("frontend:profile")).status_code == 302  # back to the log-in page


def test_logout_needs_post(client: Client) -> None:
    assert client.get(reverse("accounts:logout")).status_code == 405


def test_wrong_credentials_give_a_clear_message(client: Client) -> None:
    User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    response = client.post(reverse("accounts:login"), {"username": "Ana", "password": "nope"})
    assert response.status_code == 400
    assert "incorrectos" in response.content.decode()


def test_login_redirect_ignores_foreign_next(client: Client) -> None:
    User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    response = client.post(
        reverse("accounts:login") + "?next=https://evil.example/",
        {"username": "Ana", "password": GOOD_PASSWORD},
    )
    assert response["Location"] == reverse("frontend:home")


def test_password_change(client: Client) -> None:
    user = User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    client.force_login(user)
    url = reverse("accounts:password_change")
    wrong = client.post(
        url, {"old_password": "x", "new_password1": "nuevo-tapete-77", "new_password2": "nuevo-tapete-77"}
    )
    assert wrong.status_code == 400 and "no es correcta" in wrong.content.decode()
    weak = client.post(url, {"old_password": GOOD_PASSWORD, "new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 400
    ok = client.post(
        url,
        {
            "old_password": GOOD_PASSWORD,
            "new_password1": "nuevo-tapete-77",
            "new_password2": "nuevo-tapete-77",
        },
    )
    assert ok.status_code == 302
    user.refresh_from_db()
    assert user.check_password("nuevo-tapete-77")
    assert client.get(reverse("frontend:profile")).status_code == 200  # still logged in


def test_profile_shows_username_date_and_language(client: Client) -> None:
    user = User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    client.force_login(user)
    body = client.get(reverse("frontend:profile")).content.decode()
    assert "Ana" in body and "Español" in body and str(user.date_joined.year) in body


def test_profile_language_switches_site(client: Client) -> None:
    user = User.objects.create_user(username="Ana", password=GOOD_PASSWORD)
    client.force_login(user)
    client.post(reverse("accounts:language"), {"language": "en"})
    user.refresh_from_db()
    assert user.language == "en"
    assert "Profile" in client.get(reverse("frontend:profile")).content.decode()
    response = client.post(reverse("accounts:language"), {"language": "xx"}, follow=True)
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.language == "en"


def test_csrf_failure_on_login_form_is_a_403_not_a_500() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("accounts:login"), {"username": "Ana", "password": GOOD_PASSWORD})
    assert response.status_code == 403
