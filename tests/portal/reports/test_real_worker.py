"""A real Celery worker process, on Redis, takes a report run from queued to succeeded.

CI's PostgreSQL pass starts a Redis server and sets ``JINZI_TEST_REDIS_URL``; the worker
process reaches the test database, so the run and its files are seen from both sides.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from portal.reports.models import ReportRun, RunStatus


def redis_of_this_process(url: str) -> str:
    """The suite's Redis database for this test process: the one given, moved on by the
    pytest-xdist worker's number (gw0 keeps it, gw1 takes the next…), so the workers two
    test processes start never take each other's tasks (each process has its own test
    database)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    if not url:
        return url
    given = urlsplit(url)
    database = int(given.path.strip("/") or 0) + int(worker.removeprefix("gw") or 0)
    return urlunsplit(given._replace(path=f"/{database}"))


REDIS_URL = redis_of_this_process(os.environ.get("JINZI_TEST_REDIS_URL", ""))
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


VISIBILITY = 2  # seconds before Redis hands a dead worker's message to another


def _env(tmp_path) -> dict:
    """What a process of the deployment sees: the test database, Redis, shared reports (and
    no replica: the replica's address names the CI's database, not this test's)."""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_REPLICA_URL"}
    return dict(
        environment,
        DATABASE_URL=_database_url(),
        CELERY_BROKER_URL=REDIS_URL,
        CELERY_TASK_ALWAYS_EAGER="0",
        JINZI_BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY),
        JINZI_VAR_DIR=str(tmp_path),
        JINZI_REPORTS_DIR=str(settings.JINZI_REPORTS_DIR),
    )


@pytest.fixture
def workers(tmp_path, settings):
    """``start()`` a worker process; every one started is stopped at the end."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    started = []

    def start():
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool=solo",
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def _ask(tmp_path) -> ReportRun:
    """Ask for an expiry report from another process, as the web server would."""
    asked = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", ASK],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    run_id, created, status = asked.stdout.split()[-3:]
    assert (created, status) == ("True", "queued")
    return ReportRun.objects.get(pk=int(run_id))


def _wait(run: ReportRun, until, worker, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if until(run):
            return
        time.sleep(0.01)
    worker.terminate()
    pytest.fail(f"the run is still {run.status}; the worker said:\n{worker.communicate()[0]}")


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


def test_811a9_a_worker_process_runs_a_report_and_its_files_verify(workers, auditor, tmp_path):
    worker = workers()
    run = _ask(tmp_path)

    _wait(run, lambda run: not run.active, worker)

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempts == 1
    _files_verify(run)


def test_811a9_a_worker_killed_mid_run_leaves_it_to_another_which_completes_it_once(
    workers, auditor, tmp_path
):
    # Enough records that a run takes seconds, so the kill lands while it works.
    call_command("generate_expiry_history", offerings=100, versions=1000, verbosity=0)
    first = workers()
    run = _ask(tmp_path)
    _wait(run, lambda run: run.status == RunStatus.RUNNING, first)

    first.send_signal(signal.SIGKILL)  # no clean shutdown: the message stays unacknowledged
    first.wait(timeout=20)
    assert ReportRun.objects.get(pk=run.pk).status == RunStatus.RUNNING
    # A new worker looks for messages unacknowledged past the visibility timeout as it
    # starts (then only every 100 s or so): start it once the timeout has passed.
    time.sleep(VISIBILITY + 1)
    second = workers()

    _wait(run, lambda run: not run.active, second)

    assert run.status == RunStatus.SUCCEEDED, run.error
    assert run.attempts == 2
    _files_verify(run)
