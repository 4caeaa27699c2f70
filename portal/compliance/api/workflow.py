"""The versioned records' shared API: their common fields, their holder, their workflow actions.

``POST /api/<records>/{id}/submit/ | approve/ | reject/ | request-changes/ | withdraw/ |
amend/``: one action per step of the records' workflow (``portal.compliance.workflow``),
each calling the record's service of that step, which checks the table (role, status,
four-eyes, guards) and writes the audit event.

``GET /api/<records>/{id}/impact/``: the tables each step the record's status allows would
take dark or bring live (approve, withdraw, and the expiry the midnight job applies), each
with its ``fingerprint``. ``approve/`` and ``withdraw/`` take that fingerprint as an optional
``impact``: if the tables the step opens or closes are no longer those, the step is refused
with 409 and nothing changes (reading:supersede).
"""

from __future__ import annotations

import functools
from typing import ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.access.policy import visible
from portal.access.roles import Role, has_role, holder_id_of
from portal.access.workflow import Reason
from portal.accounts.models import CertificateHolder
from portal.api.base import ApiViewSet
from portal.api.fields import NoInput, StrictInput
from portal.api.workflow import step_action
from portal.compliance.api.fields import ReasonField, RecordStatusField
from portal.compliance.models import RecordStatus
from portal.compliance.selectors import impacts_of
from portal.compliance.services import step_service
from portal.compliance.workflow import RECORD_WORKFLOW
from portal.compliance.zero_edges import zero_edges_of
from portal.core.errors import NotPermitted, ValidationFailed

HOLDER_REQUIRED = "say which certificate holder this record is for: holder (its id)"
HOLDER_UNKNOWN = "no certificate holder with id {id}"
HOLDER_NOT_YOURS = (
    "you act for certificate holder {own}; you cannot create records for holder {given}"
)

RECORD_FIELDS = (
    "id",
    "holder",
    "holder_name",
    "series",
    "version",
    "status",
    "created_by",
    "created_at",
    "updated_at",
    "submitted_by",
    "submitted_at",
    "decided_by",
    "decided_at",
    "decision_reason",
    "effective_date",
    "expiry_date",
)


class RecordSerializer(serializers.ModelSerializer):
    """Fields every versioned record shows; people by username."""

    holder_name = serializers.CharField(source="holder.name", read_only=True)
    status = RecordStatusField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True)
    submitted_by = serializers.CharField(
        source="submitted_by.username", read_only=True, allow_null=True
    )
    decided_by = serializers.CharField(
        source="decided_by.username", read_only=True, allow_null=True
    )


class ReasonInput(StrictInput):
    reason = ReasonField(help_text="Why; required to reject, send back, withdraw or retire.")


IMPACT_HELP = (
    "Optional: the fingerprint of the impact you were shown (GET …/impact/). If the tables "
    "this step opens or closes have changed since, it is refused with 409 and nothing changes."
)


EDGE_ACKNOWLEDGED_HELP = (
    "Needed when approving leaves wagers with a house edge of zero or less "
    "(reading:edge-acknowledgement): the fingerprint of that list, as GET …/impact/ gives it "
    "(zero_edges). A list changed since is refused with 409; a reason alone does not count."
)


def edge_acknowledged_field() -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_blank=True, max_length=64, help_text=EDGE_ACKNOWLEDGED_HELP
    )


def impact_field() -> serializers.CharField:
    return serializers.CharField(
        required=False, min_length=64, max_length=64, help_text=IMPACT_HELP
    )


class WithdrawInput(ReasonInput):
    impact = impact_field()


@functools.cache
def with_impact(input_class: type[StrictInput]) -> type[StrictInput]:
    """A kind's approval input, also taking the optional ``impact`` fingerprint."""
    return type(input_class.__name__, (input_class,), {"impact": impact_field()})


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    holder_name = serializers.CharField()


class KindChangeSerializer(serializers.Serializer):
    label = serializers.CharField()
    odds_before = serializers.CharField()
    odds_after = serializers.CharField()
    edge_before = serializers.CharField(help_text="House edge as paid at the table's stakes.")
    edge_after = serializers.CharField()
    no_edge_after = serializers.BooleanField(help_text="Some spot's edge is zero or less after.")


class PartChangeSerializer(serializers.Serializer):
    part = serializers.CharField()
    before = serializers.CharField()
    after = serializers.CharField()


class TableChangeSerializer(serializers.Serializer):
    table = TableSerializer()
    parts = PartChangeSerializer(many=True)
    wagers = KindChangeSerializer(many=True)


class StepImpactSerializer(serializers.Serializer):
    takes_dark = TableSerializer(many=True)
    brings_live = TableSerializer(many=True)
    changes = TableChangeSerializer(
        many=True, help_text="What changes for players at each table the step moves."
    )
    fingerprint = serializers.CharField()


class ZeroEdgesSerializer(serializers.Serializer):
    wagers = serializers.ListField(child=serializers.CharField())
    fingerprint = serializers.CharField()


class ImpactSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    steps = serializers.DictField(child=StepImpactSerializer())
    zero_edges = ZeroEdgesSerializer(
        allow_null=True,
        help_text="The wagers approving would leave with a house edge of zero or less, and "
        "the fingerprint approve/ takes back as edge_acknowledged; null when none.",
    )


def _tables(offerings) -> list[dict]:
    return [{"id": o.pk, "name": o.name, "holder_name": o.holder.name} for o in offerings]


def impact_body(record) -> dict:
    """Each step the record's status allows that opens or closes tables: which, by name and
    holder, and the fingerprint an action takes back as ``impact``."""
    return {
        "id": record.pk,
        "steps": {
            name: {
                "takes_dark": _tables(impact.closes),
                "brings_live": _tables(impact.opens),
                "changes": [_change(change) for change in impact.changes],
                "fingerprint": impact.fingerprint,
            }
            for name, impact in impacts_of(record).items()
        },
        "zero_edges": _zero_edges(record),
    }


def _change(change) -> dict:
    return {
        "table": _tables([change.offering])[0],
        "parts": [{"part": p, "before": b, "after": a} for p, b, a in change.parts],
        "wagers": [
            {
                "label": k.label,
                "odds_before": k.odds_before,
                "odds_after": k.odds_after,
                "edge_before": k.edge_before,
                "edge_after": k.edge_after,
                "no_edge_after": k.no_edge_after,
            }
            for k in change.kinds
        ],
    }


def _zero_edges(record) -> dict | None:
    if record.status != RecordStatus.SUBMITTED:
        return None
    found = zero_edges_of(record)
    return {"wagers": list(found.lines), "fingerprint": found.fingerprint} if found else None


def workflow_action(name: str):
    """The API action of the records' workflow step ``name``, as the table declares it:
    ``POST /api/<records>/{id}/<step>/``, allowed to whom the step's permission allows,
    with its input (a reason where the step asks why; the kind's ``approve_input`` to
    approve), answered with the record (201 for the new version an amendment makes)."""
    step = RECORD_WORKFLOW[name]

    def take(self, request, record):
        if step.verb == "approve":
            data = self.parse(with_impact(self.approve_input))
        elif step.reason is Reason.NONE:
            self.parse(NoInput)
            data = {}
        else:
            data = self.parse(WithdrawInput if step.changes_tables else ReasonInput)
        result = step_service(record, step.verb)(actor=request.user, **data)
        return self.respond(result, status=201 if step.target is None else 200)

    if step.verb == "approve":
        return step_action(step, take, summary=ACTION_SUMMARIES[step.verb])  # the kind's input
    if step.reason is Reason.NONE:
        return step_action(step, take, request=None, summary=ACTION_SUMMARIES[step.verb])
    given = WithdrawInput if step.changes_tables else ReasonInput
    return step_action(step, take, request=given, summary=ACTION_SUMMARIES[step.verb])


# How the API documents each step.
ACTION_SUMMARIES = {
    "submit": "Submit a draft for review",
    "approve": "Approve a submitted record (someone other than its author)",
    "reject": "Reject a submitted record",
    "request_changes": "Send a submitted record back for changes",
    "withdraw": "Withdraw an approval",
    "amend": "Start the next version as a draft",
}


class RecordViewSet(ApiViewSet):
    """A kind of record's viewset: its workflow's actions, one per step people post."""

    approve_input: ClassVar[type[StrictInput]]

    submit = workflow_action("submit")
    approve = workflow_action("approve")
    reject = workflow_action("reject")
    request_changes = workflow_action("request-changes")
    withdraw = workflow_action("withdraw")
    amend = workflow_action("amend")

    @extend_schema(
        summary="The tables each step would take dark or bring live, before it is taken",
        responses=ImpactSerializer,
        filters=False,
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def impact(self, request, pk=None):
        return Response(impact_body(self.get_object()))


def holder_for_create(user, given: int | None) -> CertificateHolder:
    """The holder a new record is for: a manager's own, implicitly; anyone else names it."""
    if has_role(user, Role.MANAGER) and (own := holder_id_of(user)) is not None:
        if given is not None and given != own:
            raise NotPermitted(HOLDER_NOT_YOURS.format(own=own, given=given))
        given = own
    if given is None:
        raise ValidationFailed.on("holder", HOLDER_REQUIRED)
    holder = visible(user, CertificateHolder.objects.all()).filter(pk=given).first()
    if holder is None:
        raise ValidationFailed.on("holder", HOLDER_UNKNOWN.format(id=given))
    return holder
