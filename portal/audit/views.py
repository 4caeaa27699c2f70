"""Portal pages for the audit trail (§ 811a.7): browse, export as CSV, verify the chain (the
records beside it are checked by ``portal.integrity``, whose page joins these)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

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
from portal.audit.services import audit_trail_exported
from portal.core.csv_export import csv_response
from portal.core.pages import (
    detail_url,
    domain_errors,
    object_name,
    object_titles,
    paginate,
    titled,
)
from portal.core.pictures import ABSENT, compare


def _filtered(request: HttpRequest) -> AuditEventFilter:
    """The trail narrowed by the query string; only compliance, auditors and superusers."""
    policy.require(request.user, Action.VIEW_AUDIT)
    return AuditEventFilter.for_page(request, AuditEvent.objects.order_by("-sequence"))


@login_required
@require_safe
@domain_errors
def event_list(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    valid = events.is_valid()
    page = paginate(request, events.qs if valid else AuditEvent.objects.none())
    rows = list(zip(page, named_objects(page), strict=True))
    context = {"filter": events, "columns": events.columns, "page": page, "rows": rows}
    return render(request, "audit/event_list.html", context, status=200 if valid else 400)


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
    context = {
        "event": event,
        "object": named_objects([event])[0],
        "changes": field_changes(event.before, event.after),
        "compared": event.before is not None and event.after is not None,
        "previous": earlier.values("pk", "sequence").first(),
        "next": later.values("pk", "sequence").first(),
    }
    return render(request, "audit/event_detail.html", context)


@login_required
@require_safe
@domain_errors
def event_export(request: HttpRequest) -> HttpResponse:
    events = _filtered(request)
    if not events.is_valid():
        context = {"filter": events, "columns": events.columns, "page": None, "rows": []}
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


@dataclass(frozen=True)
class NamedObject:
    """An event's object as people name it, and its page if it has one."""

    name: str
    url: str | None


# Kinds without a title of their own whose events picture them with a name.
_PICTURED_NAMES = {"holder": "name", "user": "username", "api_token": "name"}


def named_objects(events: Iterable[AuditEvent]) -> list[NamedObject]:
    """The objects of ``events``, in order, named by their titles: one query per kind of
    titled record among them ("Layout “Main floor” v2"), none for the rest."""
    events = list(events)
    titles = object_titles((event.object_type, event.object_id) for event in events)
    return [_named(event, titles) for event in events]


def _named(event: AuditEvent, titles: dict[tuple[str, str], str]) -> NamedObject:
    kind, pk = event.object_type, event.object_id
    title = titles.get((kind, pk), "")
    if titled(kind):
        url = detail_url(kind, pk) if title else None  # a record no longer there has no page
    else:
        title, url = _pictured_name(event), detail_url(kind, pk)
    return NamedObject(object_name(kind, pk, title=title, version=event.object_version), url)


def _pictured_name(event: AuditEvent) -> str:
    key = _PICTURED_NAMES.get(event.object_type)
    for picture in (event.after, event.before):
        if key and isinstance(picture, dict) and isinstance(picture.get(key), str):
            return picture[key]
    return ""


@dataclass(frozen=True)
class FieldChange:
    """One field of an event's before/after: each side as shown, None where absent."""

    field: str
    before: str | None
    after: str | None
    changed: bool


def field_changes(before, after) -> list[FieldChange]:
    """One row per field in either picture, in the pictures' order. A row is changed when
    both pictures exist and the field differs (or is in one only)."""
    return [
        FieldChange(
            field=change.path,
            before=None if change.before is ABSENT else _shown(change.before),
            after=None if change.after is ABSENT else _shown(change.after),
            changed=change.changed,
        )
        for change in compare(before, after)
    ]


def _shown(value) -> str:
    """Text as it is; anything else (numbers, true/false, null, nested objects and lists) as
    compact JSON."""
    if isinstance(value, str) and value:
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
