"""Queues per kind of work, on real Celery workers: while the only report worker is stuck in a
report, a notification is still delivered, by the worker that takes the notifications queue.

The report worker is held inside a report run's task: this test locks the run's row first,
so the worker's claim waits on PostgreSQL until the test lets go. The notification is a
finished run's notice, which ``notifications.deliver`` makes. The workers: ``workers``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from portal.notifications.models import Notification
from portal.notifications.sources.runs import run_key
from portal.reports import definitions
from portal.reports.models import ReportRun, RunStatus
from tests.portal.reports.workers import NEEDS_WORKERS, shell, until, waiting_on_a_lock

pytestmark = NEEDS_WORKERS

DELIVERED_WITHIN = 60  # seconds: a generous bound on "delivered at all", not a speed


def _run(auditor, **fields) -> ReportRun:
    return ReportRun.objects.create(
        kind="expiry",
        definition_version=definitions.definition("expiry").version,
        parameters={"as_of": timezone.localdate().isoformat(), "holder": None, "offering": None},
        parameters_key=f"queues-{ReportRun.objects.count()}",
        requested_by=auditor,
        requested_via="api",
        **fields,
    )


def test_a_blocked_report_queue_does_not_delay_a_notification(worker_processes, auditor, tmp_path):
    reports = worker_processes.start("reports", JINZI_WORKER_QUEUES="reports,report-joins")
    jobs = worker_processes.start("jobs", JINZI_WORKER_QUEUES="notifications,schedule")
    logs = worker_processes.said
    slow = _run(auditor, status=RunStatus.QUEUED)
    finished = _run(
        auditor, status=RunStatus.FAILED, finished_at=timezone.now(), attempts=1, error="x"
    )

    with transaction.atomic():
        ReportRun.objects.select_for_update().get(pk=slow.pk)  # the report's claim waits
        shell(
            tmp_path,
            "from celery import current_app; "
            f"current_app.signature('reports.run', args=({slow.pk},)).apply_async()",
        )
        until(lambda: waiting_on_a_lock() == 1, DELIVERED_WITHIN, logs)

        shell(tmp_path, "from portal.notifications.tasks import deliver; deliver.delay()")
        until(
            lambda: Notification.objects.filter(key=run_key(finished)).exists(),
            DELIVERED_WITHIN,
            logs,
        )

        # Delivered while the report worker is still inside the report, waiting.
        assert waiting_on_a_lock() == 1
        assert ReportRun.objects.get(pk=slow.pk).status == RunStatus.QUEUED
        # Each worker took only its own queues' tasks (the banner lists every task known).
        assert "Task notifications.deliver[" not in reports.said()
        assert "Task notifications.deliver[" in jobs.said()
        assert "Task reports.run[" not in jobs.said()

    # Let go: the report worker finishes the report it was held in.
    until(lambda: not ReportRun.objects.get(pk=slow.pk).active, DELIVERED_WITHIN, logs)
    assert ReportRun.objects.get(pk=slow.pk).status == RunStatus.SUCCEEDED, logs()
