"""The charts of a finished report run, read back from the run's stored JSON document.

Only a succeeded run shows charts: its JSON file is the document every other format was
written from, and its PDF drew each chart, so the specs passed the chart checks then.
Reading never draws (``portal.reports.render.chart_drawing`` does that) and never writes.
"""

from __future__ import annotations

import json
from typing import Any

from portal.reports.models import ReportRun, RunStatus
from portal.reports.services.files import reports_dir


def stored_document(run: ReportRun) -> dict[str, Any] | None:
    """The run's JSON document as stored; None for a run that has not succeeded or has no
    JSON file."""
    if run.status != RunStatus.SUCCEEDED:
        return None
    # Through ``all()``: the pages fetch the run with its files already (prefetch_related).
    json_file = next((file for file in run.files.all() if file.format == "json"), None)
    if json_file is None:
        return None
    try:
        with open(reports_dir() / json_file.name, "rb") as stream:
            document = json.load(stream)
    except FileNotFoundError:  # removed from the reports folder by hand: nothing to show
        return None
    return document if isinstance(document, dict) else None


def stored_charts(run: ReportRun, document: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The chart specs in the run's JSON document (``document`` if already read); none for
    a run that has not succeeded, has no JSON file, or whose document has no charts."""
    if document is None:
        document = stored_document(run)
    if document is None:
        return []
    charts = document.get("charts") or []
    return [chart for chart in charts if isinstance(chart, dict) and "key" in chart]


def stored_chart(run: ReportRun, key: str) -> dict[str, Any] | None:
    """The run's chart named ``key``, or None."""
    return next((chart for chart in stored_charts(run) if chart["key"] == key), None)
