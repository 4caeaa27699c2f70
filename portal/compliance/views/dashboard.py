"""The dashboard: what needs each user's attention, by what their role lets them do."""

from __future__ import annotations

import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.accounts import policy
from portal.accounts.policy import Action
from portal.compliance import selectors
from portal.core.padates import pa_today
from portal.core.pages import detail_url, domain_errors


def _rows(records) -> list[tuple]:
    return [
        (record, detail_url(record.kind, record.pk), record.kind.replace("_", " "))
        for record in records
    ]


@login_required
@require_safe
@domain_errors
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    policy.require(user, Action.VIEW)
    deciding, drafting = policy.may(user, Action.DECIDE), policy.may(user, Action.DRAFT)
    context = {
        # Only those who decide have anything "awaiting review"; only drafters keep drafts.
        "awaiting": _rows(selectors.awaiting_review(user)) if deciding else None,
        "drafts": _rows(selectors.drafts_for(user)) if drafting else None,
        "expiring": _rows(selectors.expiring_within(user, 30)),
        # Came inside the 30 days today: its expiry is exactly 30 Pennsylvania days away.
        "newly_expiring": pa_today() + datetime.timedelta(days=30),
        "may_draft": drafting,
        "may_audit": policy.may(user, Action.VIEW_AUDIT),
    }
    return render(request, "compliance/dashboard.html", context)
