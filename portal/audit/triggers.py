"""Database triggers that make the audit table append-only, on SQLite and PostgreSQL.

The same SQL is used by the migration and by the test suite (which must lift the
triggers for the moment a transactional test empties the database).
"""

from __future__ import annotations

TABLE = "audit_auditevent"
REFUSAL = "audit events are append-only (§ 811a.7)"

_SQLITE_INSTALL = [
    f"""CREATE TRIGGER IF NOT EXISTS audit_event_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{REFUSAL}: UPDATE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS audit_event_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{REFUSAL}: DELETE refused'); END""",
]
_SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS audit_event_no_update",
    "DROP TRIGGER IF EXISTS audit_event_no_delete",
]
_POSTGRES_INSTALL = [
    f"""CREATE OR REPLACE FUNCTION audit_event_refuse() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION '{REFUSAL}: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
        END $$""",
    f"""CREATE OR REPLACE TRIGGER audit_event_no_change BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION audit_event_refuse()""",
    f"""CREATE OR REPLACE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION audit_event_refuse()""",
]
_POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS audit_event_no_change ON {TABLE}",
    f"DROP TRIGGER IF EXISTS audit_event_no_truncate ON {TABLE}",
]


def install_statements(vendor: str) -> list[str]:
    return {"sqlite": _SQLITE_INSTALL, "postgresql": _POSTGRES_INSTALL}[vendor]


def drop_statements(vendor: str) -> list[str]:
    return {"sqlite": _SQLITE_DROP, "postgresql": _POSTGRES_DROP}[vendor]


def install(connection) -> None:
    with connection.cursor() as cursor:
        for statement in install_statements(connection.vendor):
            cursor.execute(statement)


def drop(connection) -> None:
    with connection.cursor() as cursor:
        for statement in drop_statements(connection.vendor):
            cursor.execute(statement)
