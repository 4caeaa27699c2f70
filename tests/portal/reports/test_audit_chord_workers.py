"""An audit run shared among two real Celery worker processes (§ 811a.9): on Redis, with a
result backend, the run is split into three parts by gaming day, the parts run on the
workers, the join builds the report, and it is the report made in one process; a part that
fails fails the run.

Like ``test_real_worker``: CI's PostgreSQL pass starts a Redis server and sets
``JINZI_TEST_REDIS_URL``; the broker and the result backend share that database (their keys
never meet), and the worker processes reach the test database.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from portal.reports.models import ReportRun, RunStatus
from tests.portal.reports.runs import stored
from tests.portal.reports.test_audit_split import END, START, _same_report, history  # noqa: F401
from tests.portal.reports.test_real_worker import REDIS_URL, ROOT
from tests.portal.reports.test_real_worker import _env as _worker_env

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not REDIS_URL, reason="needs Redis (JINZI_TEST_REDIS_URL); .ci/run starts one"
    ),
]

SPLITS = 3


def _env(tmp_path) -> dict:
    return dict(
        _worker_env(tmp_path), CELERY_RESULT_BACKEND=REDIS_URL, JINZI_AUDIT_SPLITS=str(SPLITS)
    )


@pytest.fixture
def two_workers(tmp_path, settings):
    """Two worker processes, each taking one task at a time, ready; stopped at the end."""
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    started, logs = [], []
    for number in (1, 2):
        log = tmp_path / f"worker{number}.log"
        logs.append(log)
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "portal",
                    "worker",
                    "--pool=solo",
                    "--loglevel=INFO",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-n",
                    f"audit{number}@%h",
                ],
                cwd=ROOT,
                env=_env(tmp_path),
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        )
    deadline = time.monotonic() + 60
    while not all("ready." in log.read_text() for log in logs):
        assert time.monotonic() < deadline, "\n".join(log.read_text() for log in logs)
        time.sleep(0.1)
    yield logs
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _shell(tmp_path, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-1]


def _wait(run_id: int, logs: list[Path], seconds: float = 120) -> ReportRun:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = ReportRun.objects.get(pk=run_id)
        if not run.active:
            return run
        time.sleep(0.05)
    pytest.fail(f"the run is still {run.status}; the workers said:\n" + _said(logs))


def _said(logs: list[Path]) -> str:
    return "\n".join(log.read_text() for log in logs)


def _said_once(logs: list[Path], line: str, seconds: float = 15) -> str:
    """The workers' logs once ``line`` (a pattern) is in them, or as they are after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    said = _said(logs)
    while not re.search(line, said) and time.monotonic() < deadline:
        time.sleep(0.1)
        said = _said(logs)
    return said


ASK = (
    "from django.contrib.auth import get_user_model; "
    "from portal.reports.services.runs import report_run_request; "
    "run, created = report_run_request(actor=get_user_model().objects.get(username='auditor'), "
    f"kind='audit', parameters={{'start': '{START}', 'end': '{END}'}}, via='api'); "
    "print(run.pk)"
)


def test_811a9_two_workers_share_an_audit_run_and_make_the_one_process_report(
    two_workers,
    auditor,
    history,  # noqa: F811
    tmp_path,
):
    run = _wait(int(_shell(tmp_path, ASK)), two_workers)

    assert run.status == RunStatus.SUCCEEDED, run.error + _said(two_workers)
    assert run.attempts == 1 and run.cutoff is not None
    assert (run.progress_done, run.progress_total) == (SPLITS + 1, SPLITS + 1)
    # A worker logs a task's success after the task has returned (and the join marked the
    # run done): read the logs once that line is there, or after a bounded wait.
    said = _said_once(two_workers, r"Task reports\.audit_join\[[^]]+\] succeeded")
    assert len(re.findall(r"Task reports\.audit_part\[[^]]+\] succeeded", said)) == SPLITS
    assert len(re.findall(r"Task reports\.audit_join\[[^]]+\] succeeded", said)) == 1
    _same_report(json.loads(stored(run, "json")), run.cutoff)


# A part over days outside the period: ``scope.part`` refuses it in the worker (ValueError).
LAUNCH_A_BAD_PART = (
    "import datetime; from django.utils import timezone; "
    "from portal.reports.models import ReportRun; from portal.reports.services import split; "
    "cutoff = timezone.now(); "
    "run = ReportRun.objects.create(kind='audit', definition_version='1', status='running', "
    f"parameters={{'start': '{START}', 'end': '{END}', 'holder': None, 'offering': None, "
    "'win_threshold': 1000000}, parameters_key='bad-part', requested_via='api', "
    "cutoff=cutoff); "
    f"split.split_launch(run, cutoff, [(datetime.date({START.year}, {START.month}, "
    f"{START.day}), datetime.date({END.year}, {END.month}, {END.day})), "
    f"(datetime.date({END.year}, {END.month}, {END.day}) + datetime.timedelta(days=1), "
    f"datetime.date({END.year}, {END.month}, {END.day}) + datetime.timedelta(days=1))]); "
    "print(run.pk)"
)


def test_811a9_a_part_that_fails_in_a_worker_fails_the_run(two_workers, auditor, tmp_path):
    run = _wait(int(_shell(tmp_path, LAUNCH_A_BAD_PART)), two_workers)

    assert run.status == RunStatus.FAILED, _said(two_workers)
    assert "ValueError" in run.error and "is not within" in run.error, run.error
    assert run.finished_at is not None
    assert not run.files.exists()
