"""A move's statements as SQL composed once, in place of the ORM's per-call save and query
building, which cost more Python than PostgreSQL took to run them
(docs/decisions/lock-free-moves.md).

The SQL is generated from the models' field definitions and cached, and values go through
each field's `get_db_prep_save`, so a column added to a model needs no change here. On
PostgreSQL the log rows and the game row are written by one statement, and
`game_update_if_unchanged` writes them only if the game's `version` and `log_seq` are
still the ones read, so a common move takes no transaction and no lock; SQLite runs the
statements one after the other. Everything else keeps using the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Expression, Field, JSONField
from django.db.models.sql import Query
from django.db.models.sql.compiler import SQLCompiler
from psycopg.types.json import Jsonb

from games.models import Game, GameAction
from realtime import fastjson


def _db() -> BaseDatabaseWrapper:
    """This thread's connection itself, since each use of django.db.connection looks it up
    again."""
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _quote_column(field: Field[Any, Any]) -> str:
    # django-stubs types every column as optional; only a field with no column has none.
    return _quote(cast(str, field.column))


@cache
def _game_read_sql(vendor: str, with_request: bool, locked: bool) -> str:
    game = Game._meta
    users = get_user_model()._meta
    log = _quote(GameAction._meta.db_table)
    username = _quote_column(
        cast("Field[Any, Any]", users.get_field(get_user_model().USERNAME_FIELD))
    )
    columns = ", ".join(f"g.{_quote_column(f)}" for f in game.concrete_fields)
    user_table, user_pk = _quote(users.db_table), _quote_column(users.pk)
    same_request = (
        f"a.{_quote('game_id')} = g.{_quote('id')} AND a.{_quote('user_id')} = %s"
        f" AND a.{_quote('request_id')} = %s"
    )
    prior = (
        f", (SELECT a.{_quote('version')} FROM {log} a WHERE {same_request}) AS prior_version"
        f", (SELECT a.{_quote('error')} FROM {log} a WHERE {same_request}) AS prior_error"
        if with_request
        else ""
    )
    # FOR UPDATE OF: lock the game row only, not the joined user rows (PostgreSQL).
    lock = " FOR UPDATE OF g" if locked and connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {columns}, u0.{username} AS player0_name, u1.{username} AS player1_name"
        f"{prior}"
        f" FROM {_quote(game.db_table)} g"
        f" JOIN {user_table} u0 ON u0.{user_pk} = g.{_quote('player0_id')}"
        f" JOIN {user_table} u1 ON u1.{user_pk} = g.{_quote('player1_id')}"
        f" WHERE g.{_quote('id')} = %s{lock}"
    )


def game_locked_read(
    game_id: int, *, user_id: int | None = None, request_id: str | None = None
) -> Game | None:
    """The game row, locked until the transaction ends, with what a writer needs next.

    Besides the model's fields it carries `player0_name`/`player1_name` and, given a user
    and a request id, `prior_version`/`prior_error` of that request if it was answered
    before (else None).

    A statement that waited for the lock sees subqueries as they were before the wait, so
    the log's sequence comes from the game row (`log_seq`), never from the log; a retry
    racing its own original meets the unique request id, and the caller asks again.
    """
    return _game_read(game_id, user_id, request_id, locked=True)


def game_read(
    game_id: int, *, user_id: int | None = None, request_id: str | None = None
) -> Game | None:
    """The same as game_locked_read without the lock: for a write that checks the version."""
    return _game_read(game_id, user_id, request_id, locked=False)


def _game_read(
    game_id: int, user_id: int | None, request_id: str | None, *, locked: bool
) -> Game | None:
    db = _db()
    with_request = user_id is not None and request_id is not None
    sql = _game_read_sql(db.vendor, with_request, locked)
    params: list[Any] = [user_id, request_id] * 2 if with_request else []
    params.append(game_id)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    names, compiler, converters = _game_row_reading(db)
    values = next(compiler.apply_converters([row[: len(names)]], converters))
    game = Game.from_db(db.alias, names, values)
    game.player0_name, game.player1_name = row[len(names)], row[len(names) + 1]
    game.prior_version, game.prior_error = row[len(names) + 2 :] if with_request else (None, None)
    return game


def _game_row_reading(db: BaseDatabaseWrapper) -> tuple[list[str], SQLCompiler, dict[int, Any]]:
    """The game's field names in column order, a compiler, and the fields' converters.

    What Game.objects.raw() works out again on every call, kept per connection since the
    backend's converters may be bound to it. JSON columns are read with realtime.fastjson.
    """
    cached = getattr(db, "_game_row_reading", None)
    if cached is None:
        fields = Game._meta.concrete_fields
        compiler = db.ops.compiler("SQLCompiler")(Query(Game), db, db.alias)
        columns: list[Expression] = [field.get_col(Game._meta.db_table) for field in fields]
        converters = compiler.get_converters(columns)
        for index, (functions, expression) in converters.items():
            field = fields[index]
            if isinstance(field, JSONField) and field.decoder is None:
                fast = [_json_from_db if f == field.from_db_value else f for f in functions]
                converters[index] = (fast, expression)
        cached = ([field.attname for field in fields], compiler, converters)
        db._game_row_reading = cached  # type: ignore[attr-defined]
    return cached


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """JSONField.from_db_value (no decoder) with realtime.fastjson: the same values, faster."""
    return value if value is None or not isinstance(value, str | bytes) else fastjson.loads(value)


@cache
def _insert_sql(vendor: str, table: str, columns: tuple[str, ...], count: int = 1) -> str:
    marks = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * count)
    names = ", ".join(_quote(c) for c in columns)
    return f"INSERT INTO {_quote(table)} ({names}) VALUES {marks}"


@cache
def _update_sql(vendor: str, table: str, columns: tuple[str, ...], pk: str) -> str:
    assignments = ", ".join(f"{_quote(c)} = %s" for c in columns)
    return f"UPDATE {_quote(table)} SET {assignments} WHERE {_quote(pk)} = %s"


def _prepared(
    db: BaseDatabaseWrapper, model: type[Game] | type[GameAction], values: dict[str, Any]
) -> tuple[Any, ...]:
    meta = model._meta
    columns = []
    params = []
    for name, value in values.items():
        field = cast("Field[Any, Any]", meta.get_field(name))
        columns.append(field.column)
        if value is not None and db.vendor == "postgresql" and _plain_json(field):
            params.append(Jsonb(value, dumps=fastjson.dumps))  # what Django does, faster
        else:
            params.append(field.get_db_prep_save(value, db))
    return tuple(columns), params


def _plain_json(field: Any) -> bool:
    return isinstance(field, JSONField) and field.encoder is None


def game_update(
    game: Game, fields: Iterable[str], *, log_rows: list[dict[str, Any]] | None = None
) -> None:
    """Write these fields of `game` to its row, and insert `log_rows` (GameAction values)."""
    db = _db()
    columns, params = _prepared(db, Game, _values(game, fields))
    params.append(game.pk)
    sql = _update_sql(db.vendor, Game._meta.db_table, columns, Game._meta.pk.column)
    log_columns, log_params = _log_params(db, log_rows or [])
    with db.cursor() as cursor:
        if not log_rows:
            cursor.execute(sql, params)
            return
        table = GameAction._meta.db_table
        insert = _insert_sql(db.vendor, table, log_columns, len(log_rows))
        if db.vendor == "postgresql":
            cursor.execute(f"WITH logged AS ({insert}) {sql}", [*log_params, *params])
        else:
            cursor.execute(insert, log_params)
            cursor.execute(sql, params)


def _values(game: Game, fields: Iterable[str]) -> dict[str, Any]:
    return {
        name: getattr(game, cast("Field[Any, Any]", Game._meta.get_field(name)).attname)
        for name in fields
    }


def _log_params(
    db: BaseDatabaseWrapper, log_rows: list[dict[str, Any]]
) -> tuple[tuple[str, ...], list[Any]]:
    log_columns: tuple[str, ...] = ()
    log_params: list[Any] = []
    for row in log_rows:
        log_columns, row_params = _prepared(db, GameAction, row)
        log_params.extend(row_params)
    return log_columns, log_params


@cache
def _conditional_write_sql(
    vendor: str, columns: tuple[str, ...], log_columns: tuple[str, ...], count: int
) -> str:
    game, log = Game._meta, GameAction._meta
    assignments = ", ".join(f"{_quote(c)} = %s" for c in columns)
    # Typed, as the values are bound by the server and a VALUES list has no target column.
    casts = [
        next(f for f in log.concrete_fields if f.column == c).cast_db_type(connection)
        for c in log_columns
    ]
    row = "(" + ", ".join(f"%s::{cast}" for cast in casts) + ")"
    names = ", ".join(_quote(c) for c in log_columns)
    return (
        f"WITH updated AS (UPDATE {_quote(game.db_table)} SET {assignments}"
        f" WHERE {_quote_column(game.pk)} = %s AND {_quote('version')} = %s"
        f" AND {_quote('log_seq')} = %s RETURNING 1)"
        f" INSERT INTO {_quote(log.db_table)} ({names})"
        f" SELECT v.* FROM (VALUES {', '.join([row] * count)}) AS v CROSS JOIN updated"
    )


def game_update_if_unchanged(
    game: Game,
    fields: Iterable[str],
    *,
    log_rows: list[dict[str, Any]],
    version: int,
    log_seq: int,
) -> bool:
    """Write `game` and insert `log_rows` in one statement, if the row has not moved on.

    Only if the row still has `version` and `log_seq` (as read); False, with nothing
    written, if it has. PostgreSQL only. Run outside a transaction, the statement is its
    own: both writes or neither. A writer that locked the row meanwhile makes it wait,
    then see its new version.
    """
    db = _db()
    columns, params = _prepared(db, Game, _values(game, fields))
    log_columns, log_params = _log_params(db, log_rows)
    sql = _conditional_write_sql(db.vendor, columns, log_columns, len(log_rows))
    with db.cursor() as cursor:
        cursor.execute(sql, [*params, game.pk, version, log_seq, *log_params])
        return cursor.rowcount == len(log_rows)
