from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0002_audit_report_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="reportrun",
            name="cutoff",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="reportrun",
            name="last_round",
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
