import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLES = {
    "game_round": "settled rounds are immutable (§ 810a.11)",
    "game_bet": "settled rounds are immutable (§ 810a.11)",
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


def _run(connection, statements) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def reinstall(apps, schema_editor):
    # SQLite alters a field by rebuilding its table, which loses the table's triggers.
    connection = schema_editor.connection
    for table in TABLES:
        _run(connection, install_statements(connection.vendor, table))


class Migration(migrations.Migration):
    """Drop indexes that duplicate the leading column of a unique constraint: every
    round writes fewer index entries, and nothing reads worse."""

    dependencies = [
        ("game", "0002_append_only_records"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Undone last when migrating backwards, after the rebuilds that undo the changes.
        migrations.RunPython(migrations.RunPython.noop, reinstall),
        migrations.RemoveIndex(model_name="round", name="game_round_player__cd64e2_idx"),
        migrations.AlterField(
            model_name="bet",
            name="round",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="bets",
                to="game.round",
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="rounds",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(reinstall, migrations.RunPython.noop),
    ]
