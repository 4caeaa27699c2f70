"""Notices of report runs: finished, failed, and what an audit report found."""

from __future__ import annotations

import json

from django.urls import reverse

from portal.access.roles import Role
from portal.notifications import kinds as k
from portal.notifications.audiences import active, people
from portal.notifications.kinds import Notice
from portal.notifications.sources.said import holder_name
from portal.reports.models import ReportKind, ReportRun, RunStatus
from portal.reports.presenters import band_verdict
from portal.reports.services.files import reports_dir


def _run_name(run: ReportRun) -> str:
    label = ReportKind(run.kind).label if run.kind in ReportKind.values else "Report"
    parameters = run.parameters or {}
    if "as_of" in parameters:
        span = f" as of {parameters['as_of']}"
    elif parameters.get("start"):
        start, end = parameters["start"], parameters.get("end") or parameters["start"]
        span = f" for {start}" if start == end else f" for {start} to {end}"
    else:
        span = ""
    holder = holder_name(run.holder_id) if run.holder_id else None
    return f"{label}{span}" + (f" ({holder})" if holder else "")


def run_concerned(run: ReportRun) -> frozenset[int]:
    return people(Role.AUDITOR) | active([run.requested_by_id])


def run_key(run: ReportRun) -> str:
    """What a run's end is called: each attempt that ends is told of once."""
    return f"report-run:{run.pk}:{run.status}:{run.attempts}"


def run_finished(run: ReportRun) -> list[Notice]:
    name = _run_name(run)
    link = reverse("reports:run-detail", args=[run.pk])
    recipients = run_concerned(run)
    if run.status == RunStatus.SUCCEEDED:
        finished = Notice(
            kind=k.REPORT_FINISHED,
            key=run_key(run),
            recipients=recipients,
            subject=f"{name} is ready",
            body=f"The {name[0].lower() + name[1:]} (run {run.pk}) is ready to read.",
            link=link,
        )
    else:
        finished = Notice(
            kind=k.REPORT_FINISHED,
            key=run_key(run),
            recipients=recipients,
            subject=f"{name} failed",
            body=(
                f"The {name[0].lower() + name[1:]} (run {run.pk}) could not be made. "
                "Its page says what went wrong, and it can be tried again from there."
            ),
            link=link,
        )
    notices = [finished]
    findings = audit_findings(run) if run.status == RunStatus.SUCCEEDED else []
    if findings:
        notices.append(
            Notice(
                kind=k.REPORT_FINDINGS,
                key=f"report-findings:{run.pk}",
                recipients=recipients,
                subject=f"{name} found something to look at",
                body=(
                    f"The {name[0].lower() + name[1:]} (run {run.pk}) found:\n"
                    + "\n".join(f"- {line}" for line in findings)
                ),
                link=link,
            )
        )
    return [notice for notice in notices if notice.recipients]


def _document(run: ReportRun) -> dict | None:
    stored = run.files.filter(format="json").values_list("name", flat=True).first()
    if stored is None:
        return None
    try:
        with open(reports_dir() / stored, "rb") as stream:
            found = json.load(stream)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def audit_findings(run: ReportRun) -> list[str]:
    """What an audit report found that someone should look at, in plain words (read from
    its stored document; nothing for another kind of report)."""
    if run.kind != ReportKind.AUDIT:
        return []
    document = _document(run)
    if document is None:
        return []
    found = []
    totals = document.get("totals") or {}
    if (totals.get("flag") or "").strip() not in ("", "ok"):
        # The run page's own sentence: a low-volume period is reported, not judged.
        found.append(f"against its expected band, the hold is {band_verdict(totals)}")
    if document.get("chi_square_alarm"):
        found.append(
            "the outcomes are less even than a fair wheel's "
            f"(chi-square p = {document.get('chi_square_p', '?')})"
        )
    discrepancies = (document.get("resettlement") or {}).get("discrepancy_count") or 0
    if discrepancies:
        found.append(f"{discrepancies:,} bets settle differently when settled again")
    reconciliation = document.get("reconciliation") or {}
    if reconciliation and not reconciliation.get("ok", True):
        found.append("something does not reconcile (ledger, accounts or the audit chain)")
    return found
