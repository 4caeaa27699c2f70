"""My submissions: the records a drafter created or submitted, and the offerings they set
up, newest change first, each with its status."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import CharField, F, IntegerField, Q, QuerySet, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.accounts import policy
from portal.accounts.policy import Action
from portal.compliance.models import (
    Layout,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
)
from portal.core.pages import detail_url, domain_errors, kind_label, paginate

STATUS_LABELS = {**dict(RecordStatus.choices), **dict(OfferingStatus.choices)}
COLUMNS = ("row_kind", "row_pk", "row_title", "row_version", "row_status", "changed", "holder_name")


def _rows(user, model, title: str, own: Q) -> QuerySet:
    """``model`` rows of ``user``'s own, as the columns every kind shares (for one UNION)."""
    version = F("version") if model is not Offering else Value(None, IntegerField())
    rows = policy.visible(user, model.objects.filter(own)).order_by()
    return rows.annotate(
        row_kind=Value(model.kind, CharField()),
        row_pk=F("pk"),
        row_title=F(title),
        row_version=version,
        row_status=F("status"),
        changed=F("updated_at"),
        holder_name=F("holder__name"),
    ).values_list(*COLUMNS)


def my_records(user) -> QuerySet:
    """One query for all four kinds, newest change first; paginated in the database."""
    authored = Q(created_by=user) | Q(submitted_by=user)
    parts = [
        _rows(user, Layout, "title", authored),
        _rows(user, Paytable, "name", authored),
        _rows(user, RulesSubmission, "title", authored),
        _rows(user, Offering, "name", Q(created_by=user)),
    ]
    return parts[0].union(*parts[1:], all=True).order_by("-changed", "row_kind", "-row_pk")


@login_required
@require_safe
@domain_errors
def my_submissions(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    page = paginate(request, my_records(request.user))
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
    context = {"page": page, "rows": rows, "show_holder": request.user.is_superuser}
    return render(request, "compliance/mine.html", context)
