"""Issue 13 items 2–4: the admin's log-in, sign-up farming, password-change guesses, ensure_admin."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, TestCase

from accounts import throttling
from accounts.models import User
from cardgames.tables.models import ActionLog, Seat, Table
from cardgames.tables.settlement import finish_table
from economy.models import Transfer

pytestmark = pytest.mark.django_db
PASSWORD = "mesa-verde-2026"
AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def signup(client: Client, name: str, ip: str = "10.0.0.1"):
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/cuenta/registro/", data, REMOTE_ADDR=ip)


# -- item 2: the admin's log-in --------------------------------------------------------------------
def test_admin_login_is_throttled_like_the_site(client: Client) -> None:
    User.objects.create_superuser(username="jefa", password=PASSWORD, email="")
    for _ in range(25):
        client.post("/admin/login/?next=/admin/", {"username": "jefa", "password": "wrong"})
    response = client.post("/admin/login/?next=/admin/", {"username": "jefa", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Demasiados intentos fallidos" in response.content.decode()


def test_admin_login_works_within_the_free_failures(client: Client) -> None:
    User.objects.create_superuser(username="jefa", password=PASSWORD, email="")
    client.post("/admin/login/?next=/admin/", {"username": "jefa", "password": "wrong"})
    response = client.post("/admin/login/?next=/admin/", {"username": "jefa", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"]


# -- item 3: sign-ups per address -----------------------------------------------------------------
def test_signups_are_limited_per_address(client: Client) -> None:
    for i in range(settings.SIGNUP_MAX_PER_ADDRESS):
        assert signup(Client(), f"granja{i}").status_code == 302
    response = signup(client, "granja99")
    assert response.status_code == 429
    assert "demasiadas cuentas" in response.content.decode()
    assert not User.objects.filter(username="granja99").exists()
    assert signup(Client(), "vecina", ip="10.0.0.2").status_code == 302


def test_refused_signups_do_not_use_up_the_address(client: Client) -> None:
    User.objects.create_user(username="Ana", password=PASSWORD)
    for _ in range(10):
        assert signup(client, "Ana").status_code == 400  # taken
    assert signup(client, "Beatriz").status_code == 302


def test_signup_window_ends() -> None:
    window = settings.SIGNUP_WINDOW_SECONDS
    start = 10 * window
    for _ in range(settings.SIGNUP_MAX_PER_ADDRESS):
        assert throttling.reserve_signup(ip="1.2.3.4", now=start) is None
    lock = throttling.reserve_signup(ip="1.2.3.4", now=start + 60)
    assert lock is not None and lock.retry_after_seconds == window - 60
    assert throttling.reserve_signup(ip="1.2.3.4", now=start + window) is None


# -- item 3: the welcome coins wait for the first finished game ----------------------------------
def finished_practice_game(user: User, *, moved: bool) -> None:
    table = Table.objects.create(
        game="one_card",
        mode=Table.Mode.BOTS,
        status=Table.Status.FINISHED,
        host_key=f"user:{user.pk}",
        num_players=2,
        started_at=AT,
        last_activity_at=AT,
        finished_at=AT,
        result={"placements": [1, 2], "winners": [0], "scores": [0, 3]},
    )
    Seat.objects.create(
        table=table,
        index=0,
        kind=Seat.Kind.HUMAN,
        user=user,
        name=user.username,
        player_key=f"user:{user.pk}",
    )
    Seat.objects.create(table=table, index=1, kind=Seat.Kind.BOT, name="Bot", bot_level="easy")
    if moved:
        ActionLog.objects.create(
            table=table, seq=1, seat=0, action={"type": "draw"}, source=ActionLog.Source.PLAYER, at=AT
        )
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_table(table_id=table.pk, now=AT)


def welcome_of(user: User) -> Transfer | None:
    return Transfer.objects.filter(key=f"welcome:{user.pk}").first()


def test_a_signup_gets_its_welcome_coins_after_its_first_finished_game(client: Client) -> None:
    assert signup(client, "Nuevo").status_code == 302
    user = User.objects.get(username="Nuevo")
    assert user.welcome_pending and welcome_of(user) is None
    finished_practice_game(user, moved=True)
    user.refresh_from_db()
    assert not user.welcome_pending and welcome_of(user) is not None
    finished_practice_game(user, moved=True)  # once only
    assert Transfer.objects.filter(key=f"welcome:{user.pk}").count() == 1


def test_a_game_played_by_the_stand_in_alone_unlocks_nothing(client: Client) -> None:
    signup(client, "Ausente")
    user = User.objects.get(username="Ausente")
    finished_practice_game(user, moved=False)
    user.refresh_from_db()
    assert user.welcome_pending and welcome_of(user) is None


def test_the_audit_does_not_report_a_pending_welcome(client: Client) -> None:
    from economy.audit import audit_ledger

    signup(client, "Pendiente")
    assert "missing_welcome_grant" not in [p["check"] for p in audit_ledger().problems]


# -- item 3: wrong old passwords on the password change --------------------------------------------
def test_password_change_guesses_are_throttled(client: Client) -> None:
    user = User.objects.create_user(username="Ana", password=PASSWORD)
    client.force_login(user)
    token = client.get("/api/auth/csrf").json()["csrfToken"]

    def change(old: str):
        return client.post(
            "/api/auth/password",
            {"old_password": old, "new_password": "otra-mesa-2027"},
            content_type="application/json",
            HTTP_X_CSRFTOKEN=token,
        )

    for _ in range(5):
        assert change("wrong").status_code == 400
    response = change(PASSWORD)
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# -- item 4: ensure_admin creates once and never overwrites ---------------------------------------
def ensure_admin() -> str:
    out = StringIO()
    call_command("ensure_admin", stdout=out)
    return out.getvalue().strip()


def test_ensure_admin_creates_once_and_keeps_a_changed_password(settings, tmp_path) -> None:
    settings.RUN_DIR = tmp_path
    first = ensure_admin()
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password(first)
    assert ensure_admin() == first  # unchanged: still shown
    admin.set_password("la-mia-propia-2026")
    admin.is_superuser = False
    admin.save()
    assert ensure_admin() == "(changed: not shown)"
    admin.refresh_from_db()
    assert admin.check_password("la-mia-propia-2026") and not admin.is_superuser
    assert User.objects.filter(username_key="admin").count() == 1
