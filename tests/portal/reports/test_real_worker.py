"""A real Celery worker process, on Redis, takes a report run from queued to succeeded.

CI's PostgreSQL pass starts a Redis server and sets ``JINZI_TEST_REDIS_URL``; the worker
process reaches the test database, so the run and its files are seen from both sides.
"""

from __future__ import annotations

import hashlib
import signal
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from portal.reports.models import ReportRun, RunStatus
from tests.portal.reports.workers import NEEDS_WORKERS, VISIBILITY, Worker, shell

pytestmark = NEEDS_WORKERS


def _ask(tmp_path) -> ReportRun:
    """Ask for an expiry report from another process, as the web server would."""
    run_id, created, status = shell(tmp_path, ASK).split()[-3:]
    assert (created, status) == ("True", "queued")
    return ReportRun.objects.get(pk=int(run_id))


def _wait(run: ReportRun, until, worker: Worker, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if until(run):
            return
        time.sleep(0.01)
    pytest.fail(f"the run is still {run.status}; the worker said:\n{worker.said()}")


def _files_verify(run: ReportRun) -> None:
    files = list(run.files.all())
    assert {f.format for f in files} == {"json", "csv", "xlsx", "pdf"}
    for report_file in files:
        content = (Path(settings.JINZI_REPORTS_DIR) / report_file.name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == report_file.sha256
    assert sorted(p.name for p in Path(settings.JINZI_REPORTS_DIR).iterdir()) == sorted(
        f.name for f in files
    )  # one set of outputs, and nothing half written


ASK = (
    "from django.contrib.auth import get_user_model; "
    "from portal.reports.services.runs import report_run_request; "
    "run, created = report_run_request(actor=get_user_model().objects.get(username='auditor'), "
    "kind='expiry', parameters={}, via='api'); print(run.pk, created, run.status)"
)


def test_811a9_a_worker_process_runs_a_report_and_its_files_verify(
    worker_processes, auditor, tmp_path
):
    worker = worker_processes.start("reports")
    run = _ask(tmp_path)

    _wait(run, lambda run: not run.active, worker)

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempts == 1
    _files_verify(run)


def test_811a9_a_worker_killed_mid_run_leaves_it_to_another_which_completes_it_once(
    worker_processes, auditor, tmp_path
):
    # Enough records that a run takes seconds, so the kill lands while it works.
    call_command("generate_expiry_history", offerings=100, versions=1000, verbosity=0)
    first = worker_processes.start("first")
    run = _ask(tmp_path)
    _wait(run, lambda run: run.status == RunStatus.RUNNING, first)

    first.process.send_signal(signal.SIGKILL)  # no clean shutdown: the message stays unacknowledged
    first.process.wait(timeout=20)
    assert ReportRun.objects.get(pk=run.pk).status == RunStatus.RUNNING
    # A new worker looks for messages unacknowledged past the visibility timeout as it
    # starts (then only every 100 s or so): start it once the timeout has passed.
    time.sleep(VISIBILITY + 1)
    second = worker_processes.start("second")

    _wait(run, lambda run: not run.active, second)

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempts == 2
    _files_verify(run)
