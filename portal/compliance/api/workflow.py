"""The versioned records' shared API: their common fields, their holder, their workflow actions.

``POST /api/<records>/{id}/submit/ | approve/ | reject/ | request-changes/ | withdraw/ |
amend/`` each call the record's service of that name; the service checks the status,
the role and four-eyes, and writes the audit event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action

from portal.access.policy import Action, visible
from portal.access.roles import Role, has_role, holder_id_of
from portal.accounts.models import CertificateHolder
from portal.api.base import ApiViewSet
from portal.api.fields import NoInput, StrictInput
from portal.compliance.api.fields import ReasonField, RecordStatusField
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


@dataclass(frozen=True)
class Workflow:
    """One record type's services, and the keyword they take the record by."""

    keyword: str
    submit: Callable
    approve: Callable
    reject: Callable
    request_changes: Callable
    withdraw: Callable
    amend: Callable


class RecordViewSet(ApiViewSet):
    workflow: ClassVar[Workflow]
    approve_input: ClassVar[type[StrictInput]]

    def _run(self, step: Callable, record, **data):
        return step(actor=self.request.user, **{self.workflow.keyword: record}, **data)

    @extend_schema(request=None, summary="Submit a draft for review")
    @action(detail=True, methods=["post"], policy_action=Action.DRAFT)
    def submit(self, request, pk=None):
        record = self.get_object()
        self.parse(NoInput)
        return self.respond(self._run(self.workflow.submit, record))

    @extend_schema(summary="Approve a submitted record (someone other than its author)")
    @action(detail=True, methods=["post"], policy_action=Action.DECIDE)
    def approve(self, request, pk=None):
        record = self.get_object()
        data = self.parse(self.approve_input)
        return self.respond(self._run(self.workflow.approve, record, **data))

    @extend_schema(request=ReasonInput, summary="Reject a submitted record")
    @action(detail=True, methods=["post"], policy_action=Action.DECIDE)
    def reject(self, request, pk=None):
        record = self.get_object()
        data = self.parse(ReasonInput)
        return self.respond(self._run(self.workflow.reject, record, **data))

    @extend_schema(request=ReasonInput, summary="Send a submitted record back for changes")
    @action(detail=True, methods=["post"], url_path="request-changes", policy_action=Action.DECIDE)
    def request_changes(self, request, pk=None):
        record = self.get_object()
        data = self.parse(ReasonInput)
        return self.respond(self._run(self.workflow.request_changes, record, **data))

    @extend_schema(request=ReasonInput, summary="Withdraw an approval")
    @action(detail=True, methods=["post"], policy_action=Action.WITHDRAW)
    def withdraw(self, request, pk=None):
        record = self.get_object()
        data = self.parse(ReasonInput)
        return self.respond(self._run(self.workflow.withdraw, record, **data))

    @extend_schema(request=None, summary="Start the next version as a draft")
    @action(detail=True, methods=["post"], policy_action=Action.DRAFT)
    def amend(self, request, pk=None):
        record = self.get_object()
        self.parse(NoInput)
        return self.respond(self._run(self.workflow.amend, record), status=201)


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
