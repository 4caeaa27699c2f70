"""My submissions: the records a drafter created or submitted, and the offerings they set
up, newest change first, each with its status."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.compliance.filtersets import MINE_COLUMNS, STATUS_LABELS, MineFilter
from portal.core.lists import csv_download, wants_csv
from portal.core.pages import detail_url, domain_errors, kind_label, paginate


@login_required
@require_safe
@domain_errors
def my_submissions(request: HttpRequest) -> HttpResponse:
    policy.require(request.user, Action.DRAFT)
    form = MineFilter(request.GET)
    show_holder = request.user.is_superuser  # the others see their own holder's only
    context = {
        "filter": {"form": form},
        "columns": MINE_COLUMNS if show_holder else MINE_COLUMNS.hiding("holder"),
        "show_holder": show_holder,
    }
    if not form.is_valid():
        context.update(page=paginate(request, []), rows=[])
        return render(request, "compliance/mine.html", context, status=400)
    records = form.records(request.user)
    if wants_csv(request):
        return csv_download(records, MINE_COLUMNS, "my-submissions")
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
    context.update(page=page, rows=rows)
    return render(request, "compliance/mine.html", context)
