"""The dispatcher starts reading at the trail's head as the app is installed: what happened
before is not told (an install on a trail years long would otherwise send it all)."""

from django.db import migrations
from django.utils import timezone


def start_at_the_head(apps, schema_editor):
    AuditEvent = apps.get_model("audit", "AuditEvent")
    Cursor = apps.get_model("notifications", "Cursor")
    head = AuditEvent.objects.order_by("-sequence").values_list("sequence", flat=True).first()
    Cursor.objects.update_or_create(
        pk=1, defaults={"audit_sequence": head or 0, "runs_finished_after": timezone.now()}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_notifications"),
        ("audit", "0003_chain_head"),
    ]

    operations = [migrations.RunPython(start_at_the_head, migrations.RunPython.noop)]
