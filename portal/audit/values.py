"""How the values of an audit event's before and after show (§ 811a.7): names for the ids of
people and records, dollars for money kept in cents, Pennsylvania time for instants, Yes/No,
codes in words, "—" for nothing; each field labelled, changed ones marked; and the raw
record, as stored, for whoever checks an event against the chain."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass

from portal.audit.labels import MISSING, field_label, path_parts, registry, words
from portal.audit.names import Names
from portal.core.money import MINUS_SIGN, dollars
from portal.core.padates import pa_stamp
from portal.core.pictures import ABSENT, compare


def _leaf(path: str) -> str:
    keys = [part for part in path_parts(path) if isinstance(part, str)]
    return keys[-1] if keys else ""


def _instant(value: str) -> str:
    """A stored instant (ISO 8601, UTC) in Pennsylvania time with its zone
    (reading:pennsylvania-dates)."""
    try:
        instant = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if instant.tzinfo is None:
        return value
    return pa_stamp(instant, seconds=True)


def shown(path: str, value, names: Names) -> str:
    """A value of an event's before or after as people read it: names for ids, dollars for
    money, Pennsylvania time for instants, Yes/No, "—" for nothing."""
    key = _leaf(path)
    if value is None or value is ABSENT or value == "" or value == [] or value == {}:
        return MISSING
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int):
        if registry.holds_person(key):
            return names.person(value)
        if kind := registry.record_kind(key):
            return names.record(kind, value)
        if registry.holds_money(key):
            return dollars(value, minus=MINUS_SIGN)
        return str(value)
    if isinstance(value, str):
        if key.endswith("_at") or key == "at":
            return _instant(value)
        if path.startswith("odds.") or path == "odds":
            return f"{value} to 1"
        if registry.holds_code(key):
            return words(value)
        return value
    if isinstance(value, dict):
        inner = (
            f"{field_label(str(k))}: {shown(f'{path}.{k}' if path else str(k), v, names)}"
            for k, v in value.items()
        )
        return "; ".join(inner)
    if isinstance(value, list):
        return ", ".join(shown(path, item, names) for item in value)
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class FieldChange:
    """One field of an event's before/after: what it is called, each side as shown (None
    where that side does not have it), and whether it changed."""

    path: str  # "status", "odds.split", "games[0].chip_unit": for tests and the raw record
    label: str
    before: str | None
    after: str | None
    changed: bool


def field_changes(before, after, names: Names, *, changed_only: bool = False) -> list[FieldChange]:
    """One row per field of either picture (nested ones by path), in the pictures' order; a
    row is changed when both pictures exist and it differs (or is in one only)."""
    rows = []
    for change in compare(before, after, nested=True):
        if changed_only and not change.changed:
            continue
        was, now = change.before, change.after
        rows.append(
            FieldChange(
                path=change.path,
                label=field_label(change.path),
                before=None if was is ABSENT else shown(change.path, was, names),
                after=None if now is ABSENT else shown(change.path, now, names),
                changed=change.changed,
            )
        )
    return rows


def raw(picture) -> str:
    """A picture as stored, for an auditor's raw record: indented JSON."""
    return json.dumps(picture, ensure_ascii=False, indent=2, sort_keys=True)
