"""CSV export of the audit trail (§ 811a.7: logs exportable by the regulator), streamed."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import QuerySet

from portal.audit.chain import in_sequence
from portal.audit.models import AuditEvent
from portal.core.csv_export import csv_lines

COLUMNS = (
    "sequence",
    "occurred_at",
    "actor_username",
    "action",
    "object_type",
    "object_id",
    "object_version",
    "reason",
    "request_id",
    "before",
    "after",
    "prev_hash",
    "hash",
)


# The header names the zone of the one time column: instants are exported in UTC, ISO 8601
# with their offset (reading:pennsylvania-dates).
HEADER = tuple("occurred_at_utc" if column == "occurred_at" else column for column in COLUMNS)


def _rows(events: Iterable[AuditEvent]) -> Iterator[list]:
    for event in events:
        row = [getattr(event, column) for column in COLUMNS]
        row[1] = event.occurred_at.isoformat()
        yield row


def csv_rows(events: QuerySet[AuditEvent] | Iterable[AuditEvent]) -> Iterator[str]:
    if isinstance(events, QuerySet):
        events = in_sequence(events)
    return csv_lines(HEADER, _rows(events))
