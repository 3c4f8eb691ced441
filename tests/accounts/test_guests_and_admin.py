from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_guest_page_gives_a_session_identity(client: Client) -> None:
    """PF-1, PF-61: a visitor picks a display name and plays as a guest."""
    response = client.post(reverse("accounts:guest"), {"name": "Pepe"})
    assert response.status_code == 302
    assert "Pepe (invitado)" in client.get("/").content.decode()


def test_guest_page_rejects_bad_names(client: Client) -> None:
    response = client.post(reverse("accounts:guest"), {"name": "a b"})
    assert response.status_code == 400
    assert 'class="error"' in response.content.decode()


def test_admin_lists_users_with_search(admin_client: Client) -> None:
    User.objects.create_user(username="Lucia_5", password="mesa-verde-2026")
    response = admin_client.get("/admin/accounts/user/?q=lucia")
    assert response.status_code == 200 and "Lucia_5" in response.content.decode()


def test_every_model_is_in_the_admin() -> None:
    from django.apps import apps
    from django.contrib import admin

    ours = {"accounts", "cardgames", "economy", "league"}
    missing = [
        m.__name__ for m in apps.get_models() if m._meta.app_label in ours and not admin.site.is_registered(m)
    ]
    assert missing == []
