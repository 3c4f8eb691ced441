"""The statements every move and every socket runs, compiled once per process.

Django's ORM compiles each query anew: for the move's five statements that was about half of the
move's CPU in a daphne (docs/performance.md, "Live tables"). These are the same statements as SQL
built once from the models' own metadata, on whatever database the site runs (PostgreSQL,
SQLite), returning model instances as the ORM does, with the fields' own conversions both ways.
Only what runs per move or per socket lives here; everything else stays on the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import DatabaseError, connection, models

from .models import ActionLog, Seat, Table

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Shape:
    """How a model's rows are selected, turned into instances, and written."""

    table: str  # quoted
    fields: tuple[models.Field[Any, Any], ...]
    attnames: tuple[str, ...]
    columns: str  # quoted, in ``fields`` order
    converters: tuple[tuple[int, tuple[Converter, ...], Any], ...]  # (position, functions, column)


@cache
def _shape(model: type[models.Model], vendor: str) -> _Shape:
    """``vendor`` keys the cache: quoting and conversions are the backend's."""
    quote = connection.ops.quote_name
    meta = model._meta
    fields = tuple(meta.concrete_fields)
    converters = []
    for position, field in enumerate(fields):
        column = field.get_col(meta.db_table)
        functions = tuple(connection.ops.get_db_converters(column) + field.get_db_converters(connection))
        if functions:
            converters.append((position, functions, column))
    return _Shape(
        table=quote(meta.db_table),
        fields=fields,
        attnames=tuple(f.attname for f in fields),
        columns=", ".join(quote(f.column) for f in fields),
        converters=tuple(converters),
    )


def _of(model: type[models.Model]) -> _Shape:
    return _shape(model, connection.vendor)


def _instances(model: type[M], rows: Sequence[Sequence[Any]]) -> list[M]:
    shape = _of(model)
    out = []
    for row in rows:
        values = list(row)
        for position, functions, column in shape.converters:
            value = values[position]
            for function in functions:
                value = function(value, column, connection)
            values[position] = value
        out.append(model.from_db(connection.alias, shape.attnames, values))
    return out


@cache
def _sql(vendor: str) -> dict[str, str]:
    """The read statements' text, built once per backend (``vendor``)."""
    q = connection.ops.quote_name

    def col(model: type[models.Model], name: str) -> str:
        return q(model._meta.get_field(name).column)  # type: ignore[union-attr]

    t, s, a = _of(Table), _of(Seat), _of(ActionLog)
    table_pk = q(Table._meta.pk.column)  # type: ignore[union-attr]
    lock = ""
    if connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    skip = lock + (" SKIP LOCKED" if lock and connection.features.has_select_for_update_skip_locked else "")
    table = f"SELECT {t.columns} FROM {t.table} WHERE {table_pk} = %s"
    seat_table, log_table = col(Seat, "table"), col(ActionLog, "table")
    return {
        "table": table,
        "table_lock": table + lock,
        "table_lock_skip": table + skip,
        "version": f"SELECT {col(Table, 'version')} FROM {t.table} WHERE {table_pk} = %s",
        "seats": f"SELECT {s.columns} FROM {s.table} WHERE {seat_table} = %s ORDER BY {col(Seat, 'index')}",
        "last_action": (
            f"SELECT {a.columns} FROM {a.table} WHERE {log_table} = %s"
            f" ORDER BY {col(ActionLog, 'seq')} DESC LIMIT 1"
        ),
        "applied_before": (
            f"SELECT 1 FROM {a.table} WHERE {log_table} = %s AND {col(ActionLog, 'seat')} = %s"
            f" AND {col(ActionLog, 'action_id')} = %s LIMIT 1"
        ),
    }


#: a primary key (BigAutoField) fits in 64 bits; a larger id names no row, as the ORM answers it
_KEYS = range(-(2**63), 2**63)


def _rows(statement: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor)[statement], params)
        return list(cursor.fetchall())


# -- reads ------------------------------------------------------------------------------------
def table(table_id: int, *, lock: bool = False, skip_locked: bool = False) -> Table | None:
    """The Table row, locked for this transaction with ``lock`` (None: no such row, or with
    ``skip_locked`` another transaction holds it)."""
    if table_id not in _KEYS:
        return None
    statement = "table_lock_skip" if lock and skip_locked else "table_lock" if lock else "table"
    found = _instances(Table, _rows(statement, [table_id]))
    return found[0] if found else None


def version(table_id: int) -> int | None:
    if table_id not in _KEYS:
        return None
    rows = _rows("version", [table_id])
    return int(rows[0][0]) if rows else None


def seats(of: Table) -> list[Seat]:
    """The table's seats in seat order, each knowing its table (as ``table.seats.all()``)."""
    found = _instances(Seat, _rows("seats", [of.pk]))
    cache_table = Seat._meta.get_field("table").set_cached_value  # type: ignore[union-attr]
    for seat in found:
        cache_table(seat, of)
    return found


def last_action(of: Table) -> ActionLog | None:
    found = _instances(ActionLog, _rows("last_action", [of.pk]))
    return found[0] if found else None


def applied_before(of: Table, seat: int, action_id: str) -> bool:
    """Whether this seat's ``action_id`` is in the log already (the move's dedupe)."""
    return bool(_rows("applied_before", [of.pk, seat, action_id]))


# -- writes -----------------------------------------------------------------------------------
@cache
def _insert_sql(
    model: type[models.Model], vendor: str
) -> tuple[tuple[models.Field[Any, Any], ...], str, bool]:
    """The fields an INSERT of ``model`` writes, its text, and whether it returns the new key."""
    q = connection.ops.quote_name
    shape = _of(model)
    pk = model._meta.pk
    fields = tuple(f for f in shape.fields if f is not pk)
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {shape.table} ({columns}) VALUES ({marks})"
    returning = bool(connection.features.can_return_columns_from_insert)
    if returning:
        assert pk is not None
        sql += f" RETURNING {q(pk.column)}"
    return fields, sql, returning


def insert(instance: models.Model) -> None:
    """INSERT ``instance`` (its primary key set from the database), as ``save()`` of a new row."""
    model = type(instance)
    fields, sql, returning = _insert_sql(model, connection.vendor)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]  # type: ignore[arg-type]
    pk = model._meta.pk
    assert pk is not None
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if returning:
            new_pk = cursor.fetchone()[0]
        else:  # Django's own way on such a backend
            new_pk = connection.ops.last_insert_id(cursor, model._meta.db_table, pk.column)
    setattr(instance, pk.attname, new_pk)
    instance._state.adding = False
    instance._state.db = connection.alias


def update(instance: models.Model, fields: Sequence[str]) -> None:
    """UPDATE these fields of ``instance``'s row, as ``save(update_fields=fields)``: a row that
    is not there is a ``DatabaseError``, never a write silently lost."""
    model = type(instance)
    meta = model._meta
    chosen = [meta.get_field(name) for name in dict.fromkeys(fields)]
    q = connection.ops.quote_name
    sets = ", ".join(f"{q(f.column)} = %s" for f in chosen)  # type: ignore[union-attr]
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]  # type: ignore[union-attr]
    pk = meta.pk
    assert pk is not None
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {_of(model).table} SET {sets} WHERE {q(pk.column)} = %s", [*values, instance.pk]
        )
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
