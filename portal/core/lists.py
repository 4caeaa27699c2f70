"""What every list shares: its columns, a search box, sortable columns, filters that refuse
what they cannot read, pagination and a CSV export of everything the filters select.

A list declares its columns once (``Columns``): each column's title on the page, its cell in
the CSV and what it sorts by. Its filters are a ``ListFilterSet`` with a ``Search``
(``?q=``) and a ``Sort`` over those columns (``?sort=key`` or ``-key``); the page's headers
are drawn from the same declaration (``{% column_headers %}``, ``core.templatetags.lists``).
The view calls ``filtered_page`` and, when ``wants_csv``, ``csv_download``."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

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


@dataclass(frozen=True)
class Column:
    """One column of a list, declared once.

    ``name`` is its key: ``?sort=<name>`` when it sorts, and how a list picks it. ``title``
    is its header on the page (none: the page does not show it). ``value`` gives its cell in
    the CSV from a row (none: the CSV has no such column), under ``csv`` (default: its
    name). ``sort`` is the field the list sorts by for it (none: it does not sort); a
    header's first click sorts ascending, or descending with ``desc_first`` (the newest,
    the most first). ``css`` is the header's class; ``title_hidden`` says the title to
    screen readers only (a column of links named by each row)."""

    name: str
    title: str = ""
    value: Callable[[Any], Any] | None = None
    csv: str = ""
    sort: str = ""
    desc_first: bool = False
    css: str = ""
    title_hidden: bool = False

    @property
    def csv_header(self) -> str:
        return self.csv or self.name


def instant_column(name: str, field: str, *, title: str = "", csv: str = "") -> Column:
    """A column of an instant: in the CSV in UTC (ISO 8601); on the page, when it has a
    title, sorted by ``field``, newest first."""
    return Column(
        name,
        title,
        lambda row: csv_instant_text(getattr(row, field)),
        csv=csv,
        sort=field if title else "",
        desc_first=True,
    )


class Columns:
    """A list's columns: the CSV's are those with a value, in the order declared; the page's
    are those with a title, in the order declared unless ``page`` names them in another;
    the sorts are the columns that sort. Lists of the same rows share one declaration, each
    ``showing`` its own columns."""

    def __init__(self, *columns: Column, page: Sequence[str] | None = None) -> None:
        self.columns = columns
        self._by_name = {column.name: column for column in columns}
        if len(self._by_name) != len(columns):
            raise ValueError("two columns share a name")
        shown = (self[name] for name in page) if page is not None else columns
        self.page = tuple(column for column in shown if column.title)
        self.csv = tuple(column for column in columns if column.value is not None)
        self.sortable = tuple(column for column in columns if column.sort)

    def __getitem__(self, name: str) -> Column:
        return self._by_name[name]

    def __deepcopy__(self, memo) -> Columns:
        return self  # a declaration: never changed (each filter set copies its filters)

    def showing(self, *names: str) -> Columns:
        """The same columns, the page showing (and sorting by) only ``names``, in that
        order; the CSV keeps them all."""
        for name in names:
            self[name]  # a KeyError for a name no column has
        columns = (c if c.name in names else replace(c, title="", sort="") for c in self.columns)
        return Columns(*columns, page=names)

    def hiding(self, *names: str) -> Columns:
        """The same columns, the page leaving out ``names`` (a column one reader may not see)."""
        return Columns(*self.columns, page=[c.name for c in self.page if c.name not in names])

    @property
    def sort_fields(self) -> dict[str, str]:
        """Each ``?sort=`` key and the field it sorts by."""
        return {column.name: column.sort for column in self.sortable}

    @property
    def csv_headers(self) -> tuple[str, ...]:
        return tuple(column.csv_header for column in self.csv)

    def csv_lines(self, rows: Iterable[Any], *, words: bool = False) -> Iterator[str]:
        """The CSV's header line (in words for a page's download), then one line per row,
        each cell made safe."""
        cells = ([column.value(row) for column in self.csv] for row in rows)
        return csv_lines(self.csv_headers, cells, words=words)


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
            qs = qs.filter(any_field | self.shown_as(word))
        return qs

    def shown_as(self, word: str) -> Q:
        """What else ``word`` finds: a subclass matches the words a list shows for a stored
        code (an action's label for its name). Nothing more here."""
        return Q(pk__in=[])


class Sort(django_filters.OrderingFilter):
    """``?sort=key`` ascending, ``-key`` descending, over the columns that sort only
    (anything else is a 400); blanks last; ties broken by the primary key so that pages
    never overlap. Without a sort the queryset keeps its own order."""

    def __init__(self, columns: Columns) -> None:
        self.columns = columns
        pairs = tuple((column.sort, column.name) for column in columns.sortable)
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


_API = "api_"


def _reading(every: dict, names: Sequence[str] | None, *, api: bool) -> dict:
    """The filters the page (or the API) reads, by parameter name."""
    if names is None:
        return {name: f for name, f in every.items() if not name.startswith(_API)}
    if api:
        return {name: every.get(_API + name) or every[name] for name in names}
    return {name: every[name] for name in names}


class ListFilterSet(django_filters.FilterSet):
    """A list's filters, for its page and its API at once.

    Both read every filter declared, unless ``page_parameters`` and ``api_parameters`` name
    what each reads (the page's in the order its form shows them). A parameter both read,
    but with different meanings, has the API's reading declared as ``api_<name>``. The
    class's own filters (``base_filters``: what the API's filter backend reads and what its
    schema publishes) are the API's; ``for_page`` reads a page's query."""

    page_parameters: ClassVar[tuple[str, ...] | None] = None
    api_parameters: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None, page=False):
        super().__init__(data, queryset, request=request, prefix=prefix)
        self.on_page = page
        if page:
            every = super(ListFilterSet, type(self)).get_filters()
            self.filters = copy.deepcopy(_reading(every, self.page_parameters, api=False))
            for filter_ in self.filters.values():
                filter_.model, filter_.parent = self.queryset.model, self

    @classmethod
    def for_page(cls, request: HttpRequest, queryset: QuerySet) -> ListFilterSet:
        return cls(request.GET, queryset=queryset, request=request, page=True)

    @classmethod
    def get_filters(cls):
        return _reading(super().get_filters(), cls.api_parameters, api=True)

    @property
    def columns(self) -> Columns | None:
        """The list's columns: the declaration its sort is drawn from."""
        sort = type(self).declared_filters.get("sort")
        return sort.columns if isinstance(sort, Sort) else None


def filtered_page(request: HttpRequest, listing: django_filters.FilterSet) -> tuple[Page, int]:
    """The page the request asks for, and the status to answer: 400 (and no rows) when a
    filter, the search or the sort cannot be read."""
    if listing.is_valid():
        return paginate(request, listing.qs), 200
    return paginate(request, listing.queryset.none()), 400


def csv_instant_text(instant: datetime.datetime | None) -> str:
    """An instant for a CSV: stored in UTC, written ISO 8601 with its offset; blank if none.
    Not the hashed form (``hashing.hashed_instant_text``): this one may change its look."""
    return instant.isoformat() if instant else ""


def wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("export") == "csv"


def csv_download(rows: QuerySet, columns: Columns, stem: str) -> StreamingHttpResponse:
    """Every row of ``rows`` (what a list's valid filters select, in its order), read in
    chunks, as ``<stem>-<time>.csv`` with the list's CSV columns."""
    lines = columns.csv_lines(rows.iterator(chunk_size=1000), words=True)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(lines, f"{stem}-{stamp}.csv")
