from django.db import migrations

from portal.core import append_only

TABLES = ("game_round", "game_bet", "game_ledgerentry")


def install(apps, schema_editor):
    for table in TABLES:
        append_only.install(schema_editor.connection, table)


def drop(apps, schema_editor):
    for table in TABLES:
        append_only.drop(schema_editor.connection, table)


class Migration(migrations.Migration):
    """§ 810a.11: settled rounds, their bets and the wallet ledger are never changed."""

    dependencies = [("game", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
