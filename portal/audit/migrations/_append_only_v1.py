"""The append-only triggers (§ 810a.11, § 811a.7) as the migrations install them, frozen.

Not a migration (the name starts with ``_``, so Django's loader passes it by): the one copy
that every migration installing or reinstalling these triggers imports, whatever its app.
It imports none of the apps' code, which keeps changing after a migration is written; a
change to the triggers is a new helper (``_append_only_v2``) and a new migration.
"""

POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION jinzi_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%: % refused', TG_ARGV[0], TG_OP USING ERRCODE = 'insufficient_privilege';
END $$
"""


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def install_statements(vendor: str, table: str, refusal: str) -> list[str]:
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, {_quote(refusal + ': ' + op + ' refused')}); END"
            for op in ("UPDATE", "DELETE")
        ]
    if vendor == "postgresql":
        return [
            POSTGRES_FUNCTION,
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


def run(connection, statements) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def installer(tables: dict[str, str]):
    """A ``RunPython`` function installing the triggers of ``tables`` (table → refusal)."""

    def install(apps, schema_editor):
        connection = schema_editor.connection
        for table, refusal in tables.items():
            run(connection, install_statements(connection.vendor, table, refusal))

    return install


def dropper(tables: dict[str, str]):
    """A ``RunPython`` function dropping the triggers of ``tables``."""

    def drop(apps, schema_editor):
        connection = schema_editor.connection
        for table in tables:
            run(connection, drop_statements(connection.vendor, table))

    return drop
