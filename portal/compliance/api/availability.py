"""``/api/availability/``: the game availability log (§ 811a.7(f)), read-only, filterable
by holder, offering and period (Pennsylvania dates), and ``export/`` as CSV."""

from __future__ import annotations

from rest_framework import serializers

from portal.access.policy import Action
from portal.api.base import ApiViewSet
from portal.api.exports import csv_export
from portal.compliance.availability import availability_log, csv_rows
from portal.compliance.filtersets import AvailabilityFilter
from portal.compliance.models import AvailabilityChange
from portal.core.csv_export import csv_response
from portal.software.installations import identity_name


class AvailabilityChangeSerializer(serializers.ModelSerializer):
    change = serializers.SerializerMethodField()
    audit_sequence = serializers.IntegerField(source="audit_event.sequence")
    software = serializers.SerializerMethodField()
    software_digest = serializers.CharField(source="software_identity")

    class Meta:
        model = AvailabilityChange
        fields = (
            "id",
            "at",
            "holder",
            "offering",
            "change",
            "opened",
            "cause",
            "reason",
            "software",
            "software_digest",
            "recorded_at",
            "audit_sequence",
        )
        read_only_fields = fields

    def get_change(self, change: AvailabilityChange) -> str:
        return "opened" if change.opened else "closed"

    def get_software(self, change: AvailabilityChange) -> str:
        """The game software in force (§ 811a.7(f)(2)), as pages name it."""
        return identity_name(change.software_identity, change.software_version)


class AvailabilityViewSet(ApiViewSet):
    """The availability log: when each table opened to play or closed, and why."""

    operation_descriptions = {
        "list": (
            "When each table opened to play or closed, and why (an approval, a withdrawal, "
            "an expiry, a retirement), newest first. For compliance officers and auditors. "
            "Filter by table, holder, period (Pennsylvania dates) or whether it opened."
        ),
        "retrieve": "One opening or closing of a table, and why.",
        "export": (
            "The log, filtered as the list is, as a CSV file, oldest first, with instants in UTC."
        ),
    }
    queryset = AvailabilityChange.objects.none()
    serializer_class = AvailabilityChangeSerializer
    filterset_class = AvailabilityFilter
    read_action = Action.VIEW_AUDIT
    write_actions = {}
    http_method_names = ["get", "head", "options"]

    def get_queryset(self):
        return availability_log().order_by("-at", "-pk")

    @csv_export("The filtered log as CSV, oldest first (instants in UTC)")
    def export(self, request):
        changes = self.filter_queryset(self.get_queryset())  # a bad filter stops here: 400
        return csv_response(csv_rows(changes), "availability-log.csv")
