"""Reading the game availability log (§ 811a.7(f)): its filters and its CSV, shared by the
portal page and the API. Periods are Pennsylvania dates, both ends included
(reading:pennsylvania-dates)."""

from __future__ import annotations

from collections.abc import Iterator

import django_filters

from portal.compliance.models import AvailabilityChange
from portal.core.csv_export import csv_lines
from portal.core.lists import PaDateFrom, PaDateTo, PeriodForm, Search, Sort

# The instants are exported in UTC, ISO 8601 with their offset; the header says so.
HEADER = (
    "at_utc",
    "holder_id",
    "holder",
    "offering_id",
    "offering",
    "change",
    "cause",
    "reason",
    "recorded_at_utc",
    "audit_sequence",
)


class AvailabilityFilter(django_filters.FilterSet):
    holder = django_filters.NumberFilter(field_name="holder_id")
    offering = django_filters.NumberFilter(field_name="offering_id")
    since = PaDateFrom("at", "From (Pennsylvania date)")
    until = PaDateTo("at", "To (Pennsylvania date)")
    # "true" or "false" and nothing else: a value it cannot read is a 400, never ignored.
    opened = django_filters.TypedChoiceFilter(
        field_name="opened",
        choices=(("true", "opened"), ("false", "closed")),
        coerce=lambda value: value == "true",
    )
    q = Search("offering__name", "holder__name", "reason", label="Search table, holder or reason")
    sort = Sort(at="at", table="offering__name", holder="holder__name", cause="cause")

    class Meta:
        model = AvailabilityChange
        fields = ["holder", "offering", "since", "until", "opened", "q", "sort"]
        form = PeriodForm


def availability_log():
    return AvailabilityChange.objects.select_related("holder", "offering", "audit_event")


def _rows(changes) -> Iterator[list]:
    for change in changes:
        yield [
            change.at.isoformat(),
            change.holder_id,
            change.holder.name,
            change.offering_id,
            change.offering.name,
            "opened" if change.opened else "closed",
            change.cause,
            change.reason,
            change.recorded_at.isoformat(),
            change.audit_event.sequence,
        ]


def csv_rows(changes) -> Iterator[str]:
    return csv_lines(HEADER, _rows(changes.order_by("at", "pk").iterator(chunk_size=2000)))
