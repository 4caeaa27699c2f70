"""Loading the user behind a request, with their roles and holder, in one query.

Every signed-in request needs its user, and the policy then needs their groups and
profile: three ORM queries before a view runs. Both ways in, a session (``by_id``) and
an API token (``by_token_digest``), read all three with one fixed LEFT JOIN
(``portal.core.rawsql``) and prime the policy's cache (``roles.remember``), so
``may(...)`` costs nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connections, router

from portal.accounts.models import ApiToken, Profile
from portal.accounts.roles import remember
from portal.core.rawsql import RowReader


@dataclass(frozen=True)
class _UserSelect:
    reader: RowReader
    columns: str  # the user's columns, then the group's name and the profile's holder
    joins: str  # from "u", the user table's alias


@cache
def _user_select() -> _UserSelect:
    user_model = get_user_model()
    reader = RowReader(user_model, (f.name for f in user_model._meta.concrete_fields), "u")
    through = user_model._meta.get_field("groups").remote_field.through._meta
    return _UserSelect(
        reader=reader,
        columns=f"{reader.columns}, g.name, p.holder_id",
        joins=(
            f"LEFT JOIN {through.db_table} ug ON ug.user_id = u.id "
            f"LEFT JOIN {Group._meta.db_table} g ON g.id = ug.group_id "
            f"LEFT JOIN {Profile._meta.db_table} p ON p.user_id = u.id"
        ),
    )


def _read(sql: str, params: list, extra: RowReader | None = None):
    """(user, extra instance) from rows of ``_user_select`` columns (+ ``extra``'s)."""
    select = _user_select()
    connection = connections[router.db_for_read(get_user_model())]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        return None, None
    # One row per group the user is in (one with no group if they are in none).
    width = len(select.reader)
    first = rows[0]
    user = select.reader.read(first[:width], connection)
    remember(user, (row[width] for row in rows if row[width] is not None), first[width + 1])
    return user, (extra.read(first[width + 2 :], connection) if extra is not None else None)


def by_id(user_id):
    """The user with primary key ``user_id`` (roles primed), or None."""
    select = _user_select()
    user, _ = _read(
        f"SELECT {select.columns} FROM {get_user_model()._meta.db_table} u {select.joins} "
        "WHERE u.id = %s",
        [user_id],
    )
    return user


@cache
def _token_reader() -> RowReader:
    return RowReader(
        ApiToken, ("id", "user", "name", "prefix", "auth_hash", "expires_at", "revoked_at"), "t"
    )


def by_token_digest(digest: str):
    """(user with roles primed, token) for the token whose secret hashes to ``digest``,
    or (None, None). Whether the token is still active is the caller's to check."""
    select = _user_select()
    token_reader = _token_reader()
    return _read(
        f"SELECT {select.columns}, {token_reader.columns} "
        f"FROM {ApiToken._meta.db_table} t "
        f"JOIN {get_user_model()._meta.db_table} u ON u.id = t.user_id {select.joins} "
        "WHERE t.digest = %s",
        [digest],
        token_reader,
    )
