"""The game availability log as a page and a CSV (§ 811a.7(f)): compliance and auditors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.compliance.availability import availability_log, csv_rows
from portal.compliance.filtersets import AvailabilityFilter
from portal.core.csv_export import csv_response
from portal.core.lists import filtered_page
from portal.core.pages import domain_errors


def _filtered(request: HttpRequest) -> AvailabilityFilter:
    policy.require(request.user, Action.VIEW_AUDIT)
    return AvailabilityFilter.for_page(request, availability_log().order_by("-at", "-pk"))


@login_required
@require_safe
@domain_errors
def availability_list(request: HttpRequest) -> HttpResponse:
    changes = _filtered(request)
    page, status = filtered_page(request, changes)
    context = {"filter": changes, "page": page, "columns": changes.columns}
    return render(request, "compliance/availability.html", context, status=status)


@login_required
@require_safe
@domain_errors
def availability_export(request: HttpRequest) -> HttpResponse:
    changes = _filtered(request)
    if not changes.is_valid():
        context = {"filter": changes, "page": None, "columns": changes.columns}
        return render(request, "compliance/availability.html", context, status=400)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(csv_rows(changes.qs, words=True), f"availability-log-{stamp}.csv")
