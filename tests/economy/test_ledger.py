"""The ledger itself: one posting function, zero-sum, idempotent, immutable, never negative."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction

from economy import ledger
from economy.audit import audit_ledger, run_ledger_audit
from economy.errors import EconomyError
from economy.models import Account, AuditReport, Entry, Transfer, XpAward

pytestmark = pytest.mark.django_db


def test_every_new_user_gets_the_welcome_grant_once(make_user) -> None:
    user = make_user()
    wallet = Account.objects.get(user=user)
    assert wallet.balance == 1000
    transfer = Transfer.objects.get(key=f"welcome:{user.pk}")
    assert sorted(e.amount for e in transfer.entries.all()) == [-1000, 1000]
    # saving the user again grants nothing more
    user.first_name = "Ana"
    user.save()
    assert Account.objects.get(user=user).balance == 1000
    assert audit_ledger().ok


def test_repeated_key_returns_first_transfer_and_moves_nothing(make_user) -> None:
    user = make_user()
    wallet, house = ledger.wallet_for(user), ledger.house_account(ledger.HOUSE_PRIZE)
    first = ledger.post_transfer(key="prize:test", kind="prize", postings=[(house, -5), (wallet, 5)])
    again = ledger.post_transfer(key="prize:test", kind="prize", postings=[(house, -5), (wallet, 5)])
    assert first.created and not again.created
    assert again.transfer.pk == first.transfer.pk
    assert Account.objects.get(pk=wallet.pk).balance == 1005
    with pytest.raises(EconomyError) as err:
        ledger.post_transfer(key="prize:test", kind="prize", postings=[(house, -6), (wallet, 6)])
    assert err.value.code == "idempotency_conflict"


@pytest.mark.parametrize(
    "amounts",
    [[5, -4], [0, 0], [5], [True, -1], [10**13, -(10**13)], [1.5, -1.5]],
    ids=["not-zero-sum", "zero", "one-entry", "bool", "huge", "float"],
)
def test_malformed_transfers_are_refused(make_user, amounts) -> None:
    user = make_user()
    wallet, house = ledger.wallet_for(user), ledger.house_account(ledger.HOUSE_PRIZE)
    accounts = [house, wallet][: len(amounts)]
    with pytest.raises(EconomyError):
        ledger.post_transfer(key="bad", kind="prize", postings=list(zip(accounts, amounts, strict=True)))
    assert not Transfer.objects.filter(key="bad").exists()
    assert Account.objects.get(pk=wallet.pk).balance == 1000


def test_wallet_cannot_go_negative_in_service_or_database(make_user) -> None:
    user = make_user()
    wallet, shop = ledger.wallet_for(user), ledger.house_account(ledger.HOUSE_SHOP)
    with pytest.raises(EconomyError) as err:
        ledger.post_transfer(key="too-much", kind="purchase", postings=[(wallet, -1001), (shop, 1001)])
    assert err.value.code == "insufficient_coins"
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=wallet.pk).update(balance=-1)
    assert Account.objects.get(pk=wallet.pk).balance == 1000


@pytest.mark.parametrize("table", ["economy_transfer", "economy_entry", "economy_xpaward"])
def test_database_refuses_update_and_delete_of_ledger_rows(make_user, table) -> None:
    user = make_user()
    XpAward.objects.create(user=user, key="xp:t", amount=5, reference="t")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {table} LIMIT 1")
        (row_id,) = cursor.fetchone()
    column = {"economy_transfer": "reason", "economy_entry": "amount", "economy_xpaward": "amount"}[table]
    value = "'x'" if column == "reason" else "7"
    for sql in (f"UPDATE {table} SET {column} = {value} WHERE id = %s", f"DELETE FROM {table} WHERE id = %s"):
        with pytest.raises(IntegrityError, match="immutable"), transaction.atomic(), connection.cursor() as c:
            c.execute(sql, [row_id])


def test_orm_update_and_delete_of_ledger_rows_fail(make_user) -> None:
    make_user()
    entry = Entry.objects.first()
    entry.amount = 999
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.all().delete()
    assert Entry.objects.get(pk=entry.pk).amount != 999


def test_audit_reports_a_tampered_cache_and_never_fixes_it(make_user, caplog) -> None:
    user = make_user()
    Account.objects.filter(user=user).update(balance=5000)
    report = run_ledger_audit()
    assert not report.ok
    checks = {p["check"] for p in report.problems}
    assert {"cache_mismatch"} <= checks
    assert Account.objects.get(user=user).balance == 5000  # reported, not fixed
    assert AuditReport.objects.filter(ok=False).count() == 1
    assert "problem" in caplog.text


def test_audit_is_clean_on_an_empty_and_a_busy_ledger(make_user) -> None:
    assert run_ledger_audit().ok
    for _ in range(3):
        make_user()
    result = audit_ledger()
    assert result.ok
    assert (
        result.stats["minted"] - result.stats["spent"] == result.stats["in_wallets"] + result.stats["in_pots"]
    )


def test_audit_reports_a_user_who_missed_the_welcome_grant(make_user) -> None:
    from django.db.models.signals import post_save

    from economy.signals import grant_welcome_on_signup

    post_save.disconnect(dispatch_uid="economy_welcome_grant", sender=settings.AUTH_USER_MODEL)
    try:
        user = make_user()
    finally:
        post_save.connect(
            grant_welcome_on_signup, sender=settings.AUTH_USER_MODEL, dispatch_uid="economy_welcome_grant"
        )
    result = audit_ledger()
    assert [p["check"] for p in result.problems] == ["missing_welcome_grant"]
    assert result.problems[0]["user"] == user.pk


def test_only_a_whole_database_wipe_may_delete_ledger_rows(make_user) -> None:
    """Row DELETEs are refused; the one way out is a whole-database wipe (test teardown, flush).

    SQLite: our flush opens ``ledger_wipe_allowed``. PostgreSQL: teardown uses TRUNCATE,
    which row triggers do not see, and ``ledger_wipe_allowed`` opens nothing.
    """
    from economy.db import ledger_wipe_allowed

    make_user()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM economy_entry")
    if connection.vendor == "sqlite":
        with ledger_wipe_allowed(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM economy_entry")
        assert Entry.objects.count() == 0
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM economy_transfer")  # the permission ended with the block
        return
    with (
        pytest.raises(DatabaseError),
        transaction.atomic(),
        ledger_wipe_allowed(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM economy_entry")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire the grant's deferred checks first
            cursor.execute("TRUNCATE economy_entry, economy_transfer CASCADE")
        assert Entry.objects.count() == 0
        transaction.set_rollback(True)
    assert Entry.objects.count() > 0
