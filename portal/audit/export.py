"""CSV export of the audit trail (§ 811a.7: logs exportable by the regulator), streamed."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator

from django.db.models import QuerySet

from portal.audit.models import AuditEvent

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


class _Echo:
    def write(self, value: str) -> str:
        return value


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    text = str(value)
    # A spreadsheet would run a cell starting with these as a formula (CSV injection).
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def csv_rows(events: QuerySet[AuditEvent] | Iterable[AuditEvent]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield writer.writerow(COLUMNS)
    if isinstance(events, QuerySet):
        events = events.order_by("sequence").iterator(chunk_size=2000)
    for event in events:
        row = [getattr(event, column) for column in COLUMNS]
        row[1] = event.occurred_at.isoformat()
        yield writer.writerow([_cell(value) for value in row])
