from django.contrib import admin

from portal.core.admin import LookOnlyAdmin
from portal.notifications.models import Notification, Outbox, Reminder


@admin.register(Notification)
class NotificationAdmin(LookOnlyAdmin):
    list_display = ("created_at", "recipient", "kind", "subject", "read_at")
    list_filter = ("kind",)
    search_fields = ("subject", "key", "recipient__username")
    date_hierarchy = "created_at"


@admin.register(Outbox)
class OutboxAdmin(LookOnlyAdmin):
    """What was, or is to be, emailed: its attempts and last error."""

    list_display = ("created_at", "recipient", "channel", "subject", "status", "attempts")
    list_filter = ("status", "channel")
    search_fields = ("subject", "key", "recipient__username", "last_error")


@admin.register(Reminder)
class ReminderAdmin(LookOnlyAdmin):
    list_display = ("created_at", "key", "status")
    list_filter = ("status",)
    search_fields = ("key",)
