"""Celery's queues per kind of work (portal/core/queues.py): each task's queue, and the
setting that names the queues a worker takes, read at start-up and refused when wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from portal.celery import app
from portal.core import queues

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "reports.run": "reports",
    "reports.audit_part": "reports",
    "reports.audit_join": "report-joins",
    "reports.audit_failed": "report-joins",
    "notifications.deliver": "notifications",
    "notifications.daily": "notifications",
    "notifications.limit_reached": "notifications",
    "reports.expiry_daily": "schedule",
    "reports.audit_daily": "schedule",
    "reports.account_summary_daily": "schedule",
    "reports.audit_monthly": "schedule",
    "reports.resend_stuck": "schedule",
    "compliance.expire_due_records": "schedule",
}


def _queue_of(name: str) -> str:
    """The queue Celery's router sends a task of this name to."""
    return app.amqp.router.route({}, name)["queue"].name


@pytest.mark.parametrize(("task", "queue"), sorted(EXPECTED.items()))
def test_each_task_is_sent_to_the_queue_of_its_kind_of_work(task, queue):
    assert _queue_of(task) == queue


def test_every_task_of_the_app_has_its_queue_named():
    app.loader.import_default_modules()  # the tasks autodiscovery finds, as a worker loads them
    ours = {name for name in app.tasks if not name.startswith("celery.")}

    assert ours == set(EXPECTED)
    assert set(queues.ROUTES) - {"celery.chord_unlock"} == ours


def test_celerys_chord_poll_goes_with_the_joins_and_anything_unnamed_to_the_schedule_queue():
    assert _queue_of("celery.chord_unlock") == "report-joins"
    assert _queue_of("a.task.nobody.routed") == "schedule"


def test_every_beat_entry_is_a_small_job_on_the_schedule_or_notifications_queue():
    from django.conf import settings

    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert _queue_of(entry["task"]) in ("schedule", "notifications"), entry


SHOW = (
    "import django; django.setup(); from portal.celery import app; "
    "queues = app.amqp.queues; before = sorted(queues.consume_from); "
    "sent_to = app.amqp.router.route({}, 'notifications.deliver')['queue']; "
    "print(','.join(before), sent_to.name, sent_to.exchange.name, sent_to.routing_key, "
    "','.join(sorted(queues.consume_from)))"
)


def _start(value: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JINZI_", "CELERY_"))}
    env.update(
        DJANGO_DEBUG="1", DJANGO_SETTINGS_MODULE="portal.settings", JINZI_VAR_DIR="/tmp/queues"
    )
    if value is not None:
        env["JINZI_WORKER_QUEUES"] = value
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=env, capture_output=True, text=True,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("value", "taken"),
    [
        (None, "notifications,report-joins,reports,schedule"),
        ("", "notifications,report-joins,reports,schedule"),
        ("reports", "reports"),
        (" reports , report-joins ", "report-joins,reports"),
        ("notifications,schedule", "notifications,schedule"),
    ],
)
def test_a_worker_takes_the_queues_the_setting_names_and_still_sends_to_the_others(value, taken):
    shown = _start(value)

    assert shown.returncode == 0, shown.stderr
    before, queue, exchange, key, after = shown.stdout.split()
    assert before == after == taken  # sending to a queue it does not take does not add it
    assert (queue, exchange, key) == ("notifications",) * 3  # where its workers read


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("reports,bogus", "JINZI_WORKER_QUEUES names queues that do not exist: bogus; the queues"),
        ("Reports", "JINZI_WORKER_QUEUES names queues that do not exist: Reports"),
        ("reports,reports", "JINZI_WORKER_QUEUES names a queue twice: reports, reports"),
        ("reports,,schedule", "JINZI_WORKER_QUEUES is a comma-separated list with an empty item"),
    ],
)
def test_a_bad_worker_queues_setting_stops_the_process_at_start_up(value, said):
    shown = _start(value)

    assert shown.returncode != 0
    assert "ImproperlyConfigured" in shown.stderr and said in shown.stderr, shown.stderr
