"""What every list page shares: a search box, sortable columns, filters that refuse what they
cannot read, pagination and a CSV export of everything the filters select.

A list is a django-filter ``FilterSet`` with a ``Search`` (``?q=``) and a ``Sort``
(``?sort=key`` or ``-key``) among its filters, and its CSV columns; the view calls
``filtered_page`` and, when ``wants_csv``, ``csv_download``. Column headers link to their sort
with ``{% sort_header %}`` (``core.templatetags.lists``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import django_filters
from django import forms
from django.core.paginator import Page
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone

from portal.core.csv_export import csv_lines, csv_response
from portal.core.padates import day_starts
from portal.core.pages import paginate

SEARCH_WORDS = 8  # more words than this are ignored: each is one more condition


class Search(django_filters.CharFilter):
    """``?q=``: every word must appear (any case) in one of ``fields``."""

    def __init__(self, *fields: str, label: str = "Search", **kwargs) -> None:
        kwargs.setdefault("widget", forms.TextInput({"type": "search"}))
        super().__init__(label=label, **kwargs)
        self.search_fields = fields

    def filter(self, qs: QuerySet, value: str) -> QuerySet:
        for word in (value or "").split()[:SEARCH_WORDS]:
            any_field = Q()
            for field in self.search_fields:
                any_field |= Q(**{f"{field}__icontains": word})
            qs = qs.filter(any_field)
        return qs


class Sort(django_filters.OrderingFilter):
    """``?sort=key`` ascending, ``-key`` descending, over the given columns only (anything else
    is a 400); blanks last; ties broken by the primary key so that pages never overlap.
    Without a sort the queryset keeps its own order."""

    def __init__(self, **columns: str) -> None:
        pairs = tuple((field, key) for key, field in columns.items())
        super().__init__(fields=pairs, widget=forms.HiddenInput)

    def filter(self, qs: QuerySet, value) -> QuerySet:
        params = [param for param in value or () if param]
        if not params:
            return qs
        names = [self.get_ordering_value(param) for param in params]
        descending = names[-1].startswith("-")
        return qs.order_by(*map(_blanks_last, names), "-pk" if descending else "pk")


def _blanks_last(name: str):
    """Blank values last both ways, as PostgreSQL and SQLite would otherwise disagree."""
    if name.startswith("-"):
        return F(name[1:]).desc(nulls_last=True)
    return F(name).asc(nulls_last=True)


class _PaDateBound(django_filters.DateFilter):
    """Instants in ``field_name`` against the start of a Pennsylvania date
    (reading:pennsylvania-dates), ``days`` after the one given."""

    lookup = ""
    days = 0

    def __init__(self, field_name: str, label: str) -> None:
        widget = forms.DateInput({"type": "date"})
        super().__init__(field_name=field_name, label=label, widget=widget)

    def filter(self, qs: QuerySet, value: datetime.date | None) -> QuerySet:
        if value is None:
            return qs
        start = day_starts(value + datetime.timedelta(days=self.days))
        return qs.filter(**{f"{self.field_name}__{self.lookup}": start})


class PaDateFrom(_PaDateBound):
    """From the start of this Pennsylvania date."""

    lookup = "gte"


class PaDateTo(_PaDateBound):
    """Up to the end of this Pennsylvania date, the date included."""

    lookup, days = "lt", 1


class PeriodForm(forms.Form):
    """A filter form whose ``since``/``until`` dates must be readable and in order."""

    def clean(self):
        cleaned = super().clean()
        for name in ("since", "until"):
            day = cleaned.get(name)
            if day is not None and not 1900 <= day.year <= 9998:
                self.add_error(name, "Enter a date between the years 1900 and 9998.")
        since, until = cleaned.get("since"), cleaned.get("until")
        if since is not None and until is not None and since > until:
            self.add_error("until", "The period ends before it starts.")
        return cleaned


def filtered_page(request: HttpRequest, listing: django_filters.FilterSet) -> tuple[Page, int]:
    """The page the request asks for, and the status to answer: 400 (and no rows) when a
    filter, the search or the sort cannot be read."""
    if listing.is_valid():
        return paginate(request, listing.qs), 200
    return paginate(request, listing.queryset.none()), 400


@dataclass(frozen=True)
class Column:
    """One CSV column: its header and how a row gives its cell."""

    header: str
    value: Callable[[Any], Any]


def csv_instant_text(instant: datetime.datetime | None) -> str:
    """An instant for a CSV: stored in UTC, written ISO 8601 with its offset; blank if none.
    Not the hashed form (``hashing.hashed_instant_text``): this one may change its look."""
    return instant.isoformat() if instant else ""


def wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("export") == "csv"


def csv_download(rows: QuerySet, columns: Sequence[Column], stem: str) -> StreamingHttpResponse:
    """Every row of ``rows`` (what a list's valid filters select, in its order), read in
    chunks, as ``<stem>-<time>.csv``."""
    rows = rows.iterator(chunk_size=1000)
    lines = csv_lines(
        [column.header for column in columns],
        ([column.value(row) for column in columns] for row in rows),
    )
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(lines, f"{stem}-{stamp}.csv")
