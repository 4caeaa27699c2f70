"""The Software Installation/Removal Log (§ 811a.7(e)) as a page and a CSV: auditors and
compliance officers."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.core.csv_export import csv_response
from portal.core.lists import filtered_page
from portal.core.pages import domain_errors
from portal.software.installations import InstallationFilter, csv_rows, installation_log

TEMPLATE = "software/installations.html"


def _filtered(request: HttpRequest) -> InstallationFilter:
    policy.require(request.user, Action.VIEW_AUDIT)
    return InstallationFilter.for_page(request, installation_log())


@login_required
@require_safe
@domain_errors
def installation_list(request: HttpRequest) -> HttpResponse:
    entries = _filtered(request)
    page, status = filtered_page(request, entries)
    context = {"filter": entries, "page": page, "columns": entries.columns}
    return render(request, TEMPLATE, context, status=status)


@login_required
@require_safe
@domain_errors
def installation_export(request: HttpRequest) -> HttpResponse:
    entries = _filtered(request)
    if not entries.is_valid():
        context = {"filter": entries, "page": None, "columns": entries.columns}
        return render(request, TEMPLATE, context, status=400)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    return csv_response(csv_rows(entries.qs, words=True), f"software-installations-{stamp}.csv")
