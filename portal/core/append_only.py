"""Database triggers that make a table append-only, on SQLite and PostgreSQL.

Used by the migrations of the audit trail and the game records, and by the test
suite, which must lift the triggers for the moment a transactional test empties
the database.
"""

from __future__ import annotations

# table → the refusal the database raises on UPDATE, DELETE (and TRUNCATE on PostgreSQL)
TABLES: dict[str, str] = {
    "audit_auditevent": "audit events are append-only (§ 811a.7)",
    "game_round": "settled rounds are immutable (§ 810a.11)",
    "game_bet": "settled rounds are immutable (§ 810a.11)",
    "game_ledgerentry": "wallet ledger entries are append-only",
    "compliance_availabilitychange": "the game availability log is append-only (§ 811a.7(f))",
}

_POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION jinzi_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%: % refused', TG_ARGV[0], TG_OP USING ERRCODE = 'insufficient_privilege';
END $$
"""


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def install_statements(vendor: str, table: str) -> list[str]:
    refusal = TABLES[table]
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, {_quote(refusal + ': ' + op + ' refused')}); END"
            for op in ("UPDATE", "DELETE")
        ]
    if vendor == "postgresql":
        return [
            _POSTGRES_FUNCTION,
            f"CREATE OR REPLACE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION jinzi_refuse_change({_quote(refusal)})",
            f"CREATE OR REPLACE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION jinzi_refuse_change({_quote(refusal)})",
        ]
    raise NotImplementedError(f"append-only triggers for {vendor} are not written")


def drop_statements(vendor: str, table: str) -> list[str]:
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {table}_no_{op}" for op in ("update", "delete")]
    return [
        f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}",
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}",
    ]


def _run(connection, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(connection, table: str) -> None:
    _run(connection, install_statements(connection.vendor, table))


def drop(connection, table: str) -> None:
    _run(connection, drop_statements(connection.vendor, table))


def existing_tables(connection) -> list[str]:
    present = set(connection.introspection.table_names())
    return [table for table in TABLES if table in present]


def install_all(connection) -> None:
    for table in existing_tables(connection):
        install(connection, table)


def drop_all(connection) -> None:
    for table in existing_tables(connection):
        drop(connection, table)
