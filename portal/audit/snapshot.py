"""JSON-safe pictures of a model row, for an audit event's before/after."""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models.fields.files import FieldFile


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, uuid.UUID | Decimal):
        return str(value)
    if isinstance(value, FieldFile):
        return value.name or ""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, float):
        raise TypeError("floats have no place in an audit record; store minor units or strings")
    return str(value)


def snapshot(instance: models.Model, *, exclude: tuple[str, ...] = ("updated_at",)) -> dict:
    data = {}
    for field in instance._meta.concrete_fields:
        if field.name in exclude:
            continue
        data[field.attname] = _plain(getattr(instance, field.attname))
    extra = getattr(instance, "audit_extra", None)
    if extra is not None:
        data.update(_plain(extra()))
    return data
