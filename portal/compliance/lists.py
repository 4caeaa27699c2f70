"""The compliance lists' filters, sorts and CSV columns: layouts, paytables and rules
submissions (one shape, built per kind), offerings, and a drafter's own submissions."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import django_filters
from django.db.models import QuerySet

from portal.accounts import policy
from portal.accounts.models import CertificateHolder
from portal.accounts.roles import holder_id_of
from portal.compliance.models import Offering, OfferingStatus, RecordStatus, VersionedRecord
from portal.core.lists import Column, PaDateFrom, PaDateTo, PeriodForm, Search, Sort
from portal.core.pages import TITLE_FIELDS


def _visible_holders(request) -> QuerySet:
    return policy.visible(request.user, CertificateHolder.objects.order_by("name"))


class _HolderScoped(django_filters.FilterSet):
    """A list with a holder filter, offered only to those who see more than their own."""

    holder = django_filters.ModelChoiceFilter(
        queryset=_visible_holders, label="Holder", empty_label="Any holder"
    )

    def __init__(self, *args, request=None, **kwargs):
        super().__init__(*args, request=request, **kwargs)
        if request is not None and holder_id_of(request.user) is not None:
            del self.filters["holder"]  # a manager sees one holder: theirs


def _utc(instant) -> str:
    return instant.isoformat() if instant else ""  # stored in UTC; ISO 8601 with its offset


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
    return type(f"{model.__name__}Filter", (_HolderScoped,), {**filters, "Meta": meta})


RECORD_COLUMNS = (
    Column("id", lambda r: r.pk),
    Column("title", lambda r: r.title_for_display),
    Column("holder", lambda r: r.holder.name),
    Column("version", lambda r: r.version),
    Column("status", lambda r: r.status),
    Column("effective_date", lambda r: r.effective_date or ""),
    Column("expiry_date", lambda r: r.expiry_date or ""),
    Column("submitted_by", lambda r: r.submitted_by.username if r.submitted_by else ""),
    Column("submitted_at_utc", lambda r: _utc(r.submitted_at)),
    Column("updated_at_utc", lambda r: _utc(r.updated_at)),
)


class OfferingFilter(_HolderScoped):
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
        Column("updated_at_utc", lambda o: _utc(o.updated_at)),
    )
