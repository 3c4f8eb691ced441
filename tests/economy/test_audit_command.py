"""``manage.py audit_ledger`` (issue 26): the hourly audit for operators — a sentence per finding,
exit status 0 when the books balance and 1 on any finding, on a clean and on a corrupted ledger."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from economy.models import AuditReport, Entry, Transfer
from economy.services import (
    buy_in,
    claim_daily_bonus,
    grant_welcome,
    open_pot,
    settle_pot,
    stand_up,
    start_pot,
)
from tests.audits import manage, tampered

pytestmark = pytest.mark.django_db


def audit(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, str, str]:
    return manage(capsys, "audit_ledger", *options)


@pytest.fixture
def busy_ledger(make_user) -> dict[str, object]:
    """Welcome grants, a bonus, a settled pot and a stand-up; a sign-up still waiting for its
    first game (no welcome yet, PF-57 as the site pays it) and a superuser (none ever)."""
    ana, bea, cris = make_user("ana"), make_user("bea"), make_user("cris")
    claim_daily_bonus(user=ana)
    pot = open_pot(reference="table:1", stake=250)
    for user in (ana, bea, cris):
        buy_in(user=user, pot=pot)
    stand_up(user=cris, pot=pot)
    start_pot(pot=pot)
    settle_pot(pot=pot, results=[(ana.pk, 1), (bea.pk, 2)])
    waiting = make_user("dani", welcome_pending=True)
    get_user_model().objects.create_superuser(username="admin", password=None)
    return {"ana": ana, "waiting": waiting}


def test_a_clean_ledger_exits_0_and_says_so(busy_ledger, capsys) -> None:
    status, out, err = audit(capsys)
    assert status == 0 and err == ""
    assert "the books balance" in out
    assert "Checked 9 transfers" in out  # 3 welcomes, a bonus, 3 buy-ins, a stand-up, a settlement


def test_an_entry_altered_by_raw_sql_is_reported_in_words_and_exits_1(busy_ledger, capsys) -> None:
    # given the wallet leg of Ana's welcome grant raised from 1,000 to 1,700 behind the ledger's back
    welcome = Transfer.objects.get(key=f"welcome:{busy_ledger['ana'].pk}")
    leg = welcome.entries.get(amount=1000)
    tampered("economy_entry", "UPDATE economy_entry SET amount = 1700 WHERE id = %s", [leg.pk])
    # when the operator audits
    status, out, err = audit(capsys)
    # then each broken rule is a sentence, and the status says "found something"
    assert status == 1 and "the ledger audit found" in err
    assert (
        f"transfer {welcome.pk} (welcome:{busy_ledger['ana'].pk}) does not balance: its 2 entries sum to 700"
        in out
    )
    assert f"account wallet:{busy_ledger['ana'].pk} caches a balance of " in out
    assert f"the welcome transfer {welcome.pk} paid user {busy_ledger['ana'].pk} 1700 coins, not 1000" in out
    assert "all the ledger's entries sum to 700, not 0" in out
    assert Entry.objects.get(pk=leg.pk).amount == 1700  # reported, never fixed


def test_a_welcome_paid_before_the_first_game_is_reported(busy_ledger, capsys) -> None:
    grant_welcome(user=busy_ledger["waiting"])  # the sign-up has not finished a game yet
    status, out, _err = audit(capsys, "--json")
    assert status == 1
    body = json.loads(out)
    assert body["ok"] is False
    assert body["problems"] == [{"check": "welcome_before_first_game", "user": busy_ledger["waiting"].pk}]


def test_record_stores_the_report_the_admin_lists(busy_ledger, capsys) -> None:
    status, _out, _err = audit(capsys, "--record")
    assert status == 0
    report = AuditReport.objects.get()
    assert report.ok and report.stats["transfers"] == 9
