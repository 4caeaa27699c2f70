"""Report runs: requesting one, running it, retrying it. The only writers of a run.

A run is asked for once (the same kind, parameters and definition version while one is
queued or running is that run), queued on Celery after the request commits, claimed by a
worker, built into its document, and written in every format (``files``). An audit run
over several gaming days, with a result backend, is split over several workers (``split``):
its parts' passes are joined, then it is finished the same way.

The run is queued by its task's name: the tasks module calls these services, so they import
no task.
"""

from __future__ import annotations

import datetime
import json
import logging
import re

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded, WorkerLostError
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from portal.access.policy import Action, require, require_report
from portal.audit.services import audit_record
from portal.core.errors import Conflict
from portal.core.replica import PRIMARY, read_source, reading_from
from portal.reports import definitions, render
from portal.reports.audit_report.scope import last_round_before
from portal.reports.models import ACTIVE_STATUSES, ReportKind, ReportRun, RunStatus
from portal.reports.services import files, split

log = logging.getLogger(__name__)

RUN_TASK = "reports.run"  # the task that runs a report (``portal.reports.tasks.run_report``)
QUEUE_DOWN = (
    "the report is recorded and queued; the job queue cannot be reached just now, so it "
    "will start when the queue is back"
)
NOT_FAILED = "only a failed run can be retried; this one is {status}"
STUCK_AFTER = 300  # seconds a run may wait in the queue before the sweep sends it again
# Why a run failed, as its page, its notice and its API answer say it: in plain words, never
# an error's type; the worker's log has the type and the traceback.
WORKER_LOST = (
    "a worker stopped in the middle of making part of this report (ended by the system, or "
    "out of memory), so none of it was kept; retry the run to make it again"
)
TOO_LONG = (
    "the report took longer than its time limit and was stopped, so none of it was kept; "
    "retry the run, or ask for a shorter period"
)
DATABASE_LOST = (
    "the database could not be reached while the report was made, so none of it was kept; "
    "retry the run once the database is back"
)
UNEXPECTED = (
    "an unexpected error stopped the report ({detail}), so none of it was kept; retry the "
    "run, and if it fails again, pass this on to the people who run the portal"
)
# A failed part reaches the chord's error callback as Celery's own error naming the part's:
# "Dependency <id> raised ValueError('…')".
_PART_RAISED = re.compile(
    r"^Dependency \S+ raised (?P<kind>\w+)\((?P<detail>.*)\)\s*$",
    re.DOTALL,
)
_SAID = (
    ((WorkerLostError,), WORKER_LOST),
    ((SoftTimeLimitExceeded, TimeLimitExceeded), TOO_LONG),
    ((OperationalError, InterfaceError), DATABASE_LOST),
)


def failure_said(error: BaseException) -> str:
    """Why a run failed, in plain words, from the error that failed its last attempt, a
    part or the join."""
    raised = _PART_RAISED.search(str(error))
    for kinds, said in _SAID:
        if isinstance(error, kinds) or (raised and raised["kind"] in {k.__name__ for k in kinds}):
            return said
    detail = raised["detail"].strip("'\"") if raised else str(error)
    return UNEXPECTED.format(detail=detail or "no message")


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
    # The page's and the API's form cleaned them already (``definitions.Cleaned``): taken
    # as they are. Anything else (a caller's own dict) is cleaned here, once.
    cleaned = definitions.clean(kind, parameters)
    if actor is not None:
        if report.admit is not None:
            report.admit(actor, cleaned)
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
            cutoff=None,
            last_round=None,
            read_from="",
            wal_position="",
            read_note="",
        )
    )


def _progress(run_id: int, done: int, total: int) -> None:
    ReportRun.objects.filter(pk=run_id).update(progress_done=done, progress_total=total)


def report_run_execute(*, run_id: int) -> None:
    """The worker's part: claim the run, build its document, write every format, done. An
    audit run split into parts (``split``) is only sent on here: the join finishes it."""
    if not _claim(run_id):
        return  # finished already (a duplicate message): nothing to do
    run = ReportRun.objects.get(pk=run_id)
    files.sweep_partial_files(run)
    report = definitions.definition(run.kind)
    parameters = report.read(run.parameters)  # read once, for the split and the build
    plan = split.split_plan(run, parameters)
    # The run reads the records as of this instant, kept with it: every part of a split
    # run and its join read the same rounds, and a correction decided later is known to
    # have come after it (``corrected_since``).
    cutoff = timezone.now()
    last_round = last_round_before(cutoff) if run.kind == ReportKind.AUDIT else None
    # Where it reads them: the replica once it has replayed the primary up to this instant
    # (so the report equals the primary's), else the primary, saying why.
    source = read_source()
    fixed = {
        "cutoff": cutoff,
        "last_round": last_round,
        "read_from": source.alias,
        "wal_position": source.position,
        "read_note": source.note,
    }
    if plan is not None:
        ReportRun.objects.filter(pk=run_id).update(
            **fixed, progress_done=0, progress_total=len(plan) + 1
        )
        split.split_launch(run, cutoff, plan)
        return
    ReportRun.objects.filter(pk=run_id).update(**fixed)
    with reading_from(source.alias):
        document = report.build(
            parameters, lambda done, total: _progress(run_id, done, total), cutoff, last_round
        )
    report_run_finish(run=run, document=document)


def report_run_finish(*, run: ReportRun, document: dict) -> None:
    """The run's document written in every format, and the run succeeded."""
    report = definitions.definition(run.kind)
    for fmt in report.formats or render.formats_of(document):
        files.write_file(run, document, fmt, formats=report.formats)
    if report.finished is not None:
        report.finished(run, document)
    ReportRun.objects.filter(pk=run.pk).update(
        status=RunStatus.SUCCEEDED,
        finished_at=timezone.now(),
        error="",
        progress_done=F("progress_total"),
    )


def _split_run(run_id: int, cutoff: str) -> ReportRun | None:
    """The run a part or the join works for, while it still waits for them: running, as of
    ``cutoff``. None when it has moved on (failed, retried with a new cutoff, or done)."""
    at = datetime.datetime.fromisoformat(cutoff)
    return ReportRun.objects.filter(pk=run_id, status=RunStatus.RUNNING, cutoff=at).first()


def report_run_part(*, run_id: int, cutoff: str, first: str, last: str) -> dict | None:
    """One part of a split audit run: its pass over the gaming days ``first`` to ``last``
    as JSON, counted in the run's progress. None when the run no longer waits for it."""
    run = _split_run(run_id, cutoff)
    if run is None:
        return None
    with reading_from(run.read_from or PRIMARY):  # where the run found its records
        found = split.pass_part(
            definitions.AuditParameters.read(run.parameters),
            run.cutoff,
            run.last_round,
            datetime.date.fromisoformat(first),
            datetime.date.fromisoformat(last),
        )
    ReportRun.objects.filter(pk=run_id).update(progress_done=F("progress_done") + 1)
    return found


def report_run_join(*, run_id: int, cutoff: str, parts: list[dict | None]) -> None:
    """The end of a split audit run: its parts joined, its document built from them and
    written in every format, the run succeeded. Nothing when the run no longer waits for
    this chord (a newer attempt sent another)."""
    run = _split_run(run_id, cutoff)
    if run is None or any(part is None for part in parts):
        return
    parameters = definitions.AuditParameters.read(run.parameters)
    with reading_from(run.read_from or PRIMARY):
        document = split.joined_document(parameters, run.cutoff, run.last_round, parts)
    if _split_run(run_id, cutoff) is None:
        return
    report_run_finish(run=run, document=document)


def report_run_fail(*, run_id: int, error: str, cutoff: str | None = None) -> None:
    """The last attempt failed: the run says why and can be retried. ``cutoff``: a split
    run's part or join failed, which fails the run only while it waits for that chord."""
    runs = ReportRun.objects.filter(pk=run_id, status__in=ACTIVE_STATUSES)
    if cutoff is not None:
        runs = runs.filter(cutoff=datetime.datetime.fromisoformat(cutoff))
    runs.update(status=RunStatus.FAILED, finished_at=timezone.now(), error=error[:2000])


def report_runs_resend_stuck(*, older_than: int = STUCK_AFTER) -> int:
    """Send again the runs still queued after ``older_than`` seconds (the queue was down)."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    stuck = list(ReportRun.objects.filter(status=RunStatus.QUEUED, queued_at__lt=cutoff))
    for run in stuck:
        _enqueue(run)
    return len(stuck)
