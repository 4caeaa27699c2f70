"""A rules submission's filing package page: what the package holds, its builds so far
(each a report run), and the button that builds it again."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action
from portal.compliance.models import RulesSubmission
from portal.core.pages import domain_errors
from portal.filings.report import REFUSED_STATUSES
from portal.reports.models import ReportKind, ReportRun
from portal.reports.services.runs import QUEUE_DOWN, report_run_request

BUILDS_SHOWN = 20


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def package(request: HttpRequest, pk: int) -> HttpResponse:
    submission = visible_or_404(request.user, RulesSubmission.objects.all(), pk, Action.VIEW)
    if request.method == "POST":
        run, _ = report_run_request(
            actor=request.user,
            kind=ReportKind.FILING_PACKAGE,
            parameters={"submission": submission.pk},
            via="page",
        )
        if getattr(run, "queue_unreachable", False):
            request.session["report_notice"] = QUEUE_DOWN
        return redirect("reports:run-detail", pk=run.pk)
    builds = policy.visible(
        request.user,
        ReportRun.objects.filter(
            kind=ReportKind.FILING_PACKAGE, parameters__submission=submission.pk
        )
        .select_related("requested_by")
        .prefetch_related("files"),
    )
    context = {
        "submission": submission,
        "listings": submission.games.select_related("paytable", "layout").order_by("game", "pk"),
        "builds": builds[:BUILDS_SHOWN],
        "refused": submission.status in REFUSED_STATUSES,
        "may_build": policy.may(request.user, Action.RUN_REPORTS, holder_id=submission.holder_id),
    }
    return render(request, "filings/package.html", context)
