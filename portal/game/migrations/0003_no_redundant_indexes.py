import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from portal.core import append_only

TABLES = ("game_round", "game_bet")


def reinstall(apps, schema_editor):
    # SQLite alters a field by rebuilding its table, which loses the table's triggers.
    for table in TABLES:
        append_only.install(schema_editor.connection, table)


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
