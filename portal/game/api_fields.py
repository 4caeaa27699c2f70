"""Fields the game's APIs share (its rounds, the player's money, the corrections of rounds):
values read as given, for the services to judge and cite the rule; instants in UTC; the
enum schemas named once; and an id as a list's query gives it.

Fields every app reads live in ``portal.api.fields``."""

from __future__ import annotations

import datetime

from django import forms
from django.core.exceptions import ValidationError
from rest_framework import serializers

from portal.api.fields import AsGiven


class GivenInteger(AsGiven, serializers.IntegerField):
    pass


class GivenText(AsGiven, serializers.CharField):
    pass


class GivenChoice(AsGiven, serializers.ChoiceField):
    pass


class GivenList(AsGiven, serializers.ListField):
    pass


class UtcInstantField(serializers.DateTimeField):
    """An instant in ISO 8601, in UTC (``+00:00``), as a round's record gives its times."""

    def to_representation(self, value) -> str:
        return value.astimezone(datetime.UTC).isoformat()


def enum_schema(choices) -> dict:
    return {
        "type": "string",
        "enum": [value for value, _ in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }


# Digits a signed 64-bit id column always holds.
_MAX_DIGITS = 18


class QueryIdField(forms.Field):
    """An id as the query gives it: ASCII digits only (no sign, space, decimal point or
    other script's digits), so what is filtered is exactly what was asked. Each list's
    subclass says what the id is in its ``invalid`` message."""

    def clean(self, value) -> int | None:
        if value is None:  # not asked: every one
            return None
        if not (value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(value)
