"""League point rows are append-only: the database itself refuses UPDATE and DELETE.

Same mechanism as the economy's ledger (economy/migrations/0005): a PL/pgSQL row trigger on
PostgreSQL (TRUNCATE, used by test teardown, is not seen by row triggers), BEFORE UPDATE /
BEFORE DELETE triggers raising ABORT on SQLite, whose DELETE trigger is lifted only while
``economy_ledger_wiping()`` answers 1, i.e. inside ``manage.py flush`` (economy/db.py).
A correction is a new row (league.services.add_correction).

Note for later migrations: on SQLite, altering ``league_leaguepoint`` rebuilds it and drops
these triggers; such a migration must run ``create_triggers`` again.
"""

from django.db import migrations

TABLE = "league_leaguepoint"

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION league_point_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'league: point rows are append-only (% on %)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FUNCTION, params=None)  # no placeholders: keep the % signs
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_immutable BEFORE UPDATE OR DELETE ON {TABLE} "
            f"FOR EACH ROW EXECUTE FUNCTION league_point_immutable();"
        )
    elif vendor == "sqlite":
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
            f"BEGIN SELECT RAISE(ABORT, 'league: point rows are append-only (UPDATE on {TABLE})'); END;"
        )
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
            f"WHEN economy_ledger_wiping() = 0 "
            f"BEGIN SELECT RAISE(ABORT, 'league: point rows are append-only (DELETE on {TABLE})'); END;"
        )
    else:  # pragma: no cover - only the two supported databases
        raise RuntimeError(f"league: no immutability triggers for database vendor {vendor!r}")


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_immutable ON {TABLE};")
        schema_editor.execute("DROP FUNCTION IF EXISTS league_point_immutable();")
    elif vendor == "sqlite":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_no_update;")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_no_delete;")


class Migration(migrations.Migration):
    dependencies = [("league", "0001_weeks_points_prizes")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
