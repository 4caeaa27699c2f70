"""The dashboard: what needs each user's attention, by what their role lets them do."""

from __future__ import annotations

import datetime
from typing import NamedTuple

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.compliance import selectors
from portal.compliance.services.layouts import REVIEW_DAYS
from portal.compliance.workflow import kind_text
from portal.core.padates import pa_date, pa_today
from portal.core.pages import detail_url, domain_errors
from portal.core.waiting import waiting_for

EXPIRY_WINDOW_DAYS = 30
# An approval counts as newly inside the window for this many days after it came in.
NEW_FOR_DAYS = 7
KIND_LABELS = {
    "layout": "Layouts",
    "paytable": "Paytables",
    "rules_submission": "Rules submissions",
    "terms": "Terms and conditions",
}


class Badge(NamedTuple):
    text: str
    css: str


def _days(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"


def review_badge(record, today: datetime.date) -> tuple[datetime.date | None, Badge | None]:
    """When the Bureau's review of a submitted record is due (§ 601a.10(a): 15 calendar
    days after submission, Pennsylvania dates: reading:pennsylvania-dates), and how that
    stands today."""
    if record.submitted_at is None:
        return None, None
    due = pa_date(record.submitted_at) + datetime.timedelta(days=REVIEW_DAYS)
    left = (due - today).days
    if left > 0:
        return due, Badge(f"due in {_days(left)}", "due")
    if left == 0:
        return due, Badge("due today", "due-today")
    return due, Badge(f"overdue by {_days(-left)}", "overdue")


def new_badge(record, today: datetime.date) -> Badge | None:
    """Marks an approval that came inside the expiry window in the last ``NEW_FOR_DAYS``
    days: its expiry date less the window is on or after today less those days."""
    came_in = record.expiry_date - datetime.timedelta(days=EXPIRY_WINDOW_DAYS)
    ago = (today - came_in).days
    if not 0 <= ago <= NEW_FOR_DAYS:
        return None
    return Badge("new today" if ago == 0 else f"new {_days(ago)} ago", "new")


def _rows(records) -> list[tuple]:
    return [(record, detail_url(record.kind, record.pk), kind_text(record)) for record in records]


# Each kind's list, which a count links to filtered by its status.
LIST_URLS = {
    "layout": "compliance:layout-list",
    "paytable": "compliance:paytable-list",
    "rules_submission": "compliance:rules-list",
    "terms": "compliance:terms-list",
}


class StatusCount(NamedTuple):
    """How many records of a kind are in a status, and the list that shows exactly them."""

    number: int
    url: str
    group: str  # its column: "Awaiting decision"
    label: str  # what the number counts, for screen readers: "layouts: awaiting decision"


def _count_rows(counts) -> list[tuple[str, list[StatusCount]]]:
    rows = []
    for model, by_status in counts:
        kind = KIND_LABELS[model.kind]
        cells = []
        for status, group in selectors.DASHBOARD_GROUPS:
            url = f"{reverse(LIST_URLS[model.kind])}?{urlencode({'status': status})}"
            number = by_status[status]
            cells.append(StatusCount(number, url, group, f"{kind.lower()}: {group.lower()}"))
        rows.append((kind, cells))
    return rows


@login_required
@require_safe
@domain_errors
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    policy.require(user, Action.VIEW)
    deciding, drafting = policy.may(user, Action.DECIDE), policy.may(user, Action.DRAFT)
    today = pa_today()
    # One query per kind for the lists and one per kind for the counts.
    found = selectors.dashboard_records(user, EXPIRY_WINDOW_DAYS, today=today)
    impacts = selectors.expiry_impacts(found.expiring)
    context = {
        "count_groups": [label for _, label in selectors.DASHBOARD_GROUPS],
        "counts": _count_rows(selectors.status_counts(user)),
        # Only those who decide have anything "awaiting review"; only drafters keep drafts.
        "awaiting": [(*row, *review_badge(row[0], today)) for row in _rows(found.awaiting)]
        if deciding
        else None,
        "drafts": _rows(found.drafts) if drafting else None,
        # What each expiry will take dark, as the midnight job's step would (2 queries).
        "expiring": [
            (*row, new_badge(row[0], today), impacts.get((row[0].kind, row[0].pk)))
            for row in _rows(found.expiring)
        ],
        "may_draft": drafting,
        # What waits for this person's decision in the other apps (the voids and
        # adjustments of rounds, complaints): one query each that concerns them.
        "waiting": waiting_for(user),
        "may_audit": policy.may(user, Action.VIEW_AUDIT),
        "may_check_tables": policy.may(user, Action.SUSPEND_TABLES),
    }
    return render(request, "compliance/dashboard.html", context)
