"""My submissions: the records a drafter created or submitted, and the offerings they set
up, newest change first, each with its status."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import CharField, F, IntegerField, Q, QuerySet, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.compliance.models import (
    Layout,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
)
from portal.core.lists import SEARCH_WORDS, Column, csv_download, csv_instant_text, wants_csv
from portal.core.pages import TITLE_FIELDS, detail_url, domain_errors, kind_label, paginate

STATUS_LABELS = {**dict(RecordStatus.choices), **dict(OfferingStatus.choices)}
COLUMNS = ("row_kind", "row_pk", "row_title", "row_version", "row_status", "changed", "holder_name")


KINDS = {model.kind: model for model in (Layout, Paytable, RulesSubmission, Offering)}
SORTS = {
    "kind": "row_kind",
    "title": "row_title",
    "version": "row_version",
    "status": "row_status",
    "changed": "changed",
}


class MineFilterForm(forms.Form):
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
        choices=[("", "")] + [(f"{d}{key}", key) for key in SORTS for d in ("", "-")],
        widget=forms.HiddenInput,
    )


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
    ).values_list(*COLUMNS)


def my_records(user, *, search: str = "", kind: str = "", status: str = "", sort: str = ""):
    """One query for the kinds asked (all four by default), newest change first unless
    ``sort`` says otherwise; paginated in the database."""
    authored = Q(created_by=user) | Q(submitted_by=user)
    parts = [
        _rows(user, model, TITLE_FIELDS[name][1], own, search, status)
        for name, model in KINDS.items()
        if kind in ("", name)
        for own in [Q(created_by=user) if model is Offering else authored]
    ]
    records = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    if sort:
        field = SORTS[sort.lstrip("-")]
        descending = sort.startswith("-")
        return records.order_by(f"-{field}" if descending else field, "row_kind", "-row_pk")
    return records.order_by("-changed", "row_kind", "-row_pk")


CSV_COLUMNS = (
    Column("kind", lambda row: row[0]),
    Column("id", lambda row: row[1]),
    Column("title", lambda row: row[2]),
    Column("version", lambda row: row[3] or ""),
    Column("status", lambda row: row[4]),
    Column("changed_at_utc", lambda row: csv_instant_text(row[5])),
    Column("holder", lambda row: row[6]),
)


@login_required
@require_safe
@domain_errors
def my_submissions(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    form = MineFilterForm(request.GET)
    if not form.is_valid():
        context = {"filter": {"form": form}, "page": paginate(request, []), "rows": []}
        return render(request, "compliance/mine.html", context, status=400)
    wanted = form.cleaned_data
    records = my_records(
        request.user,
        search=wanted["q"],
        kind=wanted["kind"],
        status=wanted["status"],
        sort=wanted["sort"],
    )
    if wants_csv(request):
        return csv_download(records, CSV_COLUMNS, "my-submissions")
    page = paginate(request, records)
    rows = [
        {
            "kind": kind_label(kind),
            "url": detail_url(kind, pk),
            "title": title,
            "version": version,
            "status": status,
            "status_label": STATUS_LABELS.get(status, status),
            "changed": changed,
            "holder": holder,
        }
        for kind, pk, title, version, status, changed, holder in page
    ]
    context = {
        "filter": {"form": form},
        "page": page,
        "rows": rows,
        "show_holder": request.user.is_superuser,
    }
    return render(request, "compliance/mine.html", context)
