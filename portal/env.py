"""Small, strict parsers for settings read from the environment.

Every parser raises ``ImproperlyConfigured`` naming the variable and the bad value:
a typo in production must stop the process at start-up, not fall back silently.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str, env: Mapping[str, str] | None) -> str | None:
    source = os.environ if env is None else env
    value = source.get(name)
    return None if value is None else value.strip()


def env_str(name: str, default: str, *, env: Mapping[str, str] | None = None) -> str:
    value = _raw(name, env)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool, *, env: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, env)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {value!r}"
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, env)
    if value is None or value == "":
        return default
    try:
        number = int(value, 10)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}; got {number}")
    return number


def env_list(name: str, default: list[str], *, env: Mapping[str, str] | None = None) -> list[str]:
    value = _raw(name, env)
    if value is None or value == "":
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(
            f"{name} is a comma-separated list with an empty item: {value!r}"
        )
    return items


def env_int_list(
    name: str, default: list[int], *, env: Mapping[str, str] | None = None
) -> list[int]:
    """A comma-separated list of whole numbers of days, each from 1 to 365."""
    items = env_list(name, [str(item) for item in default], env=env)
    if not all(item.isascii() and item.isdigit() and 1 <= int(item) <= 365 for item in items):
        raise ImproperlyConfigured(
            f"{name} is a comma-separated list of whole numbers from 1 to 365: {items!r}"
        )
    return sorted({int(item) for item in items})


def env_token(name: str, *, minimum_length: int = 32, env: Mapping[str, str] | None = None) -> str:
    """A shared secret a client sends (a bearer token): empty when unset, else at least
    ``minimum_length`` ASCII characters with no spaces, as a header carries it whole."""
    value = env_str(name, "", env=env)
    if value and (
        len(value) < minimum_length
        or not value.isascii()
        or any(character.isspace() for character in value)
    ):
        raise ImproperlyConfigured(
            f"{name} must be at least {minimum_length} ASCII characters with no spaces (make "
            "one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'), or unset"
        )
    return value


def env_choice(
    name: str, default: str, choices: tuple[str, ...], *, env: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, default, env=env)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


class SqliteFileConnection(sqlite3.Connection):
    """A connection to the embedded SQLite file that first makes the file's folder, which
    SQLite does not do ("unable to open database file"): the folder appears when the database
    is first opened, not when the settings are read. In-memory databases (the test suite's)
    have no folder."""

    def __init__(self, database, *args, **kwargs) -> None:
        name = os.fspath(database)
        if name != ":memory:" and not name.startswith("file:"):
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        super().__init__(database, *args, **kwargs)


def env_database(
    name: str,
    sqlite_path: str,
    *,
    prepare_threshold: int = 0,
    env: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """PostgreSQL from ``DATABASE_URL`` when set, else the embedded SQLite file.

    SQLite runs in WAL mode with IMMEDIATE transactions so that a writer takes the
    lock when its transaction begins, not half-way through (no "database is locked"
    upgrade failures under concurrent requests), and makes its file's folder when it first
    connects (``SqliteFileConnection``).

    On PostgreSQL, a ``prepare_threshold`` above 0 binds parameters on the server and
    prepares a statement once it has run that many times on a connection, so the
    server stops parsing and planning the same query on every request (0 turns both
    off, as Django does by default, e.g. behind a pooler that cannot keep prepared
    statements).
    """
    url = _raw(name, env)
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            "OPTIONS": {
                # Django passes the options it does not read itself on to
                # sqlite3.connect(), whose ``factory`` makes the connection.
                "factory": SqliteFileConnection,
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA foreign_keys=ON;"
                    "PRAGMA busy_timeout=20000;"
                ),
            },
        }
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not a usable database URL: {exc}") from None
    if config.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            f"{name} must be a postgres:// or postgresql:// URL (got engine "
            f"{config.get('ENGINE')!r}); leave it unset for the embedded SQLite database"
        )
    if prepare_threshold:
        config.setdefault("OPTIONS", {}).update(
            {"server_side_binding": True, "prepare_threshold": prepare_threshold}
        )
    return dict(config)
