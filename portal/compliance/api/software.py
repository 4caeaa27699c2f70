"""``/api/software-approvals/``: the game software's approvals (§ 461a.4,
reading:software-approval). A compliance officer records one (a multipart form with the
approval letter, a PDF); another approves or rejects it; an approval is withdrawn, never
edited. For compliance officers and auditors to read."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import JSONParser, MultiPartParser

from portal.access.policy import Action
from portal.access.workflow import Step
from portal.api.base import ApiViewSet
from portal.api.fields import StrictInput
from portal.api.workflow import step_action
from portal.compliance.services.software import software_approval_decide, software_approval_draft
from portal.core.software import running_identity
from portal.software.models import SoftwareApproval
from portal.software.workflow import WORKFLOW


class SoftwareApprovalOut(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.get_username")
    decided_by = serializers.CharField(
        source="decided_by.get_username", default=None, allow_null=True
    )
    withdrawn_by = serializers.CharField(
        source="withdrawn_by.get_username", default=None, allow_null=True
    )
    running = serializers.SerializerMethodField(
        help_text="Whether it is the software this server runs."
    )

    class Meta:
        model = SoftwareApproval
        fields = (
            "id",
            "digest",
            "software_version",
            "lab_reference",
            "approved_on",
            "document_sha256",
            "status",
            "running",
            "created_by",
            "created_at",
            "decided_by",
            "decided_at",
            "decision_reason",
            "withdrawn_by",
            "withdrawn_at",
            "withdrawal_reason",
        )
        read_only_fields = fields

    def get_running(self, approval: SoftwareApproval) -> bool:
        return approval.digest == running_identity().digest


class SoftwareApprovalIn(StrictInput):
    read_only_from = SoftwareApprovalOut

    digest = serializers.CharField(help_text="SHA-256 of the software's files, 64 hex digits.")
    software_version = serializers.CharField(allow_blank=True)
    lab_reference = serializers.CharField(allow_blank=True)
    approved_on = serializers.CharField(help_text="The approval's date, YYYY-MM-DD.")
    document = serializers.FileField(help_text="The approval letter, a PDF (multipart only).")


class SoftwareDecisionIn(StrictInput):
    reason = serializers.CharField(
        required=False, allow_blank=True, help_text="Why: required to reject or withdraw."
    )


def decision_action(step: Step):
    def take(self, request, approval):
        data = self.parse(SoftwareDecisionIn)
        decided = software_approval_decide(
            actor=request.user,
            approval_id=approval.pk,
            step=step.name,
            reason=data.get("reason", ""),
        )
        return self.respond(decided)

    return step_action(
        step,
        take,
        request=SoftwareDecisionIn,
        responses={200: SoftwareApprovalOut},
        summary=f"{step.label} (a compliance officer; not who recorded it)",
    )


DecisionActions = type(
    "DecisionActions", (), {step.verb: decision_action(step) for step in WORKFLOW.posted_steps}
)


class SoftwareApprovalViewSet(DecisionActions, ApiViewSet):
    """The Board's approvals of the game software, newest first."""

    operation_descriptions = {
        "list": (
            "The approvals of the game software recorded (§ 461a.4), newest first, with "
            "whether each is the software this server runs. Compliance officers and auditors."
        ),
        "retrieve": "One approval of the game software.",
        "create": (
            "Record a draft of the Board's approval of one identity of the game software, "
            "as a multipart form with the approval letter (a PDF): a second compliance "
            "officer approves or rejects it."
        ),
        "approve": (
            "Approve a recorded approval, as a compliance officer who did not record it: "
            "tables running that software open if nothing else holds them closed."
        ),
        "reject": "Reject a recorded approval, saying why.",
        "withdraw": "Withdraw an approval, saying why: tables running that software close.",
    }
    queryset = SoftwareApproval.objects.none()
    serializer_class = SoftwareApprovalOut
    read_action = Action.VIEW_AUDIT
    write_actions = {"create": Action.RECORD_SOFTWARE}
    http_method_names = ["get", "post", "head", "options"]
    parser_classes = [JSONParser, MultiPartParser]

    def get_queryset(self):
        return SoftwareApproval.objects.select_related(
            "created_by", "decided_by", "withdrawn_by"
        ).order_by("-created_at", "-pk")

    @extend_schema(request=SoftwareApprovalIn, responses={201: SoftwareApprovalOut})
    def create(self, request):
        data = self.parse(SoftwareApprovalIn)
        approval = software_approval_draft(actor=request.user, **data)
        return self.respond(approval, status=201)
