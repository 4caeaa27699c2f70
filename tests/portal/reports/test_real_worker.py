"""A real Celery worker process, on Redis, takes a report run from queued to succeeded.

CI's PostgreSQL pass starts a Redis server and sets ``JINZI_TEST_REDIS_URL``; the worker
process reaches the test database, so the run and its files are seen from both sides.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from portal.reports.models import ReportRun, RunStatus

REDIS_URL = os.environ.get("JINZI_TEST_REDIS_URL", "")
ROOT = Path(__file__).resolve().parents[3]

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not REDIS_URL, reason="needs Redis (JINZI_TEST_REDIS_URL); .ci/run starts one"
    ),
]


def _database_url() -> str:
    db = connection.settings_dict
    user = db["USER"] or "postgres"
    return f"postgresql://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _env(tmp_path) -> dict:
    """What a process of the deployment sees: the test database, Redis, shared reports."""
    return dict(
        os.environ,
        DATABASE_URL=_database_url(),
        CELERY_BROKER_URL=REDIS_URL,
        CELERY_TASK_ALWAYS_EAGER="0",
        JINZI_VAR_DIR=str(tmp_path),
        JINZI_REPORTS_DIR=str(settings.JINZI_REPORTS_DIR),
    )


@pytest.fixture
def worker(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo",
         "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


ASK = (
    "from django.contrib.auth import get_user_model; "
    "from portal.reports.services import report_run_request; "
    "run, created = report_run_request(actor=get_user_model().objects.get(username='auditor'), "
    "kind='expiry', parameters={}, via='api'); print(run.pk, created, run.status)"
)


def test_811a9_a_worker_process_runs_a_report_and_its_files_verify(worker, auditor, tmp_path):
    # Asked for by another process, as the web server would: queued on Redis at commit.
    asked = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", ASK],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, check=True,
    )  # fmt: skip
    run_id, created, status = asked.stdout.split()[-3:]
    assert (created, status) == ("True", "queued")
    run = ReportRun.objects.get(pk=int(run_id))

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if not run.active:
            break
        time.sleep(0.5)
    else:
        worker.terminate()
        pytest.fail(f"the run is still {run.status}; the worker said:\n{worker.communicate()[0]}")

    assert run.status == RunStatus.SUCCEEDED, run.error
    files = list(run.files.all())
    assert {f.format for f in files} == {"json", "csv", "xlsx", "pdf"}
    for report_file in files:
        content = (Path(settings.JINZI_REPORTS_DIR) / report_file.name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == report_file.sha256
    assert run.attempts == 1
