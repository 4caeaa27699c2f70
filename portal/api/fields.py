"""Reading request bodies exactly: no unknown fields, no coerced numbers.

These only parse. Whether a value is *legal* is the services' (and ``jinzi``'s) question;
the values are handed to them as given, so their messages, which cite the regulation, are
the ones a client sees. Fields only one app reads live in that app's ``api`` package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.http import QueryDict
from rest_framework import serializers
from rest_framework.fields import empty

from jinzi.errors import describe_value
from portal.access import policy
from portal.api import errors as msg
from portal.core.validation import MAX_ID


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


class AsGiven:
    """Mixed into a field: the body must name it, and the schema documents it as that
    field, but its value is handed on exactly as sent (``null`` included). The service (or
    ``jinzi``) judges it, so its message, citing the rule, is the one a client sees.
    """

    def run_validation(self, data=empty):
        if data is empty:  # not in the body: "This field is required." (or left out)
            return super().run_validation(data)
        return data


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
