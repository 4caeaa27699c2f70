"""What the reports API answers (a run, a report's JSON document) and the body it reads."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from portal.api.fields import StrictInput
from portal.game.models import CorrectionKind
from portal.reports.audit_report.resettlement.findings import PROBLEMS_LISTED
from portal.reports.document import COLUMN_TYPES
from portal.reports.forms import ReportForm
from portal.reports.models import ReportKind, ReportRun
from portal.reports.selectors import corrected_since


class LaterCorrectionSerializer(serializers.Serializer):
    """A correction decided after an audit run read the records (reading:late-corrections)."""

    correction = serializers.IntegerField(help_text="The void's or adjustment's id.")
    kind = serializers.ChoiceField(choices=CorrectionKind.choices)
    round = serializers.IntegerField()
    applied_at = serializers.DateTimeField()
    applied_day = serializers.DateField(help_text="The gaming day it was applied in.")
    reported_in = serializers.IntegerField(
        allow_null=True,
        help_text="The audit run that lists it under corrections to earlier gaming days; "
        "null until the report of the day it was applied has run.",
    )


class ReportRunListSerializer(serializers.ListSerializer):
    """A page of runs: which of them later corrections changed, read once for the page
    (``corrected_since``: at most two queries)."""

    def to_representation(self, data):
        runs = list(data.all() if hasattr(data, "all") else data)
        found = corrected_since(runs)
        for run in runs:
            run.later_corrections = found.get(run.pk, [])
        return super().to_representation(runs)


class ReportRunSerializer(serializers.ModelSerializer):
    requested_by = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    files = serializers.SerializerMethodField()
    corrected_since = serializers.SerializerMethodField(
        help_text="An audit run's rounds corrected after it read the records: each void or "
        "adjustment, and the run that reports it (reading:late-corrections). Empty when none."
    )

    read_from = serializers.CharField(
        read_only=True,
        help_text='Where the run read the records: "replica" or "primary"; empty until it starts.',
    )
    read_note = serializers.CharField(
        read_only=True,
        help_text="Why a run read the primary although a replica is configured; empty when it "
        "did not have to.",
    )

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
            "read_from",
            "read_note",
            "files",
            "corrected_since",
        )
        read_only_fields = fields
        list_serializer_class = ReportRunListSerializer

    def get_requested_by(self, run: ReportRun) -> str:
        return run.requested_by.get_username() if run.requested_by else "schedule"

    def get_progress(self, run: ReportRun) -> dict:
        return {"done": run.progress_done, "total": run.progress_total}

    @extend_schema_field(LaterCorrectionSerializer(many=True))
    def get_corrected_since(self, run: ReportRun) -> list[dict]:
        later = getattr(run, "later_corrections", None)
        if later is None:  # one run: read for it alone
            later = corrected_since([run]).get(run.pk, [])
        return LaterCorrectionSerializer(later, many=True).data

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
        help_text=(
            "True: the rows (row_count of them) are in the CSV file, the XLSX file (up to a "
            "spreadsheet's 1,048,576 rows) and the Parquet file only."
        ),
    )
    row_count = serializers.IntegerField(required=False)
    formats = serializers.ListField(child=serializers.CharField(), required=False)
    sheet = serializers.CharField(
        required=False, help_text="A short name for its XLSX sheet, when the title is long."
    )


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
    hold = serializers.FloatField(
        required=False, allow_null=True, help_text="W / H as a fraction; null when H is 0."
    )
    expected_hold = serializers.FloatField(
        required=False, allow_null=True, help_text="E / H as a fraction; null when H is 0."
    )
    z = serializers.CharField(
        required=False, allow_null=True, help_text="(W − E) / SD to 3 places; null when SD is 0."
    )
    band = serializers.DictField(
        required=False,
        help_text='E ± 1.96 SD: {"z": 1.96, "low", "high": cents as decimal strings to 4 '
        'places, "hold_low", "hold_high": as fractions of H (null when H is 0), "inside": '
        "whether W lies in it}",
    )


class AuditResettlement(serializers.Serializer):
    checked = serializers.IntegerField(help_text="Bets settled again.")
    rounds = serializers.IntegerField()
    discrepancy_count = serializers.IntegerField()
    discrepancies = serializers.ListField(
        child=serializers.DictField(),
        help_text=f"The first {PROBLEMS_LISTED:,}, each with its problem.",
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
    # The audit report's own contract, beside its sections (reading:expected-win).
    totals = AuditTotals(required=False)
    outcome_counts = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Rounds per number 0–12."
    )
    chi_square = serializers.CharField(required=False, help_text="12 degrees of freedom.")
    chi_square_p = serializers.CharField(required=False)
    chi_square_alarm = serializers.BooleanField(required=False, help_text="p < 0.01.")
    resettlement = AuditResettlement(required=False)
    exceptions = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text='Each exceptions section (what needs an auditor\'s attention): {"key", '
        '"title", "count"} (the rows it lists).',
    )
    routine = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Each routine section, listed for the record and not counted as exceptions "
        '(changes in the period, exports taken): {"key", "title", "count"}.',
    )
    odd_rng_rounds = serializers.IntegerField(
        required=False, help_text="Rounds recorded with an RNG other than the OS CSPRNG."
    )
    reconciliation = serializers.DictField(
        required=False,
        help_text='{"ok", "stakes", "returns", "accounts", "round_chains", "audit_chain"}',
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
    """The report and its parameters, read through the Reports page's form
    (``portal.reports.forms.ReportForm``): a parameter it refuses is answered as the
    service would, its message under the parameter's name."""

    read_only_from = ReportRunSerializer

    kind = serializers.ChoiceField(choices=ReportKind.choices)
    parameters = serializers.DictField(
        required=False,
        help_text='expiry: {"as_of": "YYYY-MM-DD" (Pennsylvania date; today if left out), '
        '"holder": id, "offering": id}; audit: {"start", "end": gaming days (yesterday if '
        'left out), "holder": id, "offering": id, "win_threshold": cents}',
    )

    def validate(self, attrs: dict) -> dict:
        form = ReportForm.from_body(attrs["kind"], attrs.get("parameters", {}))
        if not form.is_valid():
            raise form.refusal
        return {"kind": attrs["kind"], "parameters": form.parameters}
