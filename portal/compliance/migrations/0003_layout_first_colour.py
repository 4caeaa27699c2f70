"""Record which colour follows 0 on a layout's wheel (§ 617b.8(c), reading:wheel-order).

Every existing layout becomes red first, through the field's default: that is how its
wheel was read until now (the first compartment after 0 was always red), so no layout's
colours change and no approved record is altered in meaning.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0002_version_authors"),
    ]

    operations = [
        migrations.AddField(
            model_name="layout",
            name="first_colour",
            field=models.CharField(
                choices=[("red", "Red"), ("black", "Black")],
                default="red",
                help_text="Colour of the compartment after 0; the others alternate (§ 617b.8(c)).",
                max_length=5,
            ),
        ),
    ]
