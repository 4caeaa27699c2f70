"""What the notification tests share: giving people email addresses, settling what the
set-up did, running the dispatcher twice, and reading who was told of what."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core import mail

from portal.notifications.models import Notification, Outbox, Reminder
from portal.notifications.services import notifications_dispatch, outbox_send_due


def with_emails(*users) -> None:
    for user in users:
        get_user_model().objects.filter(pk=user.pk).update(email=f"{user.username}@example.com")
        user.email = f"{user.username}@example.com"


def settle() -> None:
    """Read and forget everything the set-up did: a test sees only what it does next."""
    notifications_dispatch()
    Notification.objects.all().delete()
    Outbox.objects.all().delete()
    Reminder.objects.all().delete()
    mail.outbox.clear()


def dispatch_twice() -> None:
    """The dispatcher and the sender, run twice: a rerun must add nothing."""
    for _ in range(2):
        notifications_dispatch()
        outbox_send_due()


def told(kind: str) -> dict[str, Notification]:
    """Who was told of ``kind``, by username (each at most once: a second would fail)."""
    rows = list(Notification.objects.filter(kind=kind).select_related("recipient"))
    by_name: dict[str, Notification] = {}
    for row in rows:
        name = row.recipient.username
        assert name not in by_name, f"{name} was told twice of {kind}: {row.subject}"
        by_name[name] = row
    return by_name


def opens(client, user, notification: Notification) -> None:
    """The notification's link works for its recipient."""
    client.force_login(user)
    answer = client.get(notification.link)
    assert answer.status_code == 200, (notification.link, answer.status_code)


def emails_to(address: str) -> list:
    return [message for message in mail.outbox if address in message.to]
