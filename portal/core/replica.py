"""Reads from a streaming replica (``DATABASE_REPLICA_URL``), where they may go.

Writes always go to the primary (``default``). A read goes to the replica only inside a
``reading_from(REPLICA)`` block, opened by the code that knows its reads tolerate it:

- a report run (the audit and expiry reports, their detail files, the Player Account
  Summary, a filing package), once the replica has replayed the primary's write-ahead log
  past the position the run took when it started (``read_source``): it then holds every
  record the run reads, and the report equals the same report made on the primary. Past
  the bound (``JINZI_REPLICA_WAIT`` seconds), or with the replica down, the run reads the
  primary and says so;
- the auditors' read-only lists and a paytable's PAR sheet (``reads_from_replica`` on the
  view): a request that writes anything is pinned to the primary for the rest of the
  request, so it never reads older data than it wrote.

Without the setting (and on SQLite) there is one database and every read is the primary's.
The router (``ReplicaRouter``) is Django's own multi-database routing; nothing else of the
framework is touched.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

log = logging.getLogger(__name__)

PRIMARY = DEFAULT_DB_ALIAS
REPLICA = "replica"

# The alias reads go to in this context (None: the primary), and whether a write in this
# context pins the rest of it to the primary (a request's) or not (a report run's own
# progress and files are written while its reads stay on the replica).
_reading: ContextVar[tuple[str, bool] | None] = ContextVar("jinzi_reading", default=None)
_pinned: ContextVar[bool] = ContextVar("jinzi_pinned", default=False)

BEHIND = (
    "The replica had not caught up with the records this run reads within {seconds} "
    "seconds: read from the primary instead."
)
DOWN = "The replica could not be reached: read from the primary instead."


def replica_configured() -> bool:
    """Whether reads may go to a replica at all: one is configured and reading from it is
    on (``JINZI_READ_REPLICA``, on whenever the replica is configured, off in tests but
    for those that ask for the real replica)."""
    return REPLICA in settings.DATABASES and settings.JINZI_READ_REPLICA


def read_alias() -> str:
    """The alias this context's reads go to."""
    reading = _reading.get()
    if reading is None or _pinned.get() or not replica_configured():
        return PRIMARY
    return reading[0]


def read_connection():
    """The connection this context reads through (for the statements run by hand: COPY)."""
    return connections[read_alias()]


@contextlib.contextmanager
def reading_from(alias: str, *, pin_on_write: bool = False) -> Iterator[None]:
    """Reads inside the block go to ``alias``; with ``pin_on_write``, to the primary again
    as soon as the block writes anything."""
    reading = _reading.set((alias, pin_on_write))
    pinned = _pinned.set(False)
    try:
        yield
    finally:
        _pinned.reset(pinned)
        _reading.reset(reading)


def reads_from_replica(view):
    """A view whose reads may come from the replica (a read-only list), pinned to the
    primary once it writes."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        with reading_from(REPLICA, pin_on_write=True):
            return view(request, *args, **kwargs)

    return wrapped


class ReplicaRouter:
    """Django's database router: reads where the context says, writes to the primary,
    migrations on the primary only (the replica replays them)."""

    def db_for_read(self, model, **hints) -> str:
        return read_alias()

    def db_for_write(self, model, **hints) -> str:
        reading = _reading.get()
        if reading is not None and reading[1]:
            _pinned.set(True)
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints) -> bool:
        return True  # one database and its copy

    def allow_migrate(self, db, app_label, model_name=None, **hints) -> bool:
        return db == PRIMARY


@dataclass(frozen=True)
class ReadSource:
    """Where a run reads its records: the alias, the primary's write-ahead log position it
    needed the replica to have replayed (empty without a replica), and what it says of a
    fall-back to the primary (empty when none)."""

    alias: str
    position: str = ""
    note: str = ""


def _position() -> str:
    """The end of the primary's write-ahead log now: its insert position, past every commit
    made so far, even one not yet written out (a primary with synchronous_commit off writes
    commits a moment later, and its write position would stop before them)."""
    with connections[PRIMARY].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
        return cursor.fetchone()[0]


def _replayed(position: str) -> tuple[bool, str]:
    """Whether the replica has replayed past ``position``, and where it is. A server that is
    not in recovery (a primary named as the replica) has everything: replayed."""
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(
            "SELECT pg_last_wal_replay_lsn()::text, "
            "coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, NOT pg_is_in_recovery())",
            [position],
        )
        replayed, done = cursor.fetchone()
    return bool(done), replayed or "not a replica"


def read_source(*, wait: float | None = None, poll: float = 0.05) -> ReadSource:
    """Where a run starting now reads: the replica once it has replayed the primary's
    write-ahead log up to now (waiting at most ``wait`` seconds, ``JINZI_REPLICA_WAIT``
    unless told), else the primary, saying why. The primary alone without a replica."""
    if not replica_configured() or connections[PRIMARY].vendor != "postgresql":
        return ReadSource(PRIMARY)
    wait = settings.JINZI_REPLICA_WAIT if wait is None else wait
    position = _position()
    deadline = time.monotonic() + wait
    try:
        while True:
            done, replayed = _replayed(position)
            if done:
                return ReadSource(REPLICA, position)
            if time.monotonic() >= deadline:
                log.warning(
                    "the replica is at %s, a run needs %s: it reads the primary", replayed, position
                )
                return ReadSource(PRIMARY, position, BEHIND.format(seconds=f"{wait:g}"))
            time.sleep(poll)
    except DatabaseError:
        log.warning("the replica could not be reached; the run reads the primary", exc_info=True)
        connections[REPLICA].close()  # a broken connection is not reused by the next run
        return ReadSource(PRIMARY, position, DOWN)
