"""Ledger rows are immutable: the database itself refuses UPDATE and DELETE.

PostgreSQL: a row trigger raising ``restrict_violation``. TRUNCATE (a whole-database
wipe, used by test teardown) does not fire row triggers and stays possible.
SQLite: BEFORE UPDATE / BEFORE DELETE triggers raising ABORT. The DELETE triggers are
lifted only while ``economy_ledger_wiping()`` returns 1, which happens solely inside
``manage.py flush`` (economy/management/commands/flush.py), the SQLite twin of TRUNCATE.
A connection without that function (e.g. the sqlite3 shell) cannot delete at all.

Note for later migrations: on SQLite, altering one of these tables rebuilds it and drops
its triggers; such a migration must run ``create_triggers`` again.
"""

from django.db import migrations

TABLES = ("economy_transfer", "economy_entry", "economy_xpaward")

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION economy_ledger_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'economy: ledger rows are immutable (% on %)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FUNCTION, params=None)  # no placeholders: keep the % signs
        for table in TABLES:
            schema_editor.execute(
                f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION economy_ledger_immutable();"
            )
    elif vendor == "sqlite":
        for table in TABLES:
            schema_editor.execute(
                f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, 'economy: ledger rows are immutable (UPDATE on {table})'); END;"
            )
            schema_editor.execute(
                f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
                f"WHEN economy_ledger_wiping() = 0 "
                f"BEGIN SELECT RAISE(ABORT, 'economy: ledger rows are immutable (DELETE on {table})'); END;"
            )
    else:  # pragma: no cover - only the two supported databases
        raise RuntimeError(f"economy: no immutability triggers for database vendor {vendor!r}")


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_immutable ON {table};")
        schema_editor.execute("DROP FUNCTION IF EXISTS economy_ledger_immutable();")
    elif vendor == "sqlite":
        for table in TABLES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update;")
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete;")


class Migration(migrations.Migration):
    dependencies = [("economy", "0004_audit_reports")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
