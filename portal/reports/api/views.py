"""``/api/reports/``: ask for a report run, watch it, retry it, download its files.

Compliance and auditors ask for runs and see every run; a manager sees only the runs about
their own holder. Files come only through ``files/{format}/``, which checks the role and
records the download in the audit trail; nothing is under a public URL.
"""

from __future__ import annotations

from django.http import FileResponse, Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action

from portal.access.policy import Action, visible
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.reports import render
from portal.reports.document import COLUMN_TYPES
from portal.reports.models import ReportKind, ReportRun
from portal.reports.services import (
    QUEUE_DOWN,
    report_file_downloaded,
    report_run_request,
    report_run_retry,
)

XLSX = render.FORMATS["xlsx"][1]


class ReportRunSerializer(serializers.ModelSerializer):
    requested_by = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    files = serializers.SerializerMethodField()

    class Meta:
        model = ReportRun
        fields = (
            "id",
            "kind",
            "definition_version",
            "parameters",
            "status",
            "progress",
            "attempts",
            "requested_by",
            "requested_via",
            "queued_at",
            "started_at",
            "finished_at",
            "error",
            "files",
        )
        read_only_fields = fields

    def get_requested_by(self, run: ReportRun) -> str:
        return run.requested_by.get_username() if run.requested_by else "schedule"

    def get_progress(self, run: ReportRun) -> dict:
        return {"done": run.progress_done, "total": run.progress_total}

    def get_files(self, run: ReportRun) -> list[dict]:
        return [
            {
                "format": f.format,
                "size": f.size,
                "sha256": f.sha256,
                "url": reverse("report-run-files", args=[run.pk, f.format]),
            }
            for f in run.files.all()
        ]


class ReportColumn(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    type = serializers.ChoiceField(choices=COLUMN_TYPES)


class ReportTotals(serializers.Serializer):
    label = serializers.CharField()
    values = serializers.DictField(help_text="By column key.")


class ReportSection(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    columns = ReportColumn(many=True)
    rows = serializers.ListField(
        child=serializers.DictField(),
        help_text='By column key, plus "row_type": "detail" or "subtotal" (with a "label").',
    )
    totals = ReportTotals(allow_null=True)
    no_activity = serializers.BooleanField(help_text='True: the section says "No Activity".')
    notes = serializers.ListField(child=serializers.CharField())
    streamed = serializers.BooleanField(
        required=False,
        help_text="True: the rows (row_count of them) are in the CSV and XLSX files only.",
    )
    row_count = serializers.IntegerField(required=False)
    formats = serializers.ListField(child=serializers.CharField(), required=False)


class AuditTotals(serializers.Serializer):
    rounds = serializers.IntegerField()
    players = serializers.IntegerField()
    bets = serializers.IntegerField()
    handle = serializers.IntegerField(help_text="Cents.")
    returned = serializers.IntegerField(help_text="Cents.")
    win = serializers.IntegerField(help_text="Cents: handle − returned.")
    expected_win = serializers.CharField(help_text="Cents, a decimal string to 4 places.")
    win_sd = serializers.CharField(help_text="Cents, a decimal string to 4 places.")
    flag = serializers.CharField(help_text='"", "review", "exception" or "low volume".')


class AuditResettlement(serializers.Serializer):
    checked = serializers.IntegerField(help_text="Bets settled again.")
    rounds = serializers.IntegerField()
    discrepancy_count = serializers.IntegerField()
    discrepancies = serializers.ListField(
        child=serializers.DictField(), help_text="The first 1,000, each with its problem."
    )


class ReportDocumentSerializer(serializers.Serializer):
    """A report's JSON file: the document its CSV, XLSX and PDF are rendered from (§ 811a.9)."""

    report = serializers.ChoiceField(choices=ReportKind.choices)
    title = serializers.CharField()
    definition_version = serializers.CharField()
    software_versions = serializers.DictField(child=serializers.CharField())
    holder = serializers.CharField(help_text='The holder\'s name, or "All certificate holders".')
    period = serializers.DictField(
        help_text='{"as_of": date}, {"from": date, "to": date} or {"start": date, "end": '
        "date} (gaming days): Pennsylvania dates."
    )
    generated_at = serializers.DictField(
        child=serializers.CharField(), help_text='{"pa": ISO 8601, "utc": ISO 8601}'
    )
    filters = serializers.DictField()
    sections = ReportSection(many=True)
    # The audit report's own contract, beside its sections (DOMAIN.md §2 "Hold").
    totals = AuditTotals(required=False)
    outcome_counts = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Rounds per number 0–12."
    )
    chi_square = serializers.CharField(required=False, help_text="12 degrees of freedom.")
    chi_square_p = serializers.CharField(required=False)
    chi_square_alarm = serializers.BooleanField(required=False, help_text="p < 0.01.")
    resettlement = AuditResettlement(required=False)
    reconciliation = serializers.DictField(
        required=False,
        help_text='{"ok", "stakes", "returns", "wallets", "round_chains", "audit_chain"}',
    )
    groups = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="The summary per holder, offering and paytable version.",
    )
    by_kind = serializers.ListField(child=serializers.DictField(), required=False)
    charts = serializers.ListField(child=serializers.DictField(), required=False)
    cutoff = serializers.DictField(
        required=False,
        help_text='The rounds stored when the report began: {"pa": …, "utc": …, "last_round": '
        "the highest round id read}.",
    )
    timings = serializers.DictField(
        child=serializers.FloatField(), required=False, help_text="Seconds per part."
    )


class ReportRequestInput(StrictInput):
    read_only_from = ReportRunSerializer

    kind = serializers.ChoiceField(choices=ReportKind.choices)
    parameters = serializers.DictField(
        required=False,
        help_text='expiry: {"as_of": "YYYY-MM-DD" (Pennsylvania date; today if left out), '
        '"holder": id, "offering": id}; audit: {"start", "end": gaming days (yesterday if '
        'left out), "holder": id, "offering": id, "win_threshold": cents}',
    )


class ReportRunViewSet(ApiViewSet):
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
            actor=request.user, kind=data["kind"], parameters=data.get("parameters", {}), via="api"
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
        summary="One of the run's files (json, csv, xlsx, pdf); the download is audited",
        responses={
            (200, "application/json"): ReportDocumentSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
            (200, XLSX): OpenApiResponse(OpenApiTypes.BINARY),
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
        if fmt not in render.FORMATS or report_file is None:
            raise Http404(f"this run has no {fmt} file")
        path = report_file_downloaded(actor=request.user, report_file=report_file, via="api")
        return FileResponse(
            open(path, "rb"),  # noqa: SIM115 - FileResponse closes it
            as_attachment=True,
            filename=report_file.name,
            content_type=report_file.content_type,
        )
