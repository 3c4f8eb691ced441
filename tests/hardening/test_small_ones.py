"""Issue 13 item 15, the small ones: Madrid time in the purchase message and audit titles, the
broker's control folder under .run/, the saved language on an API log-in, no welcome coins for
the admin (PF-57 is for players)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from economy import services
from economy.audit import audit_ledger
from economy.models import AuditReport, Purchase, Transfer
from economy.services.common import UserRef

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"


def test_purchase_message_shows_madrid_time() -> None:
    user = get_user_model().objects.create_user(username="ana", password=PASSWORD)
    client = Client()
    client.force_login(user)
    client.post("/tienda/comprar/", {"item": "gold_booster", "request_id": "r1"})
    purchase = Purchase.objects.get(user=user)
    madrid = timezone.localtime(purchase.ends_at).strftime("%d/%m/%Y %H:%M")
    utc = purchase.ends_at.astimezone(UTC).strftime("%d/%m/%Y %H:%M")
    assert madrid != utc  # Madrid is never UTC in December or July
    # the same request again (idempotent) shows the message on the shop page it lands on
    response = client.post("/tienda/comprar/", {"item": "gold_booster", "request_id": "r1"}, follow=True)
    text = response.content.decode()
    assert madrid in text and utc not in text


def test_audit_report_title_is_in_madrid_time() -> None:
    started = datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
    report = AuditReport.objects.create(started_at=started, finished_at=started, ok=True)
    assert str(report) == "2026-12-02 00:30 OK"


def test_broker_control_folder_lives_under_run_dir() -> None:
    if settings.REDIS_URL:
        pytest.skip("the file-system broker is the embedded default only")
    control = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["control_folder"])
    assert control.is_relative_to(settings.RUN_DIR)


def test_api_log_in_applies_the_saved_language() -> None:
    get_user_model().objects.create_user(username="eve", password=PASSWORD, language="en")
    client = Client()
    response = client.post(
        "/api/auth/login", {"username": "eve", "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert client.get("/").headers["Content-Language"] == "en"


def test_the_admin_account_gets_no_welcome_coins(tmp_path, settings) -> None:
    settings.RUN_DIR = tmp_path
    call_command("ensure_admin", stdout=open("/dev/null", "w"))  # noqa: SIM115
    admin = get_user_model().objects.get(username="admin")
    assert not Transfer.objects.filter(user_id=admin.pk, kind=Transfer.Kind.WELCOME).exists()
    assert "missing_welcome_grant" not in {p["code"] for p in audit_ledger().problems}
    player = get_user_model().objects.create_user(username="bea", password=PASSWORD)
    assert Transfer.objects.filter(user_id=player.pk, kind=Transfer.Kind.WELCOME).exists()
    assert services.claim_daily_bonus(user=UserRef(admin.pk)).pk  # the admin may still hold coins
