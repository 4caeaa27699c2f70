"""The report runs list: its filters, sort and CSV columns."""

from __future__ import annotations

import django_filters

from portal.accounts.filters import HolderScopedFilterSet
from portal.core.lists import (
    Column,
    PaDateFrom,
    PaDateTo,
    PeriodForm,
    Search,
    Sort,
    csv_instant_text,
)
from portal.reports.models import ReportKind, ReportRun, RunStatus


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
    sort = Sort(
        run="pk", kind="kind", by="requested_by__username", asked="queued_at", status="status"
    )

    class Meta:
        model = ReportRun
        fields: list[str] = []
        form = PeriodForm


RUN_COLUMNS = (
    Column("run_id", lambda run: run.pk),
    Column("report", lambda run: run.kind),
    Column("definition_version", lambda run: run.definition_version),
    Column("parameters", lambda run: run.parameters),  # JSON, keys sorted
    Column("holder", lambda run: run.holder.name if run.holder else ""),
    Column("asked_by", lambda run: run.requested_by.get_username() if run.requested_by else ""),
    Column("asked_via", lambda run: run.requested_via),
    Column("status", lambda run: run.status),
    Column("asked_at_utc", lambda run: csv_instant_text(run.queued_at)),
    Column("started_at_utc", lambda run: csv_instant_text(run.started_at)),
    Column("finished_at_utc", lambda run: csv_instant_text(run.finished_at)),
    Column("files", lambda run: " ".join(sorted(f.format for f in run.files.all()))),
)
