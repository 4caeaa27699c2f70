"""Real Celery worker processes for the report tests that need them, in one place: the
environment a process of the deployment sees, starting a worker and waiting until it is
ready, sending work from another process (as the web server or beat would), and reading
what the workers said.

CI's PostgreSQL pass starts a Redis server and sets ``JINZI_TEST_REDIS_URL``; the worker
processes reach the test database, so runs and their files are seen from both sides.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection


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
VISIBILITY = 2  # seconds before Redis hands a dead worker's message to another

# What every real-worker test module needs: PostgreSQL, committed data, and Redis.
NEEDS_WORKERS = [
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


def worker_env(tmp_path, **extra: str) -> dict:
    """What a process of the deployment sees: the test database, Redis, shared reports (and
    no replica: the replica's address names the CI's database, not this test's), and
    ``extra``."""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_REPLICA_URL"}
    return dict(
        environment,
        DATABASE_URL=_database_url(),
        CELERY_BROKER_URL=REDIS_URL,
        CELERY_TASK_ALWAYS_EAGER="0",
        JINZI_BROKER_VISIBILITY_TIMEOUT=str(VISIBILITY),
        JINZI_VAR_DIR=str(tmp_path),
        JINZI_REPORTS_DIR=str(settings.JINZI_REPORTS_DIR),
        **extra,
    )


@dataclass
class Worker:
    process: subprocess.Popen
    log: Path

    def said(self) -> str:
        return self.log.read_text()


class Workers:
    """The worker processes a test starts; every one is stopped at the end (``workers``)."""

    def __init__(self, tmp_path: Path, **env: str):
        self.tmp_path, self.env, self.started = tmp_path, env, []

    def start(self, name: str, *, pool: str = "solo", ready: bool = True, **env: str) -> Worker:
        """A worker process named ``name`` on ``pool`` (``prefork`` runs one child), with
        ``env`` on top of the test's; ready (its banner's last line) unless ``ready`` is
        False."""
        log = self.tmp_path / f"{name}.log"
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", "worker", f"--pool={pool}",
             "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
             "--without-heartbeat", "-n", f"{name}@%h"],
            cwd=ROOT, env=worker_env(self.tmp_path, **self.env, **env),
            stdout=log.open("w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        worker = Worker(process, log)
        self.started.append(worker)
        deadline = time.monotonic() + 60
        while ready and "ready." not in worker.said():
            assert process.poll() is None and time.monotonic() < deadline, worker.said()
            time.sleep(0.1)
        return worker

    def said(self) -> str:
        return "\n".join(worker.said() for worker in self.started)

    def said_once(self, line: str, seconds: float = 15) -> str:
        """The workers' logs once ``line`` (a pattern) is in them, or as they are after
        ``seconds``: a worker logs a task's success after the task has returned."""
        deadline = time.monotonic() + seconds
        said = self.said()
        while not re.search(line, said) and time.monotonic() < deadline:
            time.sleep(0.1)
            said = self.said()
        return said

    def stop_all(self) -> None:
        for worker in self.started:
            if worker.process.poll() is None:
                worker.process.terminate()
                try:
                    worker.process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    worker.process.kill()
                    worker.process.wait()


def shell(tmp_path, code: str, **env: str) -> str:
    """Run ``code`` in ``manage.py shell`` as another process of the deployment would (the
    web server, beat); what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=worker_env(tmp_path, **env), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def until(check, seconds: float, said) -> None:
    """Wait until ``check()``; past ``seconds``, fail with ``said()``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(said())
        time.sleep(0.05)


def waiting_on_a_lock() -> int:
    """How many other sessions of this database wait on a lock (a worker held by a test)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]
