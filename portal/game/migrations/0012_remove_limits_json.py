"""The limits' JSON fields go: the rows of ``AccountLimit`` hold them now (0011 moved them)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0011_limits_as_rows"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="gamingaccount",
            name="limits",
        ),
        migrations.RemoveField(
            model_name="gamingaccount",
            name="pending_limits",
        ),
    ]
