"""Report runs: requesting one, running it, retrying it. The only writers of a run.

A run is asked for once (the same kind, parameters and definition version while one is
queued or running is that run), queued on Celery after the request commits, claimed by a
worker, built into its document, and written in every format (``files``).

The run is queued by its task's name: the tasks module calls these services, so they import
no task.
"""

from __future__ import annotations

import datetime
import json
import logging

from celery import current_app
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from portal.access.policy import Action, require, require_report
from portal.audit.services import audit_record
from portal.core.errors import Conflict
from portal.reports import definitions, render
from portal.reports.models import ACTIVE_STATUSES, ReportRun, RunStatus
from portal.reports.services import files

log = logging.getLogger(__name__)

RUN_TASK = "reports.run"  # the task that runs a report (``portal.reports.tasks.run_report``)
QUEUE_DOWN = (
    "the report is recorded and queued; the job queue cannot be reached just now, so it "
    "will start when the queue is back"
)
NOT_FAILED = "only a failed run can be retried; this one is {status}"
STUCK_AFTER = 300  # seconds a run may wait in the queue before the sweep sends it again


def _picture(run: ReportRun) -> dict:
    return {
        "kind": run.kind,
        "definition_version": run.definition_version,
        "parameters": run.parameters,
        "status": run.status,
    }


def _enqueue(run: ReportRun) -> None:
    """Send the run to the workers; if the broker is down, it stays queued (the sweep
    sends it again) and the caller can say so. By name: where the task is registered (a
    worker, or a process running tasks in-process) Celery calls it, anywhere else it sends
    the message by name."""
    limits = definitions.definition(run.kind).time_limits
    job = current_app.signature(RUN_TASK, args=(run.pk,))
    try:
        job.apply_async(soft_time_limit=limits[0], time_limit=limits[1])
    except Exception:  # kombu raises its own errors, whatever the transport
        log.exception("report run %s could not be queued", run.pk)
        run.queue_unreachable = True


@transaction.atomic
def report_run_request(*, actor, kind: str, parameters, via: str) -> tuple[ReportRun, bool]:
    """Ask for a report; returns (run, created). ``actor`` None is the schedule.

    Compliance and auditors ask about any holder or every one; a manager about their own
    holder only (refused, nothing recorded, for every holder or another's)."""
    if actor is not None:
        require(actor, Action.RUN_REPORTS)
    report = definitions.definition(kind)
    cleaned = definitions.clean(kind, parameters)
    if actor is not None:
        require_report(actor, cleaned.get("holder"))
    key = json.dumps(cleaned, sort_keys=True, separators=(",", ":"))
    active = ReportRun.objects.filter(
        kind=kind, parameters_key=key, definition_version=report.version, status__in=ACTIVE_STATUSES
    )
    existing = active.first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            run = ReportRun.objects.create(
                kind=kind,
                definition_version=report.version,
                parameters=cleaned,
                parameters_key=key,
                holder_id=cleaned.get("holder"),
                requested_by=actor,
                requested_via=via,
            )
    except IntegrityError:  # the same report asked for at the same moment
        return active.get(), False
    audit_record(
        actor=actor,
        action="report.request",
        object_type="report_run",
        object_id=run.pk,
        after=_picture(run),
    )
    run.queue_unreachable = False
    transaction.on_commit(lambda: _enqueue(run), robust=True)
    return run, True


@transaction.atomic
def report_run_retry(*, actor, run: ReportRun) -> ReportRun:
    require_report(actor, run.holder_id)
    run = ReportRun.objects.select_for_update().get(pk=run.pk)
    if run.status != RunStatus.FAILED:
        raise Conflict(NOT_FAILED.format(status=run.status))
    before = _picture(run)
    run.status, run.error = RunStatus.QUEUED, ""
    run.progress_done = run.progress_total = 0
    run.save(update_fields=["status", "error", "progress_done", "progress_total"])
    audit_record(
        actor=actor,
        action="report.retry",
        object_type="report_run",
        object_id=run.pk,
        before=before,
        after=_picture(run),
    )
    run.queue_unreachable = False
    transaction.on_commit(lambda: _enqueue(run), robust=True)
    return run


def _claim(run_id: int) -> bool:
    """Mark the run running (a retry after a crash claims it again); False if it is done."""
    return bool(
        ReportRun.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(
            status=RunStatus.RUNNING,
            started_at=timezone.now(),
            attempts=F("attempts") + 1,
            error="",
        )
    )


def _progress(run_id: int, done: int, total: int) -> None:
    ReportRun.objects.filter(pk=run_id).update(progress_done=done, progress_total=total)


def report_run_execute(*, run_id: int) -> None:
    """The worker's part: claim the run, build its document, write every format, done."""
    if not _claim(run_id):
        return  # finished already (a duplicate message): nothing to do
    run = ReportRun.objects.get(pk=run_id)
    files.sweep_partial_files(run)
    report = definitions.definition(run.kind)
    document = report.build(run.parameters, lambda done, total: _progress(run_id, done, total))
    for fmt in render.FORMATS:
        files.write_file(run, document, fmt)
    ReportRun.objects.filter(pk=run_id).update(
        status=RunStatus.SUCCEEDED, finished_at=timezone.now(), error=""
    )


def report_run_fail(*, run_id: int, error: str) -> None:
    """The last attempt failed: the run says why and can be retried."""
    ReportRun.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES).update(
        status=RunStatus.FAILED, finished_at=timezone.now(), error=error[:2000]
    )


def report_runs_resend_stuck(*, older_than: int = STUCK_AFTER) -> int:
    """Send again the runs still queued after ``older_than`` seconds (the queue was down)."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    stuck = list(ReportRun.objects.filter(status=RunStatus.QUEUED, queued_at__lt=cutoff))
    for run in stuck:
        _enqueue(run)
    return len(stuck)
