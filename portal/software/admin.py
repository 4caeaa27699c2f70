"""The game software's approvals in the admin: to look at only; they are recorded and
decided on their pages and through the API, where four-eyes holds (§ 461a.4)."""

from django.contrib import admin

from portal.core.admin import LookOnlyAdmin
from portal.software.models import SoftwareApproval


@admin.register(SoftwareApproval)
class SoftwareApprovalAdmin(LookOnlyAdmin):
    list_display = ("software_version", "digest", "lab_reference", "approved_on", "status")
    list_filter = ("status",)
    list_select_related = ("created_by", "decided_by")
