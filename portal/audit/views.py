"""Portal pages for the audit trail (§ 811a.7): browse, export as CSV, verify the chain and
the records beside it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.accounts import policy
from portal.accounts.policy import Action
from portal.audit import chain
from portal.audit.export import csv_rows
from portal.audit.filters import AuditEventFilter, filters_given
from portal.audit.models import AuditEvent
from portal.audit.records import verify_records
from portal.audit.services import audit_trail_exported
from portal.core.csv_export import csv_response
from portal.core.pages import detail_url, domain_errors, paginate

_FILTER_LABELS = {
    "since": ("From (Pennsylvania time)", "datetime-local"),
    "until": ("Before (Pennsylvania time)", "datetime-local"),
    "actor": ("Actor (username)", "text"),
    "action": ("Action starts with", "text"),
    "object_type": ("Object type", "text"),
    "object_id": ("Object id", "text"),
    "request_id": ("Request id", "text"),
}


def _filtered(request: HttpRequest) -> AuditEventFilter:
    """The trail narrowed by the query string; only compliance, auditors and superusers."""
    policy.require(request.user, Action.VIEW_AUDIT)
    events = AuditEventFilter(request.GET, queryset=AuditEvent.objects.order_by("-sequence"))
    for name, (label, input_type) in _FILTER_LABELS.items():
        field = events.form.fields[name]
        field.label, field.widget.input_type = label, input_type
    return events


@login_required
@require_safe
@domain_errors
def event_list(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    valid = events.is_valid()
    page = paginate(request, events.qs if valid else AuditEvent.objects.none())
    rows = [(event, detail_url(event.object_type, event.object_id)) for event in page]
    context = {"filter": events, "page": page, "rows": rows}
    return render(request, "audit/event_list.html", context, status=200 if valid else 400)


@login_required
@require_safe
@domain_errors
def event_export(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    if not events.is_valid():
        context = {"filter": events, "page": None, "rows": []}
        return render(request, "audit/event_list.html", context, status=400)
    if request.method == "GET":  # a HEAD takes no copy
        audit_trail_exported(actor=request.user, filters=filters_given(request.GET), via="page")
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(csv_rows(events.qs), f"audit-trail-{stamp}.csv")


@login_required
@require_safe
@domain_errors
def verify(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.VIEW_AUDIT)
    report = chain.verify_stored()
    return render(request, "audit/verify.html", {"report": report, "at": timezone.now()})


@login_required
@require_safe
@domain_errors
def records(request: HttpRequest) -> HttpResponse:
    """Every compliance record against its audit events, every ledger entry against its
    round or audited top-up, every wallet against its ledger (``verify_records``)."""
    policy.require(request.user, Action.VIEW_AUDIT)
    report = verify_records()
    return render(request, "audit/records.html", {"report": report, "at": timezone.now()})
