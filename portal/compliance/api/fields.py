"""Request fields only the compliance records read: odds, wheel order, reasons, statuses.

Like ``portal.api.fields`` they only parse; whether a wheel or a paytable is legal is the
services' (and ``jinzi``'s) question.
"""

from __future__ import annotations

import json

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import jinzi
from jinzi.errors import describe_value
from jinzi.wheel import WHEEL_NOT_SEQUENCE
from portal.compliance.models import OfferingStatus, RecordStatus

# jinzi reads odds written as text with at most nine digits; an integer gets the same bound.
MAX_ODDS = jinzi.paytable.MAX_ODDS - 1  # jinzi refuses anything from MAX_ODDS up

ODDS_NOT_OBJECT = (
    'odds must be an object giving each wager kind its odds, e.g. {{"straight": 11, '
    '"split": "11/2"}}; got {got}'
)
ODDS_VALUE = (
    'odds for {kind} must be a JSON integer from 0 to {maximum} or a string like "23/2" '
    "(meaning 23 to 2); got {got}"
)
WHEEL_UNREADABLE_JSON = "wheel_order is not a readable JSON list: {text!r}"


_ODDS_VALUE_SCHEMA = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "maximum": MAX_ODDS},
        {"type": "string", "pattern": "^[0-9]{1,9}(/[0-9]{1,9})?$"},
    ],
    "description": 'Odds "N to 1": an integer, or "N" / "N/D" (e.g. "23/2" is 23 to 2).',
}


@extend_schema_field(
    {
        "type": "object",
        "properties": {kind: _ODDS_VALUE_SCHEMA for kind in jinzi.WAGER_KINDS},
        "required": list(jinzi.WAGER_KINDS),
        "additionalProperties": False,
        "description": "Odds per wager kind, never below § 617b.8(f).",
    }
)
class OddsField(serializers.Field):
    """``{kind: int | "N/D"}``; which kinds and what minimums are ``jinzi``'s to check."""

    def to_internal_value(self, data) -> dict:
        if not isinstance(data, dict):
            raise serializers.ValidationError(ODDS_NOT_OBJECT.format(got=describe_value(data)))
        refused = {
            kind: [ODDS_VALUE.format(kind=kind, maximum=MAX_ODDS, got=describe_value(value))]
            for kind, value in data.items()
            if not isinstance(value, str) and not (type(value) is int and 0 <= value <= MAX_ODDS)
        }
        if refused:
            raise serializers.ValidationError(refused)
        return data

    def to_representation(self, value) -> dict:
        return dict(value)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "array", "items": {"type": "integer"}, "minItems": 13, "maxItems": 13},
            {"type": "string", "example": "0,1,7,8,2,3,9,10,4,5,11,12,6"},
        ],
        "description": "The wheel clockwise from 0 (§ 617b.8(c)): a list of the 13 numbers, "
        'or the same as text "0,1,7,…".',
    }
)
class WheelOrderField(serializers.Field):
    """A JSON list, or text: ``"0,1,7,…"`` or, from a multipart form, ``"[0, 1, 7, …]"``."""

    def to_internal_value(self, data):
        if isinstance(data, str) and data.lstrip().startswith("["):
            try:
                data = json.loads(data)
            except ValueError:
                raise serializers.ValidationError(
                    WHEEL_UNREADABLE_JSON.format(text=data[:80])
                ) from None
        if isinstance(data, list | str):
            return data
        raise serializers.ValidationError(WHEEL_NOT_SEQUENCE.format(got=describe_value(data)))

    def to_representation(self, value) -> list[int]:
        return list(value)


class ReasonField(serializers.CharField):
    """Free text whose absence the service judges (it cites its own rule)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("default", "")
        super().__init__(**kwargs)


def _status_schema(choices) -> dict:
    return {
        "type": "string",
        "enum": [value for value, _ in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }


# Records and offerings both have a "status", with different values: each set is one named
# schema component, so neither is renamed after a hash.
@extend_schema_field(_status_schema(RecordStatus.choices), component_name="RecordStatusEnum")
class RecordStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=RecordStatus.choices, **kwargs)


@extend_schema_field(_status_schema(OfferingStatus.choices), component_name="OfferingStatusEnum")
class OfferingStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs) -> None:
        super().__init__(choices=OfferingStatus.choices, **kwargs)
