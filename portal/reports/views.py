"""The Reports pages: ask for a run, watch it (htmx polls while it works), see its charts,
download files."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from portal.access import policy
from portal.access.policy import Action
from portal.core.lists import csv_download, filtered_page, wants_csv
from portal.core.pages import domain_errors
from portal.game.corrections.selectors import may_see_corrections
from portal.reports.filtersets import RunFilter
from portal.reports.forms import ReportForm
from portal.reports.models import ReportRun
from portal.reports.presenters import offering_names, parameter_lines, run_figures
from portal.reports.selectors import corrected_since
from portal.reports.services.files import report_file_downloaded
from portal.reports.services.runs import QUEUE_DOWN, report_run_request, report_run_retry
from portal.reports.stored_charts import stored_chart, stored_charts, stored_document


def _runs(request: HttpRequest):
    policy.require(request.user, Action.VIEW)
    runs = ReportRun.objects.select_related("requested_by", "holder").prefetch_related("files")
    return policy.visible(request.user, runs)


def _run(request: HttpRequest, pk: int) -> ReportRun:
    run = _runs(request).filter(pk=pk).first()
    if run is None:
        raise Http404("no such report run")
    return run


def _list_page(request, form: ReportForm | None = None) -> HttpResponse:
    """The runs, filtered, sorted, a page or a CSV, under the form that asks for one (400
    when the form was refused)."""
    runs = RunFilter.for_page(request, _runs(request).select_related("holder"))
    refused = form is not None
    if not refused and wants_csv(request) and runs.is_valid():
        return csv_download(runs.qs, runs.columns, "report-runs")
    page, listed = filtered_page(request, runs)
    names = offering_names(page)
    corrected = corrected_since(page)
    for run in page:  # the page's runs, read once: each says its parameters in words
        run.parameter_words = parameter_lines(run, names)
        run.corrected_since = corrected.get(run.pk, [])
    context = {
        "filter": runs,
        "columns": runs.columns,
        "page": page,
        "may_run": policy.may(request.user, Action.RUN_REPORTS),
        "form": form or ReportForm(holder=policy.report_holder(request.user)),
    }
    return render(request, "reports/list.html", context, status=400 if refused else listed)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def report_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _list_page(request)
    policy.require(request.user, Action.RUN_REPORTS)
    form = ReportForm(request.POST, holder=policy.report_holder(request.user))
    if not form.is_valid():
        return _list_page(request, form)
    run, created = report_run_request(
        actor=request.user, kind=form.cleaned_data["kind"], parameters=form.parameters, via="page"
    )
    if getattr(run, "queue_unreachable", False):
        request.session["report_notice"] = QUEUE_DOWN
    return redirect("reports:run-detail", pk=run.pk)


@login_required
@require_safe
@domain_errors
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = _run(request, pk)
    template = "reports/_run_status.html" if request.htmx else "reports/detail.html"
    # The htmx poll swaps the status only: no need to read the document for it.
    document = None if request.htmx else stored_document(run)
    context = {
        "run": run,
        "may_run": policy.may(request.user, Action.RUN_REPORTS, holder_id=run.holder_id),
        "notice": request.session.pop("report_notice", None),
        "parameters": parameter_lines(run),
        "figures": run_figures(document),
        "charts": stored_charts(run, document) if document else [],
        "corrected_since": [] if request.htmx else corrected_since([run]).get(run.pk, []),
        "may_see_corrections": may_see_corrections(request.user),
    }
    response = render(request, template, context)
    if request.htmx and not run.active:
        # The run ended while the page polled: load the whole page once, with its charts
        # (the reloaded page no longer polls).
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
@domain_errors
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    report_run_retry(actor=request.user, run=_run(request, pk))
    return redirect("reports:run-detail", pk=pk)


@login_required
@require_safe
@domain_errors
def run_file(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    run = _run(request, pk)
    report_file = run.files.filter(format=fmt).first()
    if report_file is None:
        raise Http404(f"this run has no {fmt} file")
    path = report_file_downloaded(actor=request.user, report_file=report_file, via="page")
    response = FileResponse(
        open(path, "rb"),  # noqa: SIM115 - FileResponse closes it
        as_attachment=True,
        filename=report_file.name,
        content_type=report_file.content_type,
    )
    response["Cache-Control"] = "private, no-store"
    return response


# An SVG opened on its own is a document of this site: it may use its inline styles (which
# matplotlib writes) and nothing else, no script, no fetch.
CHART_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


@login_required
@require_safe
@domain_errors
def report_chart(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    """One chart of a succeeded run, drawn from its stored JSON document, as SVG."""
    chart = stored_chart(_run(request, pk), key)
    if chart is None:
        raise Http404(f"this run has no chart {key}")
    # Here, not at the top: matplotlib takes half a second to import, which only a process
    # that draws a chart should pay.
    from portal.reports.render.chart_drawing import chart_svg

    response = HttpResponse(chart_svg(chart), content_type="image/svg+xml")
    response["Content-Security-Policy"] = CHART_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"  # as the run's files: report data
    return response
