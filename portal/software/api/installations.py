"""``/api/software/installations/``: the Software Installation/Removal Log (§ 811a.7(e)),
read-only, filterable by host, change and period (Pennsylvania dates), and ``export/`` as
CSV."""

from __future__ import annotations

from rest_framework import mixins, serializers

from portal.access.policy import Action
from portal.api.base import ApiBaseViewSet
from portal.api.exports import csv_export
from portal.audit.models import AuditEvent
from portal.core.csv_export import csv_response
from portal.software.installations import (
    InstallationFilter,
    change_word,
    csv_rows,
    installation_log,
    software_of,
)


class InstallationSerializer(serializers.ModelSerializer):
    at = serializers.DateTimeField(source="occurred_at")
    host = serializers.CharField(source="object_id")
    change = serializers.SerializerMethodField()
    software = serializers.SerializerMethodField()
    software_version = serializers.CharField(source="version")
    software_digest = serializers.CharField(source="digest")
    deployed_by = serializers.CharField()
    audit_sequence = serializers.IntegerField(source="sequence")

    class Meta:
        model = AuditEvent
        fields = (
            "id",
            "at",
            "host",
            "change",
            "software",
            "software_version",
            "software_digest",
            "deployed_by",
            "audit_sequence",
        )
        read_only_fields = fields

    def get_change(self, entry: AuditEvent) -> str:
        return change_word(entry)

    def get_software(self, entry: AuditEvent) -> str:
        return software_of(entry)


class InstallationViewSet(mixins.ListModelMixin, ApiBaseViewSet):
    """The software installation log: each host's installs and removals of the game software."""

    operation_descriptions = {
        "list": (
            "Each time a host started running a version of the game software (installed) and "
            "the version it replaced there (removed), when and who deployed it, newest first "
            "(§ 811a.7(e)). For compliance officers and auditors. Filter by host, change or "
            "period (Pennsylvania dates)."
        ),
        "export": (
            "The log, filtered as the list is, as a CSV file, oldest first, with instants in "
            "UTC and in Pennsylvania time."
        ),
    }
    queryset = AuditEvent.objects.none()
    serializer_class = InstallationSerializer
    filterset_class = InstallationFilter
    read_action = Action.VIEW_AUDIT
    write_actions = {}
    http_method_names = ["get", "head", "options"]

    def get_queryset(self):
        return installation_log()

    @csv_export("The filtered log as CSV, oldest first (instants in UTC and Pennsylvania time)")
    def export(self, request):
        entries = self.filter_queryset(self.get_queryset())  # a bad filter stops here: 400
        return csv_response(csv_rows(entries), "software-installations.csv")
