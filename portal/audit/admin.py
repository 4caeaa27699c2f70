from django.contrib import admin

from portal.audit.models import AuditEvent
from portal.core.admin import LookOnlyAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(LookOnlyAdmin):
    """Audit events are append-only (§ 811a.7): the admin can only look."""

    list_display = (
        "sequence",
        "occurred_at",
        "actor_username",
        "action",
        "object_type",
        "object_id",
    )
    list_filter = ("action", "object_type")
    search_fields = ("actor_username", "object_id", "request_id", "reason")
    date_hierarchy = "occurred_at"
