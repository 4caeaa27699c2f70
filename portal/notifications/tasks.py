"""Notification jobs: thin; each calls a service. Beat runs ``notifications.deliver`` every
minute and ``notifications.daily`` every morning (portal/settings.py); the game sends
``notifications.limit_reached`` by its name."""

from __future__ import annotations

from celery import shared_task

from portal.notifications.services import (
    digests_prepare,
    limit_reached_record,
    notifications_dispatch,
    outbox_send_due,
    reminders_send,
)

DELIVER_TASK = "notifications.deliver"
DAILY_TASK = "notifications.daily"
LIMIT_REACHED_TASK = "notifications.limit_reached"


@shared_task(name=DELIVER_TASK, autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def deliver() -> dict[str, int]:
    """Read what happened since the last run into inboxes and the outbox, then send the
    emails whose time has come. Both steps are idempotent, so a retry is harmless."""
    return {"made": notifications_dispatch(), "sent": outbox_send_due()}


@shared_task(name=DAILY_TASK, autoretry_for=(Exception,), max_retries=3, retry_backoff=True)
def daily() -> dict[str, int]:
    """Every morning (Pennsylvania time): the dated reminders due, then each person's
    digest of the day, then send. A missed morning is caught up by the next run."""
    reminded = reminders_send()
    digests = digests_prepare()
    return {"reminders": reminded, "digests": digests, "sent": outbox_send_due()}


@shared_task(name=LIMIT_REACHED_TASK, autoretry_for=(Exception,), max_retries=3)
def limit_reached(account_id: int, kind: str, period_start: str) -> int:
    return limit_reached_record(account_id=account_id, kind=kind, period_start=period_start)
