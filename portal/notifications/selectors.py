"""What a person reads: their own notifications, newest first, and how many are unread."""

from __future__ import annotations

from django.db.models import QuerySet

from portal.notifications.models import Notification


def inbox(user) -> QuerySet[Notification]:
    return Notification.objects.filter(recipient=user).order_by("-created_at", "-pk")


def unread_count(user) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()
