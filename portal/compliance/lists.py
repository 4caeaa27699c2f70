"""The compliance lists' filters, sorts and CSV columns: layouts, paytables and rules
submissions (one shape, built per kind) and offerings."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import django_filters

from portal.accounts.filters import HolderScopedFilterSet
from portal.compliance.models import Offering, OfferingStatus, RecordStatus, VersionedRecord
from portal.core.lists import (
    Column,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    csv_instant_text,
)
from portal.core.pages import TITLE_FIELDS


@cache
def record_filter(model: type[VersionedRecord]) -> type[django_filters.FilterSet]:
    """Layouts, paytables or rules submissions: search by title (and a layout's Bureau
    reference), holder, status, last change between two Pennsylvania dates; sortable."""
    title = TITLE_FIELDS[model.kind][1]
    searched = (title, "holder__name", *(("reference_number",) if model.kind == "layout" else ()))

    filters = {
        "q": Search(*searched),
        "status": django_filters.ChoiceFilter(
            choices=RecordStatus.choices, empty_label="Any status"
        ),
        "since": PaDateFrom("updated_at", "Changed from (Pennsylvania date)"),
        "until": PaDateTo("updated_at", "Changed to (Pennsylvania date)"),
        "sort": Sort(
            title=title,
            holder="holder__name",
            version="version",
            status="status",
            effective="effective_date",
            expires="expiry_date",
            updated="updated_at",
        ),
    }
    meta = type("Meta", (), {"model": model, "fields": [], "form": PeriodForm})
    return type(f"{model.__name__}Filter", (HolderScopedFilterSet,), {**filters, "Meta": meta})


RECORD_COLUMNS = (
    Column("id", lambda r: r.pk),
    Column("title", lambda r: r.title_for_display),
    Column("holder", lambda r: r.holder.name),
    Column("version", lambda r: r.version),
    Column("status", lambda r: r.status),
    Column("effective_date", lambda r: r.effective_date or ""),
    Column("expiry_date", lambda r: r.expiry_date or ""),
    Column("submitted_by", lambda r: r.submitted_by.username if r.submitted_by else ""),
    Column("submitted_at_utc", lambda r: csv_instant_text(r.submitted_at)),
    Column("updated_at_utc", lambda r: csv_instant_text(r.updated_at)),
)


class OfferingFilter(HolderScopedFilterSet):
    q = Search("name", "holder__name", label="Search by name or holder")
    status = django_filters.ChoiceFilter(choices=OfferingStatus.choices, empty_label="Any status")
    sort = Sort(name="name", holder="holder__name", status="status", updated="updated_at")

    class Meta:
        model = Offering
        fields: list[str] = []


def offering_columns(live: Callable[[Offering], bool]) -> tuple[Column, ...]:
    """The CSV's columns; ``live`` answers for each offering whether it takes bets now."""
    return (
        Column("id", lambda o: o.pk),
        Column("name", lambda o: o.name),
        Column("holder", lambda o: o.holder.name),
        Column("status", lambda o: o.status),
        Column("live", lambda o: "yes" if live(o) else "no"),
        Column("rules_submission", lambda o: str(o.rules_submission)),
        Column("layout", lambda o: str(o.layout)),
        Column("paytable", lambda o: str(o.paytable)),
        Column("updated_at_utc", lambda o: csv_instant_text(o.updated_at)),
    )
