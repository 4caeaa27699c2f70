"""The compliance lists, each declared once for its page, its API and its CSV: their columns,
filters and sorts. Layouts, paytables, rules submissions and terms and conditions share one
shape; then offerings, the game availability log (§ 811a.7(f)) and My submissions."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import CharField, F, IntegerField, Q, QuerySet, Value
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from portal.access import policy
from portal.accounts.filtersets import HolderScopedFilterSet
from portal.compliance.models import (
    AvailabilityChange,
    CertificateHolder,
    Layout,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
    TermsAndConditions,
)
from portal.compliance.selectors import offering_is_live
from portal.core.lists import (
    SEARCH_WORDS,
    Column,
    Columns,
    ListFilterSet,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    csv_instant_text,
    instant_column,
)
from portal.core.pages import kind_label, title_field
from portal.core.validation import MAX_ID
from portal.software.installations import identity_name


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.NumberFilter):
    """A whole number id: ``holder=1.5`` is refused, not rounded; so is one no column holds."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


# --- Layouts, paytables, rules submissions, terms and conditions ----------------------------


def record_columns(title: str) -> Columns:
    """A kind's records, ``title`` being the field its title is kept in."""
    return Columns(
        Column("id", value=lambda r: r.pk),
        Column("title", "Title", lambda r: r.title_for_display, sort=title),
        Column("holder", "Holder", lambda r: r.holder.name, sort="holder__name"),
        Column("version", "Version", lambda r: r.version, sort="version"),
        Column("status", "Status", lambda r: r.status, sort="status"),
        Column(
            "effective",
            "Effective",
            lambda r: r.effective_date or "",
            csv="effective_date",
            sort="effective_date",
        ),
        Column(
            "expires",
            "Expires",
            lambda r: r.expiry_date or "",
            csv="expiry_date",
            sort="expiry_date",
        ),
        Column("submitted_by", value=lambda r: r.submitted_by.username if r.submitted_by else ""),
        instant_column("submitted_at_utc", "submitted_at"),
        instant_column("updated", "updated_at", title="Updated", csv="updated_at_utc"),
    )


class RecordFilter(HolderScopedFilterSet):
    """A kind's records. The page: search by title (and a layout's Bureau reference) or
    holder, holder, status, last change between two Pennsylvania dates; sortable. The API:
    status, holder id, series, version."""

    status = django_filters.ChoiceFilter(choices=RecordStatus.choices, empty_label="Any status")
    since = PaDateFrom("updated_at", "Changed from (Pennsylvania date)")
    until = PaDateTo("updated_at", "Changed to (Pennsylvania date)")
    api_holder = IdFilter(field_name="holder_id")
    series = django_filters.UUIDFilter()
    version = IdFilter()

    page_parameters = ("holder", "q", "status", "since", "until", "sort")
    api_parameters = ("status", "holder", "series", "version")

    class Meta:
        fields: list[str] = []
        form = PeriodForm


class LayoutFilter(RecordFilter):
    q = Search("title", "holder__name", "reference_number")
    sort = Sort(record_columns("title"))

    class Meta(RecordFilter.Meta):
        model = Layout


class PaytableFilter(RecordFilter):
    q = Search("name", "holder__name")
    sort = Sort(record_columns("name"))

    class Meta(RecordFilter.Meta):
        model = Paytable


class RulesSubmissionFilter(RecordFilter):
    q = Search("title", "holder__name")
    sort = Sort(record_columns("title"))

    class Meta(RecordFilter.Meta):
        model = RulesSubmission


class TermsFilter(RecordFilter):
    q = Search("title", "holder__name")
    sort = Sort(record_columns("title"))

    class Meta(RecordFilter.Meta):
        model = TermsAndConditions


RECORD_FILTERS: dict[type, type[RecordFilter]] = {
    Layout: LayoutFilter,
    Paytable: PaytableFilter,
    RulesSubmission: RulesSubmissionFilter,
    TermsAndConditions: TermsFilter,
}


# --- Offerings -------------------------------------------------------------------------------

OFFERING_COLUMNS = Columns(
    Column("id", value=lambda o: o.pk),
    Column("name", "Name", lambda o: o.name, sort="name"),
    Column("holder", "Holder", lambda o: o.holder.name, sort="holder__name"),
    Column("status", "Status", lambda o: o.status, sort="status"),
    # Whether it takes bets as the row is written (each reason is on the page).
    Column("live", "Live?", lambda o: "yes" if offering_is_live(o).live else "no"),
    Column("rules_submission", value=lambda o: str(o.rules_submission)),
    Column("layout", value=lambda o: str(o.layout)),
    Column("paytable", value=lambda o: str(o.paytable)),
    Column(
        "updated",
        value=lambda o: csv_instant_text(o.updated_at),
        csv="updated_at_utc",
        sort="updated_at",
    ),
)


class OfferingFilter(HolderScopedFilterSet):
    """Offerings. The page: search by name or holder, holder, status; sortable. The API:
    status, and the ids of the holder, rules submission, layout and paytable."""

    q = Search("name", "holder__name", label="Search by name or holder")
    status = django_filters.ChoiceFilter(choices=OfferingStatus.choices, empty_label="Any status")
    sort = Sort(OFFERING_COLUMNS)
    api_holder = IdFilter(field_name="holder_id")
    rules_submission = IdFilter(field_name="rules_submission_id")
    layout = IdFilter(field_name="layout_id")
    paytable = IdFilter(field_name="paytable_id")

    page_parameters = ("holder", "q", "status", "sort")
    api_parameters = ("status", "holder", "rules_submission", "layout", "paytable")

    class Meta:
        model = Offering
        fields: list[str] = []


# --- The game availability log (§ 811a.7(f)) ------------------------------------------------

# Instants in UTC, ISO 8601 with their offset; the headers say so.
AVAILABILITY_COLUMNS = Columns(
    Column("at", "When", lambda c: c.at.isoformat(), csv="at_utc", sort="at", desc_first=True),
    Column("holder_id", value=lambda c: c.holder_id),
    Column("holder", "Holder", lambda c: c.holder.name, sort="holder__name"),
    Column("offering_id", value=lambda c: c.offering_id),
    Column("table", "Table", lambda c: c.offering.name, csv="offering", sort="offering__name"),
    Column("change", "Change", lambda c: "opened" if c.opened else "closed"),
    Column("cause", "Cause", lambda c: c.cause, sort="cause"),
    Column("reason", "Reason", lambda c: c.reason),
    Column(
        "software",
        "Game software",
        lambda c: identity_name(c.software_identity, c.software_version),
    ),
    Column("software_identity", value=lambda c: c.software_identity, csv="software_digest"),
    Column("recorded_at_utc", value=lambda c: c.recorded_at.isoformat()),
    Column("audit", "Audit event", lambda c: c.audit_event.sequence, csv="audit_sequence"),
    page=("at", "table", "holder", "change", "cause", "reason", "software", "audit"),
)


ANY_CHANGE = "any"
CHANGE_CHOICES = (
    (ANY_CHANGE, "Opened or closed"),
    ("true", "Opened only"),
    ("false", "Closed only"),
)


class _OfferingChoiceField(django_filters.fields.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.name} ({obj.holder.name})"  # two holders may name a table alike


class OfferingChoiceFilter(django_filters.ModelChoiceFilter):
    """A table chosen by its name (and its holder's)."""

    field_class = _OfferingChoiceField


def _visible_holders(request) -> QuerySet:
    return policy.visible(request.user, CertificateHolder.objects.order_by("name"))


def _visible_offerings(request) -> QuerySet:
    offerings = Offering.objects.select_related("holder").order_by("name", "holder__name", "pk")
    return policy.visible(request.user, offerings)


class AvailabilityFilter(ListFilterSet):
    """The log, on its page and in the API alike: by holder and table (the page: chosen by
    name among those the user may see; the API: by id), a period of Pennsylvania dates (both
    ends included, reading:pennsylvania-dates), opened, closed or either (either unless
    asked), a search; sortable."""

    holder = django_filters.ModelChoiceFilter(
        field_name="holder", queryset=_visible_holders, label="Holder", empty_label="Any holder"
    )
    offering = OfferingChoiceFilter(
        field_name="offering", queryset=_visible_offerings, label="Table", empty_label="Any table"
    )
    api_holder = IdFilter(field_name="holder_id")
    api_offering = IdFilter(field_name="offering_id")
    since = PaDateFrom("at", "From (Pennsylvania date)")
    until = PaDateTo("at", "To (Pennsylvania date)")
    # "any", "true" or "false" and nothing else: a value it cannot read is a 400, never
    # ignored. Either kind when not asked.
    opened = django_filters.ChoiceFilter(
        choices=CHANGE_CHOICES, empty_label=None, method="filter_opened", label="Change"
    )
    q = Search("offering__name", "holder__name", "reason", label="Search table, holder or reason")
    sort = Sort(AVAILABILITY_COLUMNS)

    page_parameters = ("holder", "offering", "since", "until", "opened", "q", "sort")
    api_parameters = page_parameters

    class Meta:
        model = AvailabilityChange
        fields: list[str] = []
        form = PeriodForm

    def filter_opened(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if value == ANY_CHANGE:
            return queryset
        return queryset.filter(opened=value == "true")


# --- My submissions --------------------------------------------------------------------------

KINDS = {
    model.kind: model for model in (Layout, Paytable, RulesSubmission, TermsAndConditions, Offering)
}
STATUS_LABELS = {**dict(RecordStatus.choices), **dict(OfferingStatus.choices)}

# A row of My submissions: the columns every kind shares, read in one UNION.
_ROW = ("row_kind", "row_pk", "row_title", "row_version", "row_status", "changed", "holder_name")

MINE_COLUMNS = Columns(
    Column("kind", "Kind", lambda row: row[0], sort="row_kind"),
    Column("id", value=lambda row: row[1]),
    Column("title", "Title", lambda row: row[2], sort="row_title"),
    Column("version", "Version", lambda row: row[3] or "", sort="row_version"),
    Column("status", "Status", lambda row: row[4], sort="row_status"),
    Column(
        "changed",
        "Last change",
        lambda row: csv_instant_text(row[5]),
        csv="changed_at_utc",
        sort="changed",
        desc_first=True,
    ),
    Column("holder", "Holder", lambda row: row[6]),
    page=("kind", "title", "holder", "version", "status", "changed"),
)


class MineFilter(forms.Form):
    """Search, kind, status and sort of My submissions (one UNION: each part filtered
    alike before it, the sort after). A value it cannot read is a 400."""

    q = forms.CharField(required=False, label="Search", widget=forms.TextInput({"type": "search"}))
    kind = forms.ChoiceField(
        required=False,
        choices=[("", "Any kind"), *((kind, kind_label(kind)) for kind in KINDS)],
    )
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *STATUS_LABELS.items()])
    sort = forms.ChoiceField(
        required=False,
        choices=[("", "")]
        + [(f"{d}{key}", key) for key in MINE_COLUMNS.sort_fields for d in ("", "-")],
        widget=forms.HiddenInput,
    )

    def records(self, user) -> QuerySet:
        """``user``'s own as asked, newest change first unless sorted otherwise: one query
        for the kinds asked (every kind by default), paginated in the database."""
        wanted = self.cleaned_data
        search, kind, status, sort = wanted["q"], wanted["kind"], wanted["status"], wanted["sort"]
        authored = Q(created_by=user) | Q(submitted_by=user)
        parts = [
            _rows(user, model, title_field(name), own, search, status)
            for name, model in KINDS.items()
            if kind in ("", name)
            for own in [Q(created_by=user) if model is Offering else authored]
        ]
        records = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
        if sort:
            field = MINE_COLUMNS.sort_fields[sort.lstrip("-")]
            descending = sort.startswith("-")
            return records.order_by(f"-{field}" if descending else field, "row_kind", "-row_pk")
        return records.order_by("-changed", "row_kind", "-row_pk")


def _rows(user, model, title: str, own: Q, search: str, status: str) -> QuerySet:
    """``model`` rows of ``user``'s own, as the columns every kind shares (for one UNION)."""
    version = F("version") if model is not Offering else Value(None, IntegerField())
    rows = policy.visible(user, model.objects.filter(own)).order_by()
    for word in search.split()[:SEARCH_WORDS]:
        rows = rows.filter(**{f"{title}__icontains": word})
    if status:
        rows = rows.filter(status=status)
    return rows.annotate(
        row_kind=Value(model.kind, CharField()),
        row_pk=F("pk"),
        row_title=F(title),
        row_version=version,
        row_status=F("status"),
        changed=F("updated_at"),
        holder_name=F("holder__name"),
    ).values_list(*_ROW)
