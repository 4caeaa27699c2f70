"""Portal pages for the audit trail (§ 811a.7): browse, export as CSV, verify the chain (the
records beside it are checked by ``portal.integrity``, whose page joins these)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.audit import chain
from portal.audit.export import csv_rows
from portal.audit.filtersets import AuditEventFilter, filters_given
from portal.audit.models import AuditEvent
from portal.audit.presenters import (
    action_label,
    actor_name,
    field_changes,
    load_names,
    object_of,
    raw,
    trail_rows,
)
from portal.audit.services import audit_trail_exported
from portal.core.csv_export import csv_response
from portal.core.lists import filtered_page
from portal.core.pages import domain_errors, object_name
from portal.core.replica import reads_from_replica


def _filtered(request: HttpRequest) -> AuditEventFilter:
    """The trail narrowed by the query string; only compliance, auditors and superusers."""
    policy.require(request.user, Action.VIEW_AUDIT)
    return AuditEventFilter.for_page(request, AuditEvent.objects.order_by("-sequence"))


@login_required
@require_safe
@domain_errors
@reads_from_replica
def event_list(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    page, status = filtered_page(request, events)
    context = {
        "filter": events,
        "columns": events.columns,
        "page": page,
        "rows": trail_rows(page),
        "showing": _showing(events) if status == 200 else None,
    }
    return render(request, "audit/event_list.html", context, status=status)


def _showing(events: AuditEventFilter) -> str | None:
    """The object the list is narrowed to (from an event's "every event of it" link), by
    name: two queries more, only then."""
    wanted = events.form.cleaned_data
    kind, pk = wanted.get("object_type"), wanted.get("object_id")
    if not kind or not pk:
        return None
    latest = AuditEvent.objects.filter(object_type=kind, object_id=pk).order_by("-sequence")
    event = latest.first()
    if event is None:
        return object_name(kind, pk)
    return object_of(event, load_names([event], pictures=False)).name


@login_required
@require_safe
@domain_errors
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One event whole: who did what to which object, why, its place in the chain, and its
    before and after side by side."""
    policy.require(request.user, Action.VIEW_AUDIT)
    event = get_object_or_404(AuditEvent, pk=pk)
    earlier = AuditEvent.objects.filter(sequence__lt=event.sequence).order_by("-sequence")
    later = AuditEvent.objects.filter(sequence__gt=event.sequence).order_by("sequence")
    names = load_names([event])
    context = {
        "event": event,
        "actor": actor_name(event, names),
        "action": action_label(event.action),
        "object": object_of(event, names),
        "changes": field_changes(event.before, event.after, names),
        "compared": event.before is not None and event.after is not None,
        "raw_before": raw(event.before),
        "raw_after": raw(event.after),
        "previous": earlier.values("pk", "sequence").first(),
        "next": later.values("pk", "sequence").first(),
    }
    return render(request, "audit/event_detail.html", context)


@login_required
@require_safe
@domain_errors
@reads_from_replica
def event_export(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    if not events.is_valid():
        context = {"filter": events, "columns": events.columns, "page": None, "rows": []}
        return render(request, "audit/event_list.html", context, status=400)
    if request.method == "GET":  # a HEAD takes no copy
        audit_trail_exported(actor=request.user, filters=filters_given(request.GET), via="page")
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(csv_rows(events.qs, words=True), f"audit-trail-{stamp}.csv")


@login_required
@require_safe
@domain_errors
def verify(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.VIEW_AUDIT)
    report = chain.verify_stored()
    return render(request, "audit/verify.html", {"report": report, "at": timezone.now()})
