"""Before and after: the pictures of a record an audit event keeps (JSON), compared.

One home for the comparison that the audit event's page (its fields side by side) and a
record's history (each changed value, nested ones by path) both show.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

ABSENT = object()  # the value of a path a picture does not have
WHOLE_VALUE = "(value)"  # the path of a picture that is not an object


@dataclass(frozen=True)
class Change:
    path: str  # "status", "odds.straight", "games[0].chip_unit"
    before: object  # ABSENT where the before picture has no such path
    after: object
    changed: bool


def flatten(picture, prefix: str = "") -> dict[str, object]:
    """A picture's values by path: objects, and lists of objects, open up; other lists stay
    whole."""
    if isinstance(picture, dict):
        flat: dict[str, object] = {}
        for key, value in picture.items():
            flat.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(picture, list) and any(isinstance(item, dict) for item in picture):
        flat = {}
        for index, item in enumerate(picture):
            flat.update(flatten(item, f"{prefix}[{index}]"))
        return flat
    return {prefix or WHOLE_VALUE: picture}


def _fields(picture) -> dict:
    if picture is None:
        return {}
    return picture if isinstance(picture, dict) else {WHOLE_VALUE: picture}


def canonical(value) -> str:
    """The value as sorted JSON, so that equal values compare equal whatever their order."""
    if value is ABSENT:
        return ""
    return json.dumps(value, sort_keys=True)  # never "" (an empty string dumps as '""')


def compare(before, after, *, nested: bool = False) -> list[Change]:
    """Every path of either picture, in the order they first appear (the before picture's
    first); ``nested``: objects inside open up into paths. A path is changed when both
    pictures exist and its value differs, or is in one of them only."""
    read = flatten if nested else _fields
    old = read(before) if before is not None else {}
    new = read(after) if after is not None else {}
    compared = before is not None and after is not None
    rows = []
    for path in dict.fromkeys([*old, *new]):
        was, now = old.get(path, ABSENT), new.get(path, ABSENT)
        rows.append(Change(path, was, now, compared and canonical(was) != canonical(now)))
    return rows
