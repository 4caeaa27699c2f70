"""An audit run shared among real Celery worker processes (§ 811a.9): on Redis, with a
result backend, the run is split into three parts by gaming day, the parts run on the
workers, the join builds the report, and it is the report made in one process; a part that
fails fails the run, and so does a part whose worker process is killed under it, which a
retry then makes again.

The broker and the result backend share the test's Redis database (their keys never meet);
the workers: ``workers``.
"""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from portal.game.models import Round
from portal.reports import definitions
from portal.reports.audit_report.scope import last_round_before
from portal.reports.models import ReportRun, RunStatus
from portal.reports.services.runs import WORKER_LOST
from tests.portal.reports.runs import stored
from tests.portal.reports.test_audit_split import END, START, _same_report, history  # noqa: F401
from tests.portal.reports.workers import (
    NEEDS_WORKERS,
    REDIS_URL,
    Workers,
    shell,
    until,
    waiting_on_a_lock,
)

pytestmark = NEEDS_WORKERS

SPLITS = 3
SPLIT = {"CELERY_RESULT_BACKEND": REDIS_URL, "JINZI_AUDIT_SPLITS": str(SPLITS)}
WITHIN = 120  # seconds: a generous bound on "done at all", not a speed


@pytest.fixture
def two_workers(worker_processes):
    """Two worker processes, each taking one task at a time, ready."""
    worker_processes.env.update(SPLIT)
    for number in (1, 2):
        worker_processes.start(f"audit{number}")
    return worker_processes


def _wait(run_id: int, workers: Workers) -> ReportRun:
    until(lambda: not ReportRun.objects.get(pk=run_id).active, WITHIN, workers.said)
    return ReportRun.objects.get(pk=run_id)


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
    run = _wait(int(shell(tmp_path, ASK, **SPLIT).split()[-1]), two_workers)

    assert run.status == RunStatus.SUCCEEDED, run.error + two_workers.said()
    assert run.attempts == 1 and run.cutoff is not None
    assert (run.progress_done, run.progress_total) == (SPLITS + 1, SPLITS + 1)
    # A worker logs a task's success after the task has returned (and the join marked the
    # run done): read the logs once that line is there, or after a bounded wait.
    said = two_workers.said_once(r"Task reports\.audit_join\[[^]]+\] succeeded")
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
    run = _wait(int(shell(tmp_path, LAUNCH_A_BAD_PART, **SPLIT).split()[-1]), two_workers)

    assert run.status == RunStatus.FAILED, two_workers.said()
    # In plain words: the part's own message, neither its error's type nor Celery's wrapping.
    assert run.error.startswith("an unexpected error stopped the report ("), run.error
    assert "is not within" in run.error, run.error
    assert "ValueError" not in run.error and "Dependency" not in run.error, run.error
    assert run.finished_at is not None
    assert not run.files.exists()


def _pool_children(pid: int) -> list[int]:
    """The processes a worker's prefork pool runs its tasks in (Linux's own list)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children]


def test_811a9_a_worker_lost_mid_part_fails_the_run_and_a_retry_makes_it_again(
    worker_processes,
    auditor,
    history,  # noqa: F811
    tmp_path,
):
    worker_processes.env.update(SPLIT)
    worker = worker_processes.start("prefork", pool="prefork")
    cutoff = timezone.now()
    run = ReportRun.objects.create(
        kind="audit",
        definition_version=definitions.definition("audit").version,
        status=RunStatus.RUNNING,
        attempts=1,
        parameters=definitions.clean("audit", {"start": START.isoformat(), "end": END.isoformat()}),
        parameters_key="lost-part",
        requested_by=auditor,
        requested_via="api",
        cutoff=cutoff,
        last_round=last_round_before(cutoff),
        read_from="default",
    )
    launch = (
        "from portal.reports.models import ReportRun; from portal.reports.services import split; "
        f"run = ReportRun.objects.get(pk={run.pk}); "
        "split.split_launch(run, run.cutoff, split.split_plan(run))"
    )

    with transaction.atomic():
        # The first part to read the rounds waits on this lock, inside the pool's process.
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {Round._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        shell(tmp_path, launch, **SPLIT)
        until(lambda: waiting_on_a_lock() == 1, WITHIN, worker_processes.said)
        [child] = _pool_children(worker.process.pid)
        os.kill(child, signal.SIGKILL)  # no clean end: the part dies with its process

    failed = _wait(run.pk, worker_processes)
    assert failed.status == RunStatus.FAILED, worker_processes.said()
    assert failed.error == WORKER_LOST
    assert not failed.files.exists()
    said = worker_processes.said()
    assert "WorkerLostError" in said and "Task reports.audit_join[" not in said

    # Asked again: the whole run is made again, by the pool's new process, and it is the
    # report made in one process, as of the new attempt's instant.
    shell(
        tmp_path,
        "from django.contrib.auth import get_user_model; "
        "from portal.reports.models import ReportRun; "
        "from portal.reports.services.runs import report_run_retry; "
        "report_run_retry(actor=get_user_model().objects.get(username='auditor'), "
        f"run=ReportRun.objects.get(pk={run.pk}))",
        **SPLIT,
    )
    made = _wait(run.pk, worker_processes)
    assert made.status == RunStatus.SUCCEEDED, made.error + worker_processes.said()
    assert made.attempts == 2 and made.cutoff > cutoff
    _same_report(json.loads(stored(made, "json")), made.cutoff)
