"""The audit trail's words for what the audit app itself writes (a copy of the trail taken),
and for the fields every app's records share (their number, who created them, when)."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.services import EXPORTED

# After every app's actions in the trail's filter.
ORDER = 90


def register() -> None:
    labels.register_actions({EXPORTED: "Audit trail exported"}, order=ORDER)
    labels.register_object_kinds(["audit_trail"])
    labels.register_fields(
        {
            "id": "Number",
            "created_by_id": "Created by",
            "created_at": "Created",
            "updated_at": "Last changed",
            "via": "Taken through",
        },
        codes=("status", "kind", "via"),
        people=("created_by_id",),
    )
