"""The report runs list, declared once for its page and its CSV: columns, filters, sorts."""

from __future__ import annotations

import django_filters

from portal.accounts.filtersets import HolderScopedFilterSet
from portal.core.lists import (
    Column,
    Columns,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    instant_column,
)
from portal.reports.models import ReportKind, ReportRun, RunStatus

RUN_COLUMNS = Columns(
    Column("run", "Run", lambda run: run.pk, csv="run_id", sort="pk", desc_first=True),
    Column("kind", "Report", lambda run: run.kind, csv="report", sort="kind"),
    Column("definition_version", value=lambda run: run.definition_version),
    Column("parameters", "Parameters", lambda run: run.parameters),  # JSON, keys sorted
    Column("holder", value=lambda run: run.holder.name if run.holder else ""),
    Column(
        "by",
        "Asked by",
        lambda run: run.requested_by.get_username() if run.requested_by else "",
        csv="asked_by",
        sort="requested_by__username",
    ),
    Column("asked_via", value=lambda run: run.requested_via),
    Column("status", "Status", lambda run: run.status, sort="status"),
    instant_column("asked", "queued_at", title="Asked", csv="asked_at_utc"),
    instant_column("started_at_utc", "started_at"),
    instant_column("finished_at_utc", "finished_at"),
    Column("files", value=lambda run: " ".join(sorted(f.format for f in run.files.all()))),
    page=("run", "kind", "parameters", "by", "asked", "status"),
)


class RunFilter(HolderScopedFilterSet):
    """Runs by report, status, holder, who asked (or "schedule") and the Pennsylvania date
    they were asked for; sortable."""

    q = Search("requested_by__username", "requested_via", label="Asked by or via")
    kind = django_filters.ChoiceFilter(
        choices=ReportKind.choices, label="Report", empty_label="Any report"
    )
    status = django_filters.ChoiceFilter(choices=RunStatus.choices, empty_label="Any status")
    since = PaDateFrom("queued_at", "Asked from (Pennsylvania date)")
    until = PaDateTo("queued_at", "Asked to (Pennsylvania date)")
    sort = Sort(RUN_COLUMNS)

    class Meta:
        model = ReportRun
        fields: list[str] = []
        form = PeriodForm
