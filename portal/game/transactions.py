"""The one transaction a round's two statements share (``portal.game.store``).

On PostgreSQL, outside any transaction (a web request, a task), it is an *implicit*
transaction of the extended query protocol, sent in psycopg's pipeline mode:

- the read is answered on a Flush, which leaves the block open with the wallet locked;
- the write is the block's last statement, and leaving the pipeline right after it sends
  the Sync that commits the block and waits for the answer.

A round so needs no BEGIN and no COMMIT: two round trips to the server instead of four,
and the wallet stays locked one round trip less. What can go wrong, and what happens:

- a refusal or any error before the write leaves the pipeline as usual: the block held
  only reads, and its Sync ends it;
- anything that fails once the write may be queued (an error the server reports at the
  Sync, such as a deferred foreign-key check, or an exception in between) closes the
  connection instead, so no Sync is sent and the server rolls the whole block back; the
  connection is also no longer trusted after an error in pipeline mode;
- while the block is open, the connection refuses Django's transaction control (``atomic``,
  ``commit``, ``rollback``, ``set_autocommit``, ``on_commit``) with
  ``TransactionManagementError``, before psycopg is touched: each of them would first send
  a Sync, ending the block early, committing its reads and freeing the wallet while the
  round goes on.

Inside a caller's transaction (tests, an outer ``atomic``), with an isolation level set in
the database options (an implicit block runs at the server's default), on SQLite, or with
a libpq older than 14, it is an ordinary ``atomic`` block.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.db.transaction import TransactionManagementError

IN_PROGRESS = (
    "a round's implicit transaction is in progress on this connection: it cannot begin, "
    "commit or roll back another transaction, nor run anything on commit"
)
# Django's transaction control: each would send a Sync and end the block early.
_TRANSACTION_CONTROL = ("commit", "rollback", "set_autocommit", "on_commit")


class RoundTransaction:
    """Handed to the round's statements; see ``round_transaction``."""

    def __init__(self, connection=None, pipeline: Any = None) -> None:
        self._connection = connection
        self._pipeline = pipeline  # psycopg's pipeline context while the block is open
        self.implicit = pipeline is not None

    @contextlib.contextmanager
    def committing_write(self) -> Iterator[None]:
        """Around sending the write, the transaction's last statement.

        Implicit: the write is committed, or nothing is, before this returns. Atomic:
        nothing to do here; the atomic block commits as it closes, right after.
        """
        if not self.implicit:
            yield
            return
        pipeline, self._pipeline = self._pipeline, None
        try:
            yield
            pipeline.__exit__(None, None, None)  # the Sync that commits
        except BaseException as error:
            self._connection.close()  # no Sync: the server rolls the block back
            _let_go(pipeline, error)
            refusal = _refusal(error)
            if refusal is error:
                raise
            raise refusal from None

    def _close_reads(self, error: BaseException | None) -> None:
        """End a block that sent no write: its Sync ends a transaction of reads."""
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is None:
            return
        try:
            if error is None:
                pipeline.__exit__(None, None, None)
            else:
                pipeline.__exit__(type(error), error, error.__traceback__)
        except BaseException:
            self._connection.close()
            raise


class _Quiet(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return False


def _let_go(pipeline, error: BaseException) -> None:
    """Let psycopg's pipeline context of a closed connection end: its exit can only fail
    there, and would log that it did."""
    psycopg_log = logging.getLogger("psycopg")
    quiet = _Quiet()
    psycopg_log.addFilter(quiet)
    try:
        with contextlib.suppress(Exception):
            pipeline.__exit__(type(error), error, error.__traceback__)
    finally:
        psycopg_log.removeFilter(quiet)


def _refusal(error: BaseException) -> BaseException:
    """The error worth raising: when the server refuses the Sync (say, a foreign key
    checked at commit), psycopg then fails to leave pipeline mode and raises that
    instead, with the server's refusal as its context."""
    import psycopg

    context = error.__context__
    if isinstance(error, psycopg.OperationalError) and isinstance(context, psycopg.Error):
        return context
    return error


@functools.cache
def _libpq_pipelines() -> bool:
    import psycopg

    return psycopg.Pipeline.is_supported()


def _implicit_transactions(connection) -> bool:
    return (
        connection.vendor == "postgresql"
        and connection.get_autocommit()
        and not connection.in_atomic_block
        and connection.settings_dict["OPTIONS"].get("isolation_level") is None
        and _libpq_pipelines()
    )


@contextlib.contextmanager
def round_transaction(connection) -> Iterator[RoundTransaction]:
    """One transaction for a round's read and write (the module's docstring says which)."""
    with connection.cursor():  # connect, health check included, as any query would
        pass
    if not _implicit_transactions(connection):
        with transaction.atomic(using=connection.alias):
            yield RoundTransaction()
        return
    with connection.wrap_database_errors, _refusing_transaction_control(connection):
        pipeline = connection.connection.pipeline()
        pipeline.__enter__()
        tx = RoundTransaction(connection, pipeline)
        try:
            yield tx
        except BaseException as error:
            tx._close_reads(error)
            raise
        tx._close_reads(None)


@contextlib.contextmanager
def _refusing_transaction_control(connection) -> Iterator[None]:
    def refuse(*args, **kwargs):
        raise TransactionManagementError(IN_PROGRESS)

    for name in _TRANSACTION_CONTROL:
        setattr(connection, name, refuse)  # shadows the method on this connection only
    try:
        yield
    finally:
        for name in _TRANSACTION_CONTROL:
            delattr(connection, name)
