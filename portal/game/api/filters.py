"""Query filters of the game API's lists."""

from __future__ import annotations

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.game.models import Round

NOT_A_TABLE_ID = "offering filter must be a table id"
# Digits a signed 64-bit id column always holds.
_MAX_DIGITS = 18


class TableIdField(forms.Field):
    """A table's id as the query gives it: ASCII digits only (no sign, space, decimal point
    or other script's digits), so what is filtered is exactly what was asked."""

    default_error_messages = {"invalid": NOT_A_TABLE_ID}

    def clean(self, value) -> int | None:
        if value is None:  # not asked: every table
            return None
        if not (value.isascii() and value.isdigit() and len(value) <= _MAX_DIGITS):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(value)


@extend_schema_field(OpenApiTypes.INT)
class TableIdFilter(django_filters.Filter):
    field_class = TableIdField


class RoundFilter(django_filters.FilterSet):
    offering = TableIdFilter(field_name="offering_id")

    class Meta:
        model = Round
        fields = ["offering"]
