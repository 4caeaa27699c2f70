import django.db.models.deletion
from django.db import migrations, models

from portal.audit.migrations import _append_only_v1 as _triggers

TABLES = {"game_ledgerentry": "wallet ledger entries are append-only"}

# SQLite rebuilds the ledger's table to drop the account's own index, which loses the table's
# triggers: they are installed again afterwards (a frozen copy, as in 0008 and 0010).
reinstall = _triggers.installer(TABLES)


class Migration(migrations.Migration):
    """An account's entries by time: its balance at an instant and its entries over a period
    read from its own stretch of one index, however long the ledger grows. The account's
    own index is dropped, since the new one starts with it. On PostgreSQL the ledger's writes
    wait while the index is built (figures in the operations guide)."""

    dependencies = [
        ("game", "0017_rounds_record_software_identity"),
    ]

    operations = [
        # Undone last when migrating backwards, after the rebuilds that undo the changes.
        migrations.RunPython(migrations.RunPython.noop, reinstall),
        migrations.AddIndex(
            model_name="ledgerentry",
            index=models.Index(
                fields=["account", "created_at", "id"], name="ledger_by_account_time"
            ),
        ),
        migrations.AlterField(
            model_name="ledgerentry",
            name="account",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                help_text="Blank on the single wallet's entries, from before accounts per holder.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="game.gamingaccount",
            ),
        ),
        migrations.RunPython(reinstall, migrations.RunPython.noop),
    ]
