"""How long an audit run takes on real Celery workers, split over them by gaming day.

``time_split_run(start, end, workers, splits)`` starts ``workers`` worker processes (one
task at a time each) on the Redis server of ``REDIS_URL`` (broker and result backend), asks
for the audit report of ``start`` to ``end`` as the schedule does
(``report_run_request(actor=None, …)``), and returns the seconds from the request until the
run has succeeded (its files written). ``splits`` is ``JINZI_AUDIT_SPLITS``: 1 makes the
run in one piece, on one worker.

The database is the environment's (``DATABASE_URL``, migrated, with history); the calling
process needs no Django. For example, one worker against two:

    for workers in (1, 2):
        seconds = time_split_run(start, end, workers=workers, splits=max(workers, 2) * 2)
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY_WITHIN = 60  # seconds for a worker to start
RUN_WITHIN = 4 * 3600  # the audit report's time limit


def _environment(env: dict | None, splits: int, work: Path) -> dict:
    base = dict(os.environ if env is None else env)
    redis = base.get("REDIS_URL", "")
    if not redis.startswith(("redis://", "rediss://")):
        raise RuntimeError("set REDIS_URL to a Redis database (redis://host:port/n)")
    base.setdefault("JINZI_VAR_DIR", str(work))
    base.setdefault("JINZI_REPORTS_DIR", str(work / "reports"))
    base.update(
        DJANGO_SETTINGS_MODULE="portal.settings",
        CELERY_BROKER_URL=redis,
        CELERY_RESULT_BACKEND=redis,
        CELERY_TASK_ALWAYS_EAGER="0",
        JINZI_AUDIT_SPLITS=str(splits),
    )
    return base


def _start_workers(count: int, env: dict, work: Path) -> tuple[list, list[Path]]:
    processes, logs = [], []
    for number in range(1, count + 1):
        log = work / f"worker{number}.log"
        with log.open("w") as out:
            processes.append(
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
                        f"bench{number}@%h",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )  # fmt: skip
            )
        logs.append(log)
    deadline = time.monotonic() + READY_WITHIN
    while not all("ready." in log.read_text() for log in logs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            _stop(processes)
            said = "\n".join(log.read_text() for log in logs)
            raise RuntimeError(f"the workers did not start:\n{said}")
        time.sleep(0.1)
    return processes, logs


def _stop(processes: list) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def time_split_run(
    start: datetime.date,
    end: datetime.date,
    workers: int,
    splits: int,
    *,
    env: dict | None = None,
    parts_only: bool = False,
) -> float:
    """Seconds from asking for the audit run of ``start`` to ``end`` until it succeeded,
    on ``workers`` worker processes with ``JINZI_AUDIT_SPLITS=splits``; ``env`` (default
    this process's environment) names the database and ``REDIS_URL``. ``parts_only``: until
    its last part is done instead, the work that is shared (the join builds the document and
    writes every file on one worker, at 1,000,000 rounds minutes of its own); the run is
    then marked failed and its workers killed, so the next request makes a new run."""
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-chord-"))
    environment = _environment(env, splits, work)
    processes, logs = _start_workers(workers, environment, work)
    try:
        asked = subprocess.run(
            [sys.executable, __file__, "--ask", start.isoformat(), end.isoformat(),
             *(["--parts-only"] if parts_only else [])],
            cwd=ROOT, env=environment, capture_output=True, text=True, check=False,
        )  # fmt: skip
    finally:
        if parts_only:  # the join has nothing left to tell: no wait for it to end
            for process in processes:
                process.kill()
        _stop(processes)
    if asked.returncode != 0:
        said = "\n".join(log.read_text() for log in logs)
        raise RuntimeError(f"the run did not succeed:\n{asked.stderr}\n{said}")
    return float(asked.stdout.strip().splitlines()[-1])


def _ask(start: str, end: str, parts_only: bool) -> float:
    """The child's part: ask for the run as the schedule does, wait until it has ended (or,
    ``parts_only``, until its parts are done: then it is marked failed)."""
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from portal.reports.models import ReportRun, RunStatus
    from portal.reports.services.runs import report_run_request

    clock = time.perf_counter()
    run, _ = report_run_request(
        actor=None, kind="audit", parameters={"start": start, "end": end}, via="schedule"
    )
    deadline = time.monotonic() + RUN_WITHIN
    while run.active and time.monotonic() < deadline:
        if parts_only and 1 < run.progress_total <= run.progress_done + 1:
            seconds = time.perf_counter() - clock
            ReportRun.objects.filter(pk=run.pk).update(
                status=RunStatus.FAILED, error="The bench stopped it once its parts were done."
            )
            return seconds
        time.sleep(0.05)
        run = ReportRun.objects.get(pk=run.pk)
    seconds = time.perf_counter() - clock
    if run.status != RunStatus.SUCCEEDED:
        raise SystemExit(f"run {run.pk} is {run.status}: {run.error}")
    return seconds


if __name__ == "__main__":
    if sys.argv[1:2] == ["--ask"]:
        print(f"{_ask(sys.argv[2], sys.argv[3], sys.argv[4:5] == ['--parts-only']):.3f}")
    else:
        raise SystemExit("use time_split_run(start, end, workers, splits) from a bench")
