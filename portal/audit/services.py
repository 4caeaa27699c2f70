"""The one way to write an audit event. Called inside the service's own transaction."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from portal.audit.chain import event_digest
from portal.audit.models import GENESIS_HASH, AuditEvent, AuditHead
from portal.core.request_context import current_request_id

# Any constant will do; it only has to be the same for every writer of the chain.
_CHAIN_LOCK_KEY = 617_0811_7


def lock_chain() -> None:
    """Serialise appends so two writers never fork the chain.

    PostgreSQL: a transaction-scoped advisory lock. SQLite: transactions are
    IMMEDIATE (see settings), so the writer already holds the database lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_CHAIN_LOCK_KEY])


def audit_record(
    *,
    actor,
    action: str,
    object_type: str,
    object_id: Any,
    object_version: int | None = None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
    request_id: str | None = None,
    actor_name: str = "system",
) -> AuditEvent:
    """Append one event. ``actor`` None is the system (a job, set-up), or with ``actor_name``
    someone not signed in (a failed sign-in is recorded as ``"anonymous"``)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the service's transaction")
    lock_chain()
    last = AuditEvent.objects.order_by("-sequence").values_list("sequence", "hash").first()
    sequence, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS_HASH)
    fields = {
        "sequence": sequence,
        "occurred_at": timezone.now(),
        "actor_id": actor.pk if actor is not None else None,
        "actor_username": actor.get_username() if actor is not None else actor_name,
        "action": str(action),
        "object_type": object_type,
        "object_id": str(object_id),
        "object_version": object_version,
        "before": before,
        "after": after,
        "reason": reason,
        "request_id": request_id if request_id is not None else current_request_id(),
        "prev_hash": prev_hash,
    }
    event = AuditEvent.objects.create(hash=event_digest(fields), **fields)
    head = {"sequence": sequence, "hash": event.hash}
    if not AuditHead.objects.filter(pk=1).update(**head):
        AuditHead.objects.create(pk=1, **head)
    return event


EXPORTED = "audit_trail.export"


def audit_trail_exported(*, actor, filters: dict[str, str], via: str) -> AuditEvent:
    """Record that ``actor`` took a copy of the trail: which part (the filters as given,
    blank ones left out), by which door (``"page"`` or ``"api"``), and the trail's last event
    at that moment (as the object id).

    Its own transaction, before the export streams, so the copy includes this event when
    the filters match it, and no copy leaves without a trace.
    """
    with transaction.atomic():
        lock_chain()
        head = AuditEvent.objects.order_by("-sequence").values_list("sequence", flat=True).first()
        return audit_record(
            actor=actor,
            action=EXPORTED,
            object_type="audit_trail",
            object_id=head or 0,
            after={
                "filters": {name: value for name, value in filters.items() if value},
                "via": via,
                "format": "csv",
            },
        )
