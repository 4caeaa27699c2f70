"""``/api/reports/``: ask for a report run, watch it, retry it, download its files.

Compliance and auditors ask for runs and see every run; a manager sees only the runs about
their own holder. Files come only through ``files/{format}/``, which checks the role and
records the download in the audit trail; nothing is under a public URL.
"""

from __future__ import annotations

from django.http import FileResponse, Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import action

from portal.access.policy import Action, visible
from portal.api.base import ApiViewSet
from portal.reports import render
from portal.reports.api.serializers import (
    ReportDocumentSerializer,
    ReportRequestInput,
    ReportRunSerializer,
)
from portal.reports.models import ReportRun
from portal.reports.services.files import report_file_downloaded
from portal.reports.services.runs import QUEUE_DOWN, report_run_request, report_run_retry

XLSX = render.FORMATS["xlsx"][1]
PARQUET = render.FORMATS["parquet"][1]


class ReportRunViewSet(ApiViewSet):
    """Report runs: the expiry report, the audit report, the Player Account Summary and a
    rules submission's filing package, run in the background, each with its files (JSON,
    CSV, XLSX, PDF; Parquet for the audit report's detail; a filing package's zip)."""

    operation_descriptions = {
        "list": (
            "The report runs you may see, newest first, each with its status and files. "
            "Compliance officers and auditors see every run; a manager sees their own "
            "holder's."
        ),
        "retrieve": "One report run: what was asked, its status, and its files once done.",
        "create": (
            "Ask for a report (its kind and parameters): it runs in the background; poll "
            "the run until it is done. Asking again for the same report while it is "
            "queued or running answers with that run instead of a second one. Compliance "
            "officers and auditors; a manager for their own holder."
        ),
        "retry": "Run a report that failed again, with the same kind and parameters.",
        "files": (
            "Download one of a finished run's files: json, csv, xlsx or pdf (a filing "
            "package's: json, pdf and zip). Each download is recorded in the audit trail."
        ),
    }
    serializer_class = ReportRunSerializer
    filterset_class = None
    http_method_names = ["get", "post", "head", "options"]
    write_actions = {"create": Action.RUN_REPORTS, "retry": Action.RUN_REPORTS}

    def get_queryset(self):
        runs = ReportRun.objects.select_related("requested_by").prefetch_related("files")
        return visible(self.request.user, runs)

    @extend_schema(
        request=ReportRequestInput,
        responses={
            201: OpenApiResponse(ReportRunSerializer, description="A new run, queued."),
            200: OpenApiResponse(
                ReportRunSerializer,
                description="The same report (kind and parameters) is already queued or "
                "running: that run, not a second one.",
            ),
        },
    )
    def create(self, request):
        data = self.parse(ReportRequestInput)
        run, created = report_run_request(
            actor=request.user, kind=data["kind"], parameters=data["parameters"], via="api"
        )
        answer = self.respond(run, status=201 if created else 200)
        if getattr(run, "queue_unreachable", False):
            answer.data["notice"] = QUEUE_DOWN
        return answer

    @extend_schema(request=None, responses={200: ReportRunSerializer})
    @action(detail=True, methods=["post"])
    def retry(self, request, pk=None):
        run = report_run_retry(actor=request.user, run=self.get_object())
        return self.respond(run)

    @extend_schema(
        summary=(
            "One of the run's files (json, csv, xlsx, pdf, parquet; a filing package's zip); "
            "the download is audited"
        ),
        responses={
            (200, "application/json"): ReportDocumentSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, XLSX): OpenApiResponse(OpenApiTypes.BINARY),
            (200, PARQUET): OpenApiResponse(OpenApiTypes.BINARY),
            (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"files/(?P<fmt>[a-z]+)",
        url_name="files",
        pagination_class=None,
    )
    def files(self, request, pk=None, fmt=None):
        run = self.get_object()
        report_file = run.files.filter(format=fmt).first()
        if report_file is None:
            raise Http404(f"this run has no {fmt} file")
        path = report_file_downloaded(actor=request.user, report_file=report_file, via="api")
        return FileResponse(
            open(path, "rb"),  # noqa: SIM115 - FileResponse closes it
            as_attachment=True,
            filename=report_file.name,
            content_type=report_file.content_type,
        )
