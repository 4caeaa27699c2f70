"""Small input checks the services share."""

from __future__ import annotations

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
