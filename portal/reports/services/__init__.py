"""Report services, the only writers of runs and their files: ``runs`` (asking for a run,
running it, retrying it), ``schedules`` (the schedule's runs, each made once) and ``files``
(each format written whole, each download audited). Their public names are importable
from here."""

from portal.reports.services.files import report_file_downloaded, reports_dir
from portal.reports.services.runs import (
    NOT_FAILED,
    QUEUE_DOWN,
    RUN_TASK,
    STUCK_AFTER,
    report_run_execute,
    report_run_fail,
    report_run_request,
    report_run_retry,
    report_runs_resend_stuck,
)
from portal.reports.services.schedules import (
    audit_runs_daily,
    audit_runs_monthly,
    report_run_schedule,
)

__all__ = [
    "NOT_FAILED",
    "QUEUE_DOWN",
    "RUN_TASK",
    "STUCK_AFTER",
    "audit_runs_daily",
    "audit_runs_monthly",
    "report_file_downloaded",
    "report_run_execute",
    "report_run_fail",
    "report_run_request",
    "report_run_retry",
    "report_run_schedule",
    "report_runs_resend_stuck",
    "reports_dir",
]
