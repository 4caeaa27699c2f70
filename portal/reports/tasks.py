"""Report jobs: thin; each takes ids or nothing and calls a service. The services import no
task: they queue a run by its task's name (``RUN_TASK``), and a split audit run's chord by
its tasks' names (``split.PART_TASK``, ``JOIN_TASK``, ``FAILED_TASK``)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from portal.core.padates import pa_today
from portal.reports.models import ReportKind
from portal.reports.services.runs import (
    RUN_TASK,
    failure_said,
    report_run_execute,
    report_run_fail,
    report_run_join,
    report_run_part,
    report_run_request,
    report_runs_resend_stuck,
)
from portal.reports.services.schedules import (
    account_summaries_daily,
    audit_runs_daily,
    audit_runs_monthly,
)
from portal.reports.services.split import FAILED_TASK, JOIN_TASK, PART_TASK

MAX_RETRIES = 3
log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name=RUN_TASK,  # the services queue it by this name
    acks_late=True,  # a worker killed mid-run leaves the message for another
    reject_on_worker_lost=True,
    soft_time_limit=15 * 60,
    time_limit=16 * 60,
    max_retries=MAX_RETRIES,
)
def run_report(self, run_id: int) -> None:
    try:
        report_run_execute(run_id=run_id)
    except Exception as error:
        if self.request.retries >= self.max_retries:
            log.exception("report run %s failed on its last attempt", run_id)
            report_run_fail(run_id=run_id, error=failure_said(error))
            return
        # Back off 10 s, 20 s, 40 s: the run is claimed again and its files rewritten.
        raise self.retry(exc=error, countdown=10 * 2**self.request.retries) from error


# A split audit run's part and join (``portal.reports.services.split``): time limits come
# with each message (the report's); only a database that cannot be reached is tried again,
# anything else fails the run at once through the error callback. A part whose worker
# process dies under it (killed, out of memory) fails the run too, rather than going back
# on the queue: a part that kills its worker would otherwise kill every worker that takes
# it, for ever. The run says so, and a retry makes it again from the start. (A whole worker
# host that vanishes never acknowledges its part, which the broker then hands to another.)
SPLIT_TASK = {
    "acks_late": True,
    "reject_on_worker_lost": False,
    "autoretry_for": (OperationalError, InterfaceError),
    "max_retries": MAX_RETRIES,
    "retry_backoff": 10,
}


@shared_task(name=PART_TASK, **SPLIT_TASK)
def audit_part(run_id: int, cutoff: str, first: str, last: str) -> dict | None:
    return report_run_part(run_id=run_id, cutoff=cutoff, first=first, last=last)


@shared_task(name=JOIN_TASK, **SPLIT_TASK)
def audit_join(parts: list, run_id: int, cutoff: str) -> None:
    report_run_join(run_id=run_id, cutoff=cutoff, parts=parts)


@shared_task(name=FAILED_TASK)
def audit_failed(request, exc, traceback, *, run_id: int, cutoff: str) -> None:
    """The chord's error callback: a part or the join failed, so the run did (the worker
    that ran it logged the error). A part's failure comes wrapped in the chord's error,
    naming the part's."""
    log.error("report run %s: a part or the join failed: %r", run_id, exc)
    report_run_fail(run_id=run_id, error=failure_said(exc), cutoff=cutoff)


@shared_task(name="reports.expiry_daily")
def expiry_report_daily() -> int:
    """The schedule's expiry report, as of the Pennsylvania date it runs on."""
    run, _ = report_run_request(
        actor=None,
        kind=ReportKind.EXPIRY,
        parameters={"as_of": pa_today().isoformat()},
        via="schedule",
    )
    return run.pk


@shared_task(name="reports.audit_daily")
def audit_report_daily() -> list[int]:
    """Each holder's audit report of its previous gaming day (hourly; made once)."""
    return [run.pk for run in audit_runs_daily(now=timezone.now())]


@shared_task(name="reports.account_summary_daily")
def account_summary_daily() -> list[int]:
    """Each holder's Player Account Summary of its previous gaming day (hourly; made once)."""
    return [run.pk for run in account_summaries_daily(now=timezone.now())]


@shared_task(name="reports.audit_monthly")
def audit_report_monthly() -> list[int]:
    """The previous month's audit report: all holders, and each holder's own (hourly; each
    made once its month's last gaming day has ended)."""
    return [run.pk for run in audit_runs_monthly(now=timezone.now())]


@shared_task(name="reports.resend_stuck")
def resend_stuck_runs() -> int:
    """Runs still queued a while after they were asked for (the queue was down): send again."""
    return report_runs_resend_stuck()
