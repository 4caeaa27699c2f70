from django.db import migrations

# Each table, and the refusal the database raises on UPDATE, DELETE (and TRUNCATE).
TABLES = {
    "game_round": "settled rounds are immutable (§ 810a.11)",
    "game_bet": "settled rounds are immutable (§ 810a.11)",
    "game_ledgerentry": "wallet ledger entries are append-only",
}

# Frozen here, as a migration must be (it imports none of the apps' code, which keeps
# changing after it): the append-only triggers as this migration installed them.
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


def _run(connection, statements) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(apps, schema_editor):
    connection = schema_editor.connection
    for table in TABLES:
        _run(connection, install_statements(connection.vendor, table))


def drop(apps, schema_editor):
    connection = schema_editor.connection
    for table in TABLES:
        _run(connection, drop_statements(connection.vendor, table))


class Migration(migrations.Migration):
    """§ 810a.11: settled rounds, their bets and the wallet ledger are never changed."""

    dependencies = [("game", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
