"""CSV export of the audit trail (§ 811a.7: logs exportable by the regulator), streamed; its
columns are the trail's list's (``portal.audit.filtersets``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import QuerySet

from portal.audit.chain import in_sequence
from portal.audit.filtersets import AUDIT_COLUMNS
from portal.audit.models import AuditEvent

HEADER = AUDIT_COLUMNS.csv_headers


def csv_rows(
    events: QuerySet[AuditEvent] | Iterable[AuditEvent], *, words: bool = False
) -> Iterator[str]:
    """The events oldest first (a queryset is read in the chain's order); ``words``: the
    header in words, for a page's download."""
    if isinstance(events, QuerySet):
        events = in_sequence(events)
    return AUDIT_COLUMNS.csv_lines(events, words=words)
