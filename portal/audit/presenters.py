"""How the audit trail reads (§ 811a.7), for the trail's pages and a record's History tab
alike: what each action and field is called (``labels``, filled by the apps that write
them), the people and records an event names, by their names (``names``), and how each
value of its before and after shows (``values``). Nothing here shows a raw code."""

from __future__ import annotations

from portal.audit.labels import ACTION_LABELS, action_label, field_label
from portal.audit.names import (
    NamedObject,
    Names,
    actor_name,
    load_names,
    object_of,
    trail_rows,
)
from portal.audit.values import FieldChange, field_changes, raw, shown

__all__ = [
    "ACTION_LABELS",
    "FieldChange",
    "NamedObject",
    "Names",
    "action_label",
    "actor_name",
    "field_changes",
    "field_label",
    "load_names",
    "object_of",
    "raw",
    "shown",
    "trail_rows",
]
