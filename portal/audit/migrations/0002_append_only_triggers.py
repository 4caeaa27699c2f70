from django.db import migrations

from portal.audit.migrations import _append_only_v1 as _triggers

TABLES = {"audit_auditevent": "audit events are append-only (§ 811a.7)"}

# The triggers as the migrations install them: one frozen copy beside the migrations (a
# migration imports none of the apps' code, which keeps changing after it is written).


def install_statements(vendor: str, table: str) -> list[str]:
    return _triggers.install_statements(vendor, table, TABLES[table])


def drop_statements(vendor: str, table: str) -> list[str]:
    return _triggers.drop_statements(vendor, table)


install = _triggers.installer(TABLES)
drop = _triggers.dropper(TABLES)


class Migration(migrations.Migration):
    """§ 811a.7: the database itself refuses UPDATE, DELETE and TRUNCATE of audit events."""

    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
