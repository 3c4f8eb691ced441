"""Players' API and pages, the admin's audit tools, and the Celery tasks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from economy import selectors, services
from economy.models import Account, AuditReport, Pot, Purchase, Transfer
from economy.tasks import BEAT_SCHEDULE, audit_ledger_task, cancel_pot_task

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.economy.urls")]


@pytest.fixture
def player(client, make_user):
    user = make_user()
    client.force_login(user)
    return user


# --- API -----------------------------------------------------------------------------------


def test_api_wallet_and_paginated_history_with_readable_reasons(client, player) -> None:
    for i in range(25):
        services.pay_league_prize(user=player, week=f"W{i}", place=3)
    data = client.get("/api/economy/wallet/").json()
    assert data["balance"] == 1000 + 25 * 250 and data["level"] == 1 and data["vip"] is False
    page = client.get("/api/economy/wallet/history/").json()
    assert page["count"] == 26 and len(page["results"]) == 20 and page["next"]
    assert page["results"][0]["description"].startswith("Premio de la liga")
    last = client.get(page["next"]).json()["results"][-1]
    assert (last["amount"], last["description"]) == (1000, "Regalo de bienvenida")


def test_api_daily_bonus_then_conflict_with_reason(client, player) -> None:
    assert client.post("/api/economy/bonus/").status_code == 201
    again = client.post("/api/economy/bonus/")
    assert again.status_code == 409
    assert again.json()["code"] == "bonus_already_claimed" and again.json()["detail"]
    assert selectors.wallet_balance(user=player) == 1100


def test_api_shop_purchase_idempotent_and_refusals(client, player) -> None:
    items = {i["item"]: i for i in client.get("/api/economy/shop/").json()}
    assert items["gold_booster"]["price"] == 300 and items["vip_pass"]["price"] == 2000
    ok = client.post("/api/economy/shop/purchase/", {"item": "gold_booster", "request_id": "k1"})
    twice = client.post("/api/economy/shop/purchase/", {"item": "gold_booster", "request_id": "k1"})
    assert ok.status_code == twice.status_code == 201 and ok.json()["id"] == twice.json()["id"]
    poor = client.post("/api/economy/shop/purchase/", {"item": "vip_pass"})
    assert poor.status_code == 409 and poor.json()["code"] == "insufficient_coins"
    bad = client.post("/api/economy/shop/purchase/", {"item": "castle"})
    assert bad.status_code == 400 and bad.json()["detail"]
    assert selectors.wallet_balance(user=player) == 700


def test_api_needs_login(client, db) -> None:
    assert client.get("/api/economy/wallet/").status_code in (401, 403)
    assert client.post("/api/economy/bonus/").status_code in (401, 403)


# --- pages ---------------------------------------------------------------------------------


def test_wallet_page_shows_balance_history_and_bonus(client, player) -> None:
    page = client.get(reverse("economy:wallet"))
    assert page.status_code == 200
    assert "1000 monedas" in page.content.decode() and "Regalo de bienvenida" in page.content.decode()
    response = client.post(reverse("economy:bonus"), follow=True)
    assert "Bono diario recogido" in response.content.decode()
    response = client.post(reverse("economy:bonus"), follow=True)
    assert response.status_code == 200 and "Ya has recogido el bono de hoy" in response.content.decode()
    assert selectors.wallet_balance(user=player) == 1100


def test_shop_page_buys_once_per_form_and_shows_vip_badge(client, player) -> None:
    services.pay_league_prize(user=player, week="W1", place=1)  # 2000
    page = client.get(reverse("economy:shop")).content.decode()
    assert "Pase VIP" in page and "Booster de oro" in page
    form = {"item": "vip_pass", "request_id": "form-1"}
    client.post(reverse("economy:buy"), form)
    response = client.post(reverse("economy:buy"), form, follow=True)  # a double submit
    assert response.status_code == 200 and Purchase.objects.count() == 1
    assert selectors.wallet_balance(user=player) == 0
    assert 'data-testid="vip-badge"' in client.get(reverse("economy:wallet")).content.decode()
    refused = client.post(reverse("economy:buy"), {"item": "gold_booster"}, follow=True)
    assert "No tienes monedas suficientes" in refused.content.decode()


def test_pages_need_login(client, db) -> None:
    assert client.get(reverse("economy:wallet")).status_code == 302


# --- admin ---------------------------------------------------------------------------------


@pytest.fixture
def staff(client, make_user):
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return admin


def test_admin_pot_audit_page_shows_entries_and_reconciles(client, staff, make_user) -> None:
    a, b = make_user(), make_user()
    pot = services.open_pot(reference="table:99", stake=250)
    services.buy_in(user=a, pot=pot)
    services.buy_in(user=b, pot=pot)
    services.start_pot(pot=pot)
    services.settle_pot(pot=pot, results=[(a.pk, 1), (b.pk, 2)])
    html = client.get(reverse("admin:economy_pot_audit", args=[pot.pk])).content.decode()
    assert 'data-testid="reconciles"' in html and "table:99" in html
    assert f"settle:{pot.pk}" in html and f"buyin:{pot.pk}:{a.pk}:1" in html
    assert "+500" in html  # the winner's leg of the payout
    Account.objects.filter(pk=pot.account_id).update(balance=7)  # tamper with the cache
    assert (
        'data-testid="not-reconciled"'
        in client.get(reverse("admin:economy_pot_audit", args=[pot.pk])).content.decode()
    )


def test_admin_ledger_is_read_only_and_lists_render(client, staff, make_user) -> None:
    make_user()
    transfer = Transfer.objects.first()
    for name in ("transfer", "entry", "account", "pot", "buyin", "purchase", "xpaward", "auditreport"):
        assert client.get(reverse(f"admin:economy_{name}_changelist")).status_code == 200, name
    assert client.get(reverse("admin:economy_transfer_change", args=[transfer.pk])).status_code == 200
    assert client.post(reverse("admin:economy_transfer_delete", args=[transfer.pk])).status_code == 403
    assert client.get(reverse("admin:economy_transfer_add")).status_code == 403


def test_admin_wallet_history_and_adjustment_record_who_and_why(client, staff, make_user) -> None:
    user = make_user()
    wallet = Account.objects.get(user=user)
    history = client.get(reverse("admin:economy_entry_changelist") + f"?account__id__exact={wallet.pk}")
    assert history.status_code == 200 and f"welcome:{user.pk}" in history.content.decode()
    url = reverse("admin:economy_account_adjust", args=[wallet.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"amount": "-200", "reason": "Compensación duplicada", "request_id": "adm-1"})
    assert response.status_code == 302
    client.post(
        url, {"amount": "-200", "reason": "Compensación duplicada", "request_id": "adm-1"}
    )  # resubmitted
    transfer = Transfer.objects.get(kind="adjustment")
    assert (transfer.actor_id, transfer.reason) == (staff.pk, "Compensación duplicada")
    assert selectors.wallet_balance(user=user) == 800
    too_much = client.post(url, {"amount": "-5000", "reason": "x", "request_id": "adm-2"})
    assert too_much.status_code == 200 and "No tienes monedas suficientes" in too_much.content.decode()


def test_admin_adjustment_requires_permission(client, make_user) -> None:
    clerk = make_user(is_staff=True)
    client.force_login(clerk)
    wallet = Account.objects.get(user=make_user())
    assert client.get(reverse("admin:economy_account_adjust", args=[wallet.pk])).status_code == 403


def test_admin_run_audit_now_stores_a_report(client, staff) -> None:
    response = client.post(reverse("admin:economy_auditreport_run"))
    assert response.status_code == 302 and AuditReport.objects.get().ok


# --- tasks ---------------------------------------------------------------------------------


def test_cancel_task_refunds_and_is_safe_to_repeat_or_miss(make_user) -> None:
    user = make_user()
    pot = services.open_pot(reference="table:late", stake=100)
    services.buy_in(user=user, pot=pot)
    assert cancel_pot_task.run(pot.pk) == 1
    assert cancel_pot_task.run(pot.pk) == 0
    assert cancel_pot_task.run(10**9) == 0  # a pot that is gone
    assert selectors.wallet_balance(user=user) == 1000
    assert Pot.objects.get(pk=pot.pk).status == "cancelled"


def test_cancel_task_after_a_crash_mid_refund_refunds_everyone_once(make_user, fault_hook) -> None:
    users = [make_user() for _ in range(3)]
    pot = services.open_pot(reference="table:crash", stake=100)
    for user in users:
        services.buy_in(user=user, pot=pot)
    calls = []

    def crash_on_second_refund(name: str) -> None:
        if name == "cancel_pot.after_refund":
            calls.append(name)
            if len(calls) == 2:
                raise RuntimeError("worker died")

    fault_hook(crash_on_second_refund)
    with pytest.raises(RuntimeError):
        cancel_pot_task.run(pot.pk)
    assert [selectors.wallet_balance(user=u) for u in users] == [900, 900, 900]  # all rolled back
    fault_hook(None)
    assert cancel_pot_task.run(pot.pk) == 3
    assert [selectors.wallet_balance(user=u) for u in users] == [1000, 1000, 1000]


def test_cancel_task_on_a_settled_pot_does_nothing(make_user) -> None:
    user = make_user()
    pot = services.open_pot(reference="table:done", stake=100)
    services.buy_in(user=user, pot=pot)
    services.start_pot(pot=pot)
    services.settle_pot(pot=pot, results=[(user.pk, 1)])
    assert cancel_pot_task.run(pot.pk) == 0


def test_cancel_task_run_late_leaves_a_started_game_alone(make_user) -> None:
    # given a buy-in table whose game started before its fill-deadline task ran (late, or
    # redelivered by Celery's acks_late)
    users = [make_user() for _ in range(2)]
    pot = services.open_pot(reference="table:started", stake=100)
    for user in users:
        services.buy_in(user=user, pot=pot)
    services.start_pot(pot=pot)
    # when the task runs, then it refunds nothing and the game's settlement still works
    assert cancel_pot_task.run(pot.pk) == 0
    assert Pot.objects.get(pk=pot.pk).status == "started"
    services.settle_pot(pot=pot, results=[(users[0].pk, 1), (users[1].pk, 2)])
    assert [selectors.wallet_balance(user=u) for u in users] == [1100, 900]


def test_audit_task_and_beat_schedule(make_user) -> None:
    make_user()
    assert audit_ledger_task.run() is True
    assert AuditReport.objects.count() == 1
    assert BEAT_SCHEDULE["economy-audit-ledger"]["task"] == audit_ledger_task.name


def test_vip_badge_tag(make_user) -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.template import Context, Template

    user = make_user()
    render = Template("{% load economy %}{% vip_badge who %}").render
    assert render(Context({"who": user})) == ""
    assert render(Context({"who": AnonymousUser()})) == ""
    services.pay_league_prize(user=user, week="W1", place=1)
    services.purchase_item(user=user, item="vip_pass")
    assert "vip-badge" in render(Context({"who": user}))


def test_admin_adjust_action_opens_the_form_for_one_wallet(client, staff, make_user) -> None:
    wallet = Account.objects.get(user=make_user())
    url = reverse("admin:economy_account_changelist")
    response = client.post(url, {"action": "adjust_wallet", "_selected_action": [wallet.pk]})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:economy_account_adjust", args=[wallet.pk])
    house = Account.objects.get(code="house:welcome")
    response = client.post(url, {"action": "adjust_wallet", "_selected_action": [house.pk]}, follow=True)
    assert "Elige exactamente un monedero" in response.content.decode()
