"""Report runs: requesting one, running it, its files, retrying it. The only writers.

A run is asked for once (the same kind, parameters and definition version while one is
queued or running is that run), queued on Celery after the request commits, claimed by a
worker, built into its document, and written in every format. Each file is written to a
temporary name in the reports folder, then moved to its final name and recorded in one
step, so a retried run never leaves two outputs or half a file.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import os
import uuid
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

import jinzi
from portal.access.policy import Action, require
from portal.accounts.models import CertificateHolder
from portal.audit.services import audit_record
from portal.core.errors import Conflict
from portal.core.padates import gaming_day, pa_date
from portal.reports import definitions, render
from portal.reports.models import ACTIVE_STATUSES, ReportFile, ReportKind, ReportRun, RunStatus

log = logging.getLogger(__name__)

QUEUE_DOWN = (
    "the report is recorded and queued; the job queue cannot be reached just now, so it "
    "will start when the queue is back"
)
NOT_FAILED = "only a failed run can be retried; this one is {status}"
STUCK_AFTER = 300  # seconds a run may wait in the queue before the sweep sends it again


def reports_dir() -> Path:
    folder = Path(settings.JINZI_REPORTS_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _picture(run: ReportRun) -> dict:
    return {
        "kind": run.kind,
        "definition_version": run.definition_version,
        "parameters": run.parameters,
        "status": run.status,
    }


def _enqueue(run: ReportRun) -> None:
    """Send the run to the workers; if the broker is down, it stays queued (the sweep
    sends it again) and the caller can say so."""
    from portal.reports.tasks import run_report

    limits = definitions.definition(run.kind).time_limits
    try:
        run_report.apply_async((run.pk,), soft_time_limit=limits[0], time_limit=limits[1])
    except Exception:  # kombu raises its own errors, whatever the transport
        log.exception("report run %s could not be queued", run.pk)
        run.queue_unreachable = True


@transaction.atomic
def report_run_request(*, actor, kind: str, parameters, via: str) -> tuple[ReportRun, bool]:
    """Ask for a report; returns (run, created). ``actor`` None is the schedule."""
    if actor is not None:
        require(actor, Action.RUN_REPORTS)
    report = definitions.definition(kind)
    cleaned = definitions.clean(kind, parameters)
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
def report_run_schedule(*, kind: str, parameters: dict) -> tuple[ReportRun, bool]:
    """The schedule's request: as ``report_run_request``, but a report that already ran
    (or is running) with these parameters is not asked for again, so a schedule that fires
    more often than its reports change (hourly, for gaming days that end at different
    hours) makes each report once. A failed run is asked for again."""
    report = definitions.definition(kind)
    cleaned = definitions.clean(kind, parameters)
    key = json.dumps(cleaned, sort_keys=True, separators=(",", ":"))
    done = ReportRun.objects.filter(
        kind=kind, parameters_key=key, definition_version=report.version
    ).exclude(status=RunStatus.FAILED)
    existing = done.order_by("-pk").first()
    if existing is not None:
        return existing, False
    return report_run_request(actor=None, kind=kind, parameters=cleaned, via="schedule")


def audit_runs_daily(*, now: datetime.datetime) -> list[ReportRun]:
    """Each holder's audit report of its previous gaming day, once that day has ended.

    The schedule calls this hourly, since a holder's gaming day may start at any hour
    (DOMAIN.md 2a); a report already made is not asked for again."""
    runs = []
    for holder_pk, start_hour in CertificateHolder.objects.order_by("pk").values_list(
        "pk", "gaming_day_start_hour"
    ):
        day = gaming_day(now, start_hour) - datetime.timedelta(days=1)
        if jinzi.EFFECTIVE <= day < jinzi.SUNSET:
            period = {"start": day.isoformat(), "end": day.isoformat(), "holder": holder_pk}
            runs.append(report_run_schedule(kind=ReportKind.AUDIT, parameters=period)[0])
    return runs


def audit_runs_monthly(*, now: datetime.datetime) -> list[ReportRun]:
    """The audit report of the calendar month before ``now``'s (Pennsylvania), for each holder
    once its last gaming day of that month has ended, and for all holders once every
    holder's has (its days within § 617b.8's life).

    The schedule calls this hourly: a holder whose gaming day starts at 06:00 finishes the
    month's last day on the 1st at 06:00, and its report must not be cut short."""
    end = pa_date(now).replace(day=1) - datetime.timedelta(days=1)
    start = max(end.replace(day=1), jinzi.EFFECTIVE)
    end = min(end, jinzi.SUNSET - datetime.timedelta(days=1))
    if start > end:
        return []
    period = {"start": start.isoformat(), "end": end.isoformat()}
    ended = {
        holder_pk: gaming_day(now, start_hour) - datetime.timedelta(days=1) >= end
        for holder_pk, start_hour in CertificateHolder.objects.order_by("pk").values_list(
            "pk", "gaming_day_start_hour"
        )
    }
    holders = [pk for pk, done in ended.items() if done]
    if ended and all(ended.values()):
        holders.insert(0, None)
    return [
        report_run_schedule(kind=ReportKind.AUDIT, parameters={**period, "holder": holder})[0]
        for holder in holders
    ]


@transaction.atomic
def report_run_retry(*, actor, run: ReportRun) -> ReportRun:
    require(actor, Action.RUN_REPORTS)
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


class _Hashing:
    """A binary file that counts and hashes what is written through it."""

    def __init__(self, raw) -> None:
        self.raw, self.size, self.sha256 = raw, 0, hashlib.sha256()

    def write(self, data) -> int:
        self.raw.write(data)
        self.size += len(data)
        self.sha256.update(data)
        return len(data)

    def flush(self) -> None:
        self.raw.flush()

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return self.raw.closed


def _write_file(run: ReportRun, document: dict, fmt: str) -> None:
    writer, content_type, extension = render.FORMATS[fmt]
    folder = reports_dir()
    name = f"{run.kind}-{run.pk}.{extension}"
    temporary = folder / f".{name}.{uuid.uuid4().hex}.part"
    try:
        with open(temporary, "wb") as raw:
            out = _Hashing(raw)
            writer(document, out)
            raw.flush()
            os.fsync(raw.fileno())
        with transaction.atomic():
            ReportFile.objects.update_or_create(
                run=run,
                format=fmt,
                defaults={
                    "name": name,
                    "content_type": content_type,
                    "size": out.size,
                    "sha256": out.sha256.hexdigest(),
                },
            )
            os.replace(temporary, folder / name)  # last: the row rolls back if this fails
    finally:
        temporary.unlink(missing_ok=True)


def _sweep_partial_files(run: ReportRun) -> None:
    """A worker killed while writing leaves its temporary file: the next attempt removes it."""
    for leftover in reports_dir().glob(f".{run.kind}-{run.pk}.*.part"):
        leftover.unlink(missing_ok=True)


def report_run_execute(*, run_id: int) -> None:
    """The worker's part: claim the run, build its document, write every format, done."""
    if not _claim(run_id):
        return  # finished already (a duplicate message): nothing to do
    run = ReportRun.objects.get(pk=run_id)
    _sweep_partial_files(run)
    report = definitions.definition(run.kind)
    document = report.build(run.parameters, lambda done, total: _progress(run_id, done, total))
    for fmt in render.FORMATS:
        _write_file(run, document, fmt)
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


@transaction.atomic
def report_file_downloaded(*, actor, report_file: ReportFile, via: str) -> Path:
    """Record who took a copy (each download is in the audit trail); the file's path."""
    audit_record(
        actor=actor,
        action="report.download",
        object_type="report_run",
        object_id=report_file.run_id,
        after={
            "format": report_file.format,
            "sha256": report_file.sha256,
            "size": report_file.size,
            "via": via,
        },
    )
    return reports_dir() / report_file.name
