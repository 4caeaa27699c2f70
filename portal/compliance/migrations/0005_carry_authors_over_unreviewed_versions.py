"""Four-eyes by content for versions amended before authors were carried on.

An amendment of a version nobody else ever approved copies its content, so that version's
authors are authors of the amendment too (``workflow.amend`` does this for new amendments).
Versions amended earlier get the same here: walking each series in version order, a version
whose predecessor was never reviewed takes on the predecessor's authors (already carried),
creator and submitter. Author lists are not part of the audited pictures, so the audit trail
is unchanged.
"""

from django.db import migrations

# The statuses in which a second person has decided the content (workflow.REVIEWED_STATUSES).
REVIEWED = {"approved", "superseded", "expired", "withdrawn"}
MODELS = ("Layout", "Paytable", "RulesSubmission")


def carry_authors_on(apps, schema_editor):
    for name in MODELS:
        model = apps.get_model("compliance", name)
        previous = None
        rows = model.objects.order_by("series", "version").only(
            "series", "version", "status", "author_ids", "created_by_id", "submitted_by_id"
        )
        for record in rows.iterator(chunk_size=2000):
            same_series = previous is not None and previous.series == record.series
            if same_series and previous.status not in REVIEWED:
                carried = {*previous.author_ids, previous.created_by_id, previous.submitted_by_id}
                authors = sorted({*record.author_ids, *carried} - {None})
                if authors != list(record.author_ids):
                    record.author_ids = authors
                    record.save(update_fields=["author_ids"])
            previous = record


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0004_availability_log"),
    ]

    operations = [migrations.RunPython(carry_authors_on, migrations.RunPython.noop)]
