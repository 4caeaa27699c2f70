"""The records check as a page (§ 811a.7, § 810a.11), beside the audit chain's."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.core.pages import domain_errors
from portal.integrity.records import verify_records


@login_required
@require_safe
@domain_errors
def records(request: HttpRequest) -> HttpResponse:
    """Every compliance record against its audit events, every ledger entry against its
    round or audited top-up, every wallet against its ledger (``verify_records``)."""
    policy.require(request.user, Action.VIEW_AUDIT)
    report = verify_records()
    return render(request, "integrity/records.html", {"report": report, "at": timezone.now()})
