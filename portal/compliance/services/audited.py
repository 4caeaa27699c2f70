"""Writing a compliance record with its audit event, in the caller's transaction.

The event's action is ``<kind>.<verb>``, the verb a step of the records' workflow
(``portal.compliance.workflow``); its before and after are the record's snapshots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from portal.audit.services import audit_record
from portal.audit.snapshot import snapshot
from portal.compliance.models import VersionedRecord

R = TypeVar("R", bound=VersionedRecord)


def save_with_audit(
    record: R,
    *,
    actor,
    verb: str,
    changes: dict[str, Any],
    reason: str = "",
    apply: Callable[[R], None] | None = None,
    noted: dict[str, Any] | None = None,
) -> R:
    """``noted``: what the event records beside the record's own fields (the wagers an
    approval acknowledged at an edge of zero or less, reading:edge-acknowledgement)."""
    before = snapshot(record)
    for field, value in changes.items():
        setattr(record, field, value)
    record.save()
    if apply is not None:
        apply(record)
    after = {**snapshot(record), **(noted or {})}
    if verb == "update" and _content(after) == _content(before):
        return record  # nothing changed: no event (the authors list alone is no change)
    audit_record(
        actor=actor,
        action=f"{record.kind}.{verb}",
        object_type=record.kind,
        object_id=record.pk,
        object_version=record.version,
        before=before,
        after=after,
        reason=reason,
    )
    return record


def _content(picture: dict) -> dict:
    return {key: value for key, value in picture.items() if key != "author_ids"}


def create_with_audit(
    record: R,
    *,
    actor,
    after_save: Callable[[R], None] | None = None,
    verb: str = "create",
    reason: str = "",
) -> R:
    if actor is not None:
        record.author_ids = sorted({*record.author_ids, actor.pk})
    record.save()
    if after_save is not None:
        after_save(record)
    audit_record(
        actor=actor,
        action=f"{record.kind}.{verb}",
        reason=reason,
        object_type=record.kind,
        object_id=record.pk,
        object_version=record.version,
        after=snapshot(record),
    )
    return record
