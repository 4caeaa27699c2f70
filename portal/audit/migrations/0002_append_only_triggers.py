from django.db import migrations

from portal.audit import triggers


def install(apps, schema_editor):
    triggers.install(schema_editor.connection)


def drop(apps, schema_editor):
    triggers.drop(schema_editor.connection)


class Migration(migrations.Migration):
    """§ 811a.7: the database itself refuses UPDATE, DELETE and TRUNCATE of audit events."""

    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
