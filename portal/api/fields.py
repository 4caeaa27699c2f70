"""Reading request bodies exactly: no unknown fields, no coerced numbers.

These only parse. Whether a wheel, a paytable or a listing is *legal* is the services'
(and ``jinzi``'s) question; the values are handed to them as given, so their messages,
which cite the regulation, are the ones a client sees.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from django.http import QueryDict
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import jinzi
from jinzi.errors import describe_value
from jinzi.wheel import WHEEL_NOT_SEQUENCE
from portal.accounts import policy
from portal.api import errors as msg
from portal.compliance.models import OfferingStatus, RecordStatus
from portal.core.validation import MAX_ID

# jinzi reads odds written as text with at most nine digits; an integer gets the same bound.
MAX_ODDS = jinzi.paytable.MAX_ODDS - 1  # jinzi refuses anything from MAX_ODDS up


class StrictInput(serializers.Serializer):
    """A request body that refuses every field it does not take, naming each one.

    ``read_only_from`` is the serializer of the record's representation: a field a
    client can read there but not write here is called read-only, not unknown.
    """

    read_only_from: ClassVar[type[serializers.Serializer] | None] = None

    def _refused_fields(self, data: Mapping) -> dict[str, list[str]]:
        readable = set(self.read_only_from().fields) if self.read_only_from else set()
        allowed = ", ".join(sorted(self.fields))
        refused: dict[str, list[str]] = {}
        for key in data:
            if key in self.fields:
                continue
            if key in readable:
                refused[key] = [msg.READ_ONLY_FIELD.format(field=key)]
            elif allowed:
                refused[key] = [msg.UNKNOWN_FIELD.format(field=key, allowed=allowed)]
            else:
                refused[key] = [msg.NO_FIELDS.format(field=key)]
        return refused

    def to_internal_value(self, data):
        refused = self._refused_fields(data) if isinstance(data, Mapping) else {}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if refused and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**exc.detail, **refused}) from None
            raise
        if refused:
            raise serializers.ValidationError(refused)
        return value


class NoInput(StrictInput):
    """The body of an action that takes nothing (submit, amend)."""


class ChangesInput(StrictInput):
    """A PATCH body: every field optional, but at least one given."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            allowed = ", ".join(sorted(self.fields))
            raise serializers.ValidationError(msg.NOTHING_TO_CHANGE.format(allowed=allowed))
        return attrs


def _from_form(field: serializers.Field) -> bool:
    return isinstance(getattr(field.root, "initial_data", None), QueryDict)


def whole_number(field: serializers.Field, data, *, minimum: int, maximum: int) -> int:
    """``data`` if it is a JSON integer in range (in a multipart form: ASCII digits)."""
    name = field.field_name or "the value"
    if isinstance(data, str) and _from_form(field) and data.isascii() and data.isdigit():
        data = int(data)
    if type(data) is not int:
        raise serializers.ValidationError(
            msg.NOT_WHOLE.format(field=name, got=describe_value(data))
        )
    if data < minimum:
        raise serializers.ValidationError(
            msg.TOO_SMALL.format(field=name, minimum=minimum, got=data)
        )
    if data > maximum:
        raise serializers.ValidationError(msg.TOO_BIG.format(field=name, maximum=maximum, got=data))
    return data


class WholeNumberField(serializers.IntegerField):
    """An integer given as a JSON integer: ``100.0``, ``"100"``, ``true`` are refused."""

    def to_internal_value(self, data) -> int:
        return whole_number(
            self,
            data,
            minimum=self.min_value if self.min_value is not None else 0,
            maximum=self.max_value if self.max_value is not None else MAX_ID,
        )


class VisibleRecordField(serializers.PrimaryKeyRelatedField):
    """A record id, found only among the records the requesting user may see.

    Another holder's record reads exactly like a missing one, so nothing leaks.
    """

    def __init__(self, model, **kwargs) -> None:
        self.kind = getattr(model, "kind", "") or model._meta.verbose_name
        super().__init__(queryset=model.objects.all(), **kwargs)

    def get_queryset(self):
        return policy.visible(self.context["request"].user, super().get_queryset())

    def to_internal_value(self, data):
        number = whole_number(self, data, minimum=1, maximum=MAX_ID)
        record = self.get_queryset().filter(pk=number).first()
        if record is None:
            kind = self.kind.replace("_", " ")
            raise serializers.ValidationError(msg.RECORD_NOT_VISIBLE.format(kind=kind, id=number))
        return record


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
            raise serializers.ValidationError(msg.ODDS_NOT_OBJECT.format(got=describe_value(data)))
        refused = {
            kind: [msg.ODDS_VALUE.format(kind=kind, maximum=MAX_ODDS, got=describe_value(value))]
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
                    msg.WHEEL_UNREADABLE_JSON.format(text=data[:80])
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
