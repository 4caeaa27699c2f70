from django.db import migrations

from portal.audit.migrations import _append_only_v1 as _triggers

# Each table, and the refusal the database raises on UPDATE, DELETE (and TRUNCATE).
TABLES = {
    "game_round": "settled rounds are immutable (§ 810a.11)",
    "game_bet": "settled rounds are immutable (§ 810a.11)",
    "game_ledgerentry": "wallet ledger entries are append-only",
}

# The triggers as the migrations install them: one frozen copy beside the migrations (a
# migration imports none of the apps' code, which keeps changing after it is written).


def install_statements(vendor: str, table: str) -> list[str]:
    return _triggers.install_statements(vendor, table, TABLES[table])


def drop_statements(vendor: str, table: str) -> list[str]:
    return _triggers.drop_statements(vendor, table)


install = _triggers.installer(TABLES)
drop = _triggers.dropper(TABLES)


class Migration(migrations.Migration):
    """§ 810a.11: settled rounds, their bets and the wallet ledger are never changed."""

    dependencies = [("game", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
