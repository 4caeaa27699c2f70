"""Django's database sessions, with the one read every signed-in request makes as fixed SQL.

Everything else (creating, saving, cycling keys on sign-in, deleting on sign-out,
clearing expired rows) is Django's ``db`` engine unchanged; only the lookup of the
current session skips query building (``portal.core.rawsql``).
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from portal.core.rawsql import RowReader, fetch_one

_reader: RowReader | None = None


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        global _reader
        key = self.session_key
        if key is None:
            return None
        model = self.model
        if _reader is None:
            _reader = RowReader(model, ("session_key", "session_data", "expire_date"), "s")
        connection = connections[router.db_for_read(model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        row = fetch_one(
            connection,
            f"SELECT {_reader.columns} FROM {model._meta.db_table} s "
            "WHERE s.session_key = %s AND s.expire_date > %s",
            [key, now],
        )
        if row is None:
            self._session_key = None
            return None
        return _reader.read(row, connection)
