"""Celery's queues: one per kind of work, so that a slow kind never holds up another.

A worker takes the queues ``JINZI_WORKER_QUEUES`` names (all of them by default): at scale,
report workers take ``reports`` and ``report-joins``, and other workers ``notifications``
and ``schedule``, so an hour-long audit report never delays an email or the midnight job
(docs/operations.md). Tasks are routed here by their names (Celery's ``task_routes``); the
settings read this module, and a test checks every task the app knows has its queue.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

# Every report run (reports.run) and the parts a split audit run is shared into: the long work.
REPORTS = "reports"
# A split audit run's join and its error callback: short, and what the person who asked waits
# for, so they never queue behind the parts of other runs.
REPORT_JOINS = "report-joins"
# Inboxes, emails, digests and the game's limit notices: due within the minute.
NOTIFICATIONS = "notifications"
# Beat's small jobs: they only ask for runs (queued on ``reports``) or expire records; also
# where a task no route names would go (Celery's default queue).
SCHEDULE = "schedule"

QUEUES = (REPORTS, REPORT_JOINS, NOTIFICATIONS, SCHEDULE)

# Task name -> queue. The names are the tasks' own (``shared_task(name=…)``); the settings
# cannot import the task modules (they import the models), so they are written out here.
ROUTES = {
    "reports.run": REPORTS,
    "reports.audit_part": REPORTS,
    "reports.audit_join": REPORT_JOINS,
    "reports.audit_failed": REPORT_JOINS,
    # Celery's own poll for a chord's parts, sent only by result backends that cannot join
    # them natively (Redis can): it belongs with the joins.
    "celery.chord_unlock": REPORT_JOINS,
    "notifications.deliver": NOTIFICATIONS,
    "notifications.daily": NOTIFICATIONS,
    "notifications.limit_reached": NOTIFICATIONS,
    "reports.expiry_daily": SCHEDULE,
    "reports.audit_daily": SCHEDULE,
    "reports.account_summary_daily": SCHEDULE,
    "reports.audit_monthly": SCHEDULE,
    "reports.resend_stuck": SCHEDULE,
    "compliance.expire_due_records": SCHEDULE,
}


def task_routes() -> dict[str, dict[str, str]]:
    """``ROUTES`` as Celery's ``task_routes`` setting reads it."""
    return {name: {"queue": queue} for name, queue in ROUTES.items()}


def queue(name: str) -> Queue:
    """A queue with its own direct exchange and routing key, both its name: the same queue
    Celery makes for a name it meets while sending (``task_create_missing_queues``), so a
    process that does not take a queue still sends to it where its workers read."""
    return Queue(name, Exchange(name, type="direct"), routing_key=name)


def worker_queues(names: Iterable[str], *, variable: str = "JINZI_WORKER_QUEUES") -> list[str]:
    """``names`` checked: each one of ``QUEUES``, none twice; refused with
    ``ImproperlyConfigured`` naming ``variable`` otherwise."""
    names = list(names)
    unknown = [name for name in names if name not in QUEUES]
    if unknown:
        raise ImproperlyConfigured(
            f"{variable} names queues that do not exist: {', '.join(unknown)}; "
            f"the queues are {', '.join(QUEUES)}"
        )
    if len(set(names)) != len(names):
        raise ImproperlyConfigured(f"{variable} names a queue twice: {', '.join(names)}")
    return names
