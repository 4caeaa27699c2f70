"""The audit table's append-only triggers (§ 811a.7); see ``portal.core.append_only``."""

from __future__ import annotations

from portal.core import append_only

TABLE = "audit_auditevent"
REFUSAL = append_only.TABLES[TABLE]


def install(connection) -> None:
    append_only.install(connection, TABLE)


def drop(connection) -> None:
    append_only.drop(connection, TABLE)
