import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from portal.audit.migrations import _append_only_v1 as _triggers

TABLES = {
    "game_round": "settled rounds are immutable (§ 810a.11)",
    "game_bet": "settled rounds are immutable (§ 810a.11)",
}

# The triggers as the migrations install them: one frozen copy beside the migrations (a
# migration imports none of the apps' code, which keeps changing after it is written).


def install_statements(vendor: str, table: str) -> list[str]:
    return _triggers.install_statements(vendor, table, TABLES[table])


# SQLite alters a field by rebuilding its table, which loses the table's triggers.
reinstall = _triggers.installer(TABLES)


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
