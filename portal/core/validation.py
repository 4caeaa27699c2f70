"""Small input checks the services share, and the words a form says of a field left empty."""

from __future__ import annotations

from django import forms

from portal.core.errors import ValidationFailed

MAX_ID = 2**63 - 1  # the largest id a database column holds (a signed 64-bit integer)
MISSING = "give {what}"
TOO_LONG = "{what} is longer than {limit} characters"
NOT_TEXT = "{what} must be text"


def clean_text(field: str, value, *, what: str, max_length: int, required: bool = True) -> str:
    """Stripped text within the column's length, or a ValidationFailed on ``field``."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationFailed.on(field, NOT_TEXT.format(what=what))
    value = value.strip()
    if required and not value:
        raise ValidationFailed.on(field, MISSING.format(what=what))
    if len(value) > max_length:
        raise ValidationFailed.on(field, TOO_LONG.format(what=what, limit=max_length))
    return value


def plain_required(fields) -> None:
    """Each field of a form left empty says what to do, not "This field is required.":
    "Enter the title", "Choose the paytable" (the summary of a refused form lists it far from
    its field, so it must say which). A message a field sets itself is kept."""
    default = forms.Field.default_error_messages["required"]
    for name, field in fields.items():
        if field.error_messages.get("required") != default:
            continue
        label = str(field.label or name.replace("_", " ")).strip().rstrip(":")
        label = label[:1].lower() + label[1:]
        if isinstance(field, forms.FileField):
            field.error_messages["required"] = f"Choose the {label} file"
        elif isinstance(field, (forms.ChoiceField, forms.ModelChoiceField)):
            field.error_messages["required"] = f"Choose the {label}"
        else:
            field.error_messages["required"] = f"Enter the {label}"
