from django.contrib import admin

from portal.audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
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

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
