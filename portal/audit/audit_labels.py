"""The audit trail's words for what the audit app itself writes (a copy of the trail taken),
for the fields every app's records share (their number, who created them, when), and how
the trail names a copy of itself."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.labels import LoadedNames, PicturedObject
from portal.audit.services import EXPORTED

# After every app's actions in the trail's filter.
ORDER = 90


def _the_trail(trail: PicturedObject, names: LoadedNames) -> str:
    return f"The audit trail, up to event #{trail.pk}"


def register() -> None:
    labels.register_actions({EXPORTED: "Audit trail exported"}, order=ORDER)
    labels.register_object_kinds(["audit_trail"])
    labels.register_object_namer("audit_trail", _the_trail)
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
