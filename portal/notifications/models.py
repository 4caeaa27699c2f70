"""Who was told what: the inbox's notifications, the email outbox, each person's choices,
the dated reminders already sent, and how far the dispatcher has read.

Only the services in ``services.py`` write these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Delivery(models.TextChoices):
    """How a person wants one kind of notification."""

    IN_APP = "in_app", "In the portal only"
    EMAIL = "email", "In the portal and by email, each time"
    DIGEST = "digest", "In the portal, and in one email a day"


class Channel(models.TextChoices):
    EMAIL = "email", "Email"
    DIGEST = "digest", "Daily digest email"


class OutboxStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENDING = "sending", "Being sent"
    SENT = "sent", "Sent"
    FAILED = "failed", "Given up"


class Notification(models.Model):
    """One thing one person is told, shown in their inbox."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=64)
    # What happened, the same for everyone told of it: "audit:1234", "report-run:5:failed:1",
    # "reminder:approval-expiry:paytable:7:2028-01-01:30".
    key = models.CharField(max_length=200)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    link = models.CharField(max_length=500, help_text="The page it is about (a path).")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # Waiting for the recipient's next daily digest email.
    digest_pending = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notification_unread")]
        constraints = [
            models.UniqueConstraint(fields=["key", "recipient"], name="notification_once")
        ]

    def __str__(self) -> str:
        return f"{self.subject} (to {self.recipient_id})"


class Outbox(models.Model):
    """An email to send: one per (what happened, person, channel), so a rerun never sends
    it twice. The sender claims a row with a conditional update, then sends it."""

    key = models.CharField(max_length=200)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    channel = models.CharField(max_length=16, choices=Channel.choices)
    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    subject = models.CharField(max_length=300)
    body = models.TextField()
    # (subject, body, link) of each notification a digest gathers; empty for a single email.
    items = models.JSONField(default=list, blank=True)
    link = models.CharField(max_length=500, blank=True)
    status = models.CharField(
        max_length=16, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "outbox email"
        verbose_name_plural = "outbox emails"
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="outbox_due")]
        constraints = [
            models.UniqueConstraint(
                fields=["key", "recipient", "channel"], name="outbox_once_per_channel"
            ),
            models.CheckConstraint(
                condition=Q(status__in=OutboxStatus.values), name="outbox_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} to {self.recipient_id}: {self.subject}"


class Preference(models.Model):
    """How one person wants one kind (absent: the kind's default)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=64)
    delivery = models.CharField(max_length=16, choices=Delivery.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="preference_once_per_kind"),
            models.CheckConstraint(
                condition=Q(delivery__in=Delivery.values), name="preference_delivery_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.delivery}"


class ReminderStatus(models.TextChoices):
    SENT = "sent", "Sent"
    SKIPPED = "skipped", "Skipped (a more urgent one was sent)"


class Reminder(models.Model):
    """A dated reminder that has fired, or was passed over for a more urgent one: either
    way it never fires again."""

    key = models.CharField(max_length=200, unique=True)
    status = models.CharField(max_length=16, choices=ReminderStatus.choices)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class Cursor(models.Model):
    """How far the dispatcher has read: one row, locked while it reads."""

    audit_sequence = models.PositiveBigIntegerField(default=0)
    # Report runs that finished at or after this instant are looked at (again) each time.
    runs_finished_after = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"notifications read to audit event #{self.audit_sequence}"
