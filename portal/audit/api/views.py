"""``/api/audit-events/``: the hash-chained audit trail (§ 811a.7), read-only: browse and
filter it, export it as CSV, and verify the chain. For compliance, auditors, superusers."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import Action
from portal.api.base import ApiViewSet
from portal.api.exports import csv_export
from portal.audit.api.serializers import AuditEventSerializer, ChainReportSerializer
from portal.audit.chain import verify_stored
from portal.audit.export import csv_rows
from portal.audit.filtersets import AuditEventFilter, filters_given
from portal.audit.models import AuditEvent
from portal.audit.services import audit_trail_exported
from portal.core.csv_export import csv_response

EXPORT_FILENAME = "audit-events.csv"


class AuditEventViewSet(ApiViewSet):
    """The audit trail: every change and sign-in, in order, each event chained to the one
    before it by its hash (§ 811a.7)."""

    operation_descriptions = {
        "list": (
            "The audit trail, newest first: who did what to which record, when, and the "
            "record before and after. For compliance officers, auditors and superusers. "
            "Filter by actor, action, record, request or period (Pennsylvania time), or "
            "search actor, action and reason."
        ),
        "retrieve": "One audit event: who did what to which record, when, before and after.",
        "export": (
            "The trail, filtered as the list is, as a CSV file, oldest first. The export "
            "is itself recorded in the trail."
        ),
        "verify": (
            "Check the whole trail: that every event's hash follows from the one before, so "
            "no event was changed, removed or slipped in. Answers how many events were "
            "checked and the first break, if any."
        ),
    }
    queryset = AuditEvent.objects.all()
    serializer_class = AuditEventSerializer
    filterset_class = AuditEventFilter
    read_action = Action.VIEW_AUDIT
    write_actions = {}
    http_method_names = ["get", "head", "options"]

    @csv_export("The filtered trail as CSV, oldest first")
    def export(self, request):
        events = self.filter_queryset(self.get_queryset())  # a bad filter stops here: 400
        if request.method == "GET":  # a HEAD takes no copy
            filters = filters_given(request.query_params)
            audit_trail_exported(actor=request.user, filters=filters, via="api")
        return csv_response(csv_rows(events), EXPORT_FILENAME)

    @extend_schema(summary="Walk the whole chain and report its first break", filters=False)
    @action(
        detail=False,
        methods=["get"],
        filter_backends=[],
        pagination_class=None,
        serializer_class=ChainReportSerializer,
    )
    def verify(self, request):
        report = verify_stored()
        return Response(
            {
                "ok": report.ok,
                "checked": report.checked,
                "broken_sequence": report.broken_sequence,
                "broken_id": report.broken_id,
                "problem": report.problem,
            }
        )
