"""Queues per kind of work, on real Celery workers: while the only report worker is stuck in a
report, a notification is still delivered, by the worker that takes the notifications queue.

The report worker is held inside a report run's task: this test locks the run's row first,
so the worker's claim waits on PostgreSQL until the test lets go. The notification is a
finished run's notice, which ``notifications.deliver`` makes. Like ``test_real_worker``:
needs PostgreSQL and Redis (``JINZI_TEST_REDIS_URL``).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from portal.notifications.models import Notification
from portal.notifications.sources import run_key
from portal.reports import definitions
from portal.reports.models import ReportRun, RunStatus
from tests.portal.reports.test_real_worker import REDIS_URL, ROOT
from tests.portal.reports.test_real_worker import _env as _worker_env

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not REDIS_URL, reason="needs Redis (JINZI_TEST_REDIS_URL); .ci/run starts one"
    ),
]

DELIVERED_WITHIN = 60  # seconds: a generous bound on "delivered at all", not a speed


@pytest.fixture
def queue_workers(tmp_path, settings):
    """``start(name, queues)``: a worker process taking only ``queues``
    (``JINZI_WORKER_QUEUES``), ready; its log's path. Every one is stopped at the end."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    started = []

    def start(name: str, queues: str):
        log = tmp_path / f"{name}.log"
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo",
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-n", f"{name}@%h"],
            cwd=ROOT, env=dict(_worker_env(tmp_path), JINZI_WORKER_QUEUES=queues),
            stdout=log.open("w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        started.append(process)
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        return log

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _send(tmp_path, code: str) -> None:
    """Send a task from another process, as the web server or beat would."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=_worker_env(tmp_path), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _waiting_on_a_lock() -> int:
    """How many other sessions of this database wait on a lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def _until(check, seconds: float, said) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(said())
        time.sleep(0.1)


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


def test_a_blocked_report_queue_does_not_delay_a_notification(queue_workers, auditor, tmp_path):
    reports_log = queue_workers("reports", "reports,report-joins")
    jobs_log = queue_workers("jobs", "notifications,schedule")
    logs = lambda: reports_log.read_text() + jobs_log.read_text()  # noqa: E731
    slow = _run(auditor, status=RunStatus.QUEUED)
    finished = _run(
        auditor, status=RunStatus.FAILED, finished_at=timezone.now(), attempts=1, error="x"
    )

    with transaction.atomic():
        ReportRun.objects.select_for_update().get(pk=slow.pk)  # the report's claim waits
        _send(
            tmp_path,
            "from celery import current_app; "
            f"current_app.signature('reports.run', args=({slow.pk},)).apply_async()",
        )
        _until(lambda: _waiting_on_a_lock() == 1, DELIVERED_WITHIN, logs)

        _send(tmp_path, "from portal.notifications.tasks import deliver; deliver.delay()")
        _until(
            lambda: Notification.objects.filter(key=run_key(finished)).exists(),
            DELIVERED_WITHIN,
            logs,
        )

        # Delivered while the report worker is still inside the report, waiting.
        assert _waiting_on_a_lock() == 1
        assert ReportRun.objects.get(pk=slow.pk).status == RunStatus.QUEUED
        # Each worker took only its own queues' tasks (the banner lists every task known).
        assert "Task notifications.deliver[" not in reports_log.read_text()
        assert "Task notifications.deliver[" in jobs_log.read_text()
        assert "Task reports.run[" not in jobs_log.read_text()

    # Let go: the report worker finishes the report it was held in.
    _until(lambda: not ReportRun.objects.get(pk=slow.pk).active, DELIVERED_WITHIN, logs)
    assert ReportRun.objects.get(pk=slow.pk).status == RunStatus.SUCCEEDED, logs()
