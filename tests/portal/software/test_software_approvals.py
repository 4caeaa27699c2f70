"""The game software's approvals (§ 461a.4, reading:software-approval): one officer drafts,
another decides; a table is live only while the software running it is approved; bad input
is refused with nothing stored."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from portal.audit.models import AuditEvent
from portal.compliance.models import AvailabilityCause, AvailabilityChange
from portal.compliance.selectors import offering_is_live
from portal.compliance.services.software import (
    ALREADY_RECORDED,
    DIGEST_MALFORMED,
    DOCUMENT_NOT_PDF,
    software_approval_decide,
    software_approval_draft,
)
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from portal.core.padates import pa_today
from portal.core.software import SoftwareIdentity, running_identity
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from portal.software.services.installations import software_installed
from portal.software.workflow import OWN_WORK
from tests.portal.factories import approved_offering

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n% an approval letter\n%%EOF\n"
S = SoftwareApprovalStatus


def letter(data: bytes = PDF, name: str = "approval.pdf"):
    return SimpleUploadedFile(name, data, "application/pdf")


def draft(actor, *, digest=None, document=None, **fields):
    identity = running_identity()
    return software_approval_draft(
        actor=actor,
        digest=identity.digest if digest is None else digest,
        software_version=fields.get("software_version", identity.version),
        lab_reference=fields.get("lab_reference", "BGLO-2026-117"),
        approved_on=fields.get("approved_on", pa_today()),
        document=letter() if document is None else document,
    )


def withdraw_running(officer, officer2):
    """The running identity's approval (the builders' own), withdrawn by an officer."""
    approval = SoftwareApproval.objects.get(digest=running_identity().digest, status=S.APPROVED)
    return software_approval_decide(
        actor=officer2, approval_id=approval.pk, step="withdraw", reason="Lab found a fault"
    )


@pytest.mark.clause("461a.4", kind="proves")
@pytest.mark.clause("reading:software-approval", kind="proves")
def test_461a4_a_table_is_live_only_while_the_software_running_it_is_approved(
    manager_a, officer, officer2, holder_a
):
    table = approved_offering(manager_a, officer, holder_a)
    assert offering_is_live(table).live

    withdraw_running(officer, officer2)

    closed = offering_is_live(table)
    assert not closed.live
    assert closed.reasons[0].startswith("§ 461a.4: the game software running here")
    assert running_identity().digest[:12] in closed.reasons[0]
    change = AvailabilityChange.objects.filter(offering=table).latest("at", "pk")
    assert (change.opened, change.cause) == (False, AvailabilityCause.SOFTWARE_WITHDRAWN)

    again = draft(officer)
    software_approval_decide(actor=officer2, approval_id=again.pk, step="approve")

    assert offering_is_live(table).live
    change = AvailabilityChange.objects.filter(offering=table).latest("at", "pk")
    assert (change.opened, change.cause) == (True, AvailabilityCause.SOFTWARE_APPROVED)


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_the_officer_who_drafted_an_approval_never_decides_it(
    manager_a, officer, officer2, holder_a
):
    approved_offering(manager_a, officer, holder_a)
    withdraw_running(officer, officer2)
    drafted = draft(officer)

    with pytest.raises(NotPermitted, match=OWN_WORK):
        software_approval_decide(actor=officer, approval_id=drafted.pk, step="approve")

    approved = software_approval_decide(
        actor=officer2, approval_id=drafted.pk, step="approve", reason="Letter on file"
    )
    assert (approved.status, approved.decided_by, approved.decision_reason) == (
        S.APPROVED,
        officer2,
        "Letter on file",
    )
    actions = list(
        AuditEvent.objects.filter(object_type="software_approval", object_id=str(drafted.pk))
        .order_by("sequence")
        .values_list("action", flat=True)
    )
    assert actions == ["software_approval.draft", "software_approval.approve"]
    first = AuditEvent.objects.get(action="software_approval.draft", object_id=str(drafted.pk))
    assert first.after["digest"] == running_identity().digest
    assert first.after["document_sha256"] == drafted.document_sha256


@pytest.mark.clause("461a.4", kind="cites-in-message")
def test_461a4_a_second_approval_of_the_same_identity_is_409_and_stores_nothing(
    manager_a, officer, officer2, holder_a
):
    approved_offering(manager_a, officer, holder_a)  # the running identity, approved

    with pytest.raises(Conflict, match="already has an approval approved"):
        draft(officer2)
    assert SoftwareApproval.objects.count() == 1
    assert ALREADY_RECORDED.startswith("§ 461a.4")


@pytest.mark.clause("461a.4", kind="cites-in-message")
def test_461a4_approving_an_identity_nobody_runs_is_409(officer, officer2):
    elsewhere = draft(officer, digest="ab" * 32)

    with pytest.raises(Conflict, match="no server runs the software"):
        software_approval_decide(actor=officer2, approval_id=elsewhere.pk, step="approve")

    elsewhere.refresh_from_db()
    assert elsewhere.status == S.DRAFT


@pytest.mark.clause("461a.4", kind="cites-in-message")
@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"digest": "not-a-digest"}, "digest", DIGEST_MALFORMED),
        ({"digest": "AB" * 31}, "digest", DIGEST_MALFORMED),
        ({"document": letter(b"GIF89a not a pdf")}, "document", DOCUMENT_NOT_PDF),
        ({"lab_reference": "  "}, "lab_reference", "laboratory's reference"),
        ({"approved_on": "tomorrow"}, "approved_on", "date of the Executive Director"),
        (
            {"approved_on": pa_today() + datetime.timedelta(days=1)},
            "approved_on",
            "after today",
        ),
    ],
)
def test_461a4_bad_input_is_400_on_its_field_and_stores_nothing(officer, fields, field, message):
    with pytest.raises(ValidationFailed) as refused:
        draft(officer, **fields)

    assert message in " ".join(refused.value.field_errors[field])
    assert not SoftwareApproval.objects.exists()
    assert not AuditEvent.objects.filter(object_type="software_approval").exists()


@override_settings(JINZI_MAX_DOCUMENT_BYTES=2048)
def test_461a4_an_approval_document_over_the_limit_is_refused(officer):
    with pytest.raises(ValidationFailed) as refused:
        draft(officer, document=letter(PDF + b"x" * 4096))

    assert "the most is 2,048 bytes" in refused.value.field_errors["document"][0]
    assert not SoftwareApproval.objects.exists()


def test_461a4_only_compliance_officers_record_software_approvals(manager_a, auditor, officer):
    for who in (manager_a, auditor):
        with pytest.raises(NotPermitted, match="record the game software's approvals"):
            draft(who)
    drafted = draft(officer)
    with pytest.raises(NotPermitted):
        software_approval_decide(actor=auditor, approval_id=drafted.pk, step="reject")


def test_461a4_a_rejection_and_a_withdrawal_need_their_reason(officer, officer2):
    drafted = draft(officer)

    with pytest.raises(ValidationFailed, match="give the reason"):
        software_approval_decide(actor=officer2, approval_id=drafted.pk, step="reject")

    rejected = software_approval_decide(
        actor=officer2, approval_id=drafted.pk, step="reject", reason="Wrong build"
    )
    assert rejected.status == S.REJECTED
    with pytest.raises(Conflict, match="only a draft one can be approved"):
        software_approval_decide(actor=officer2, approval_id=drafted.pk, step="approve")


@pytest.mark.clause("461a.4", kind="proves")
def test_461a4_software_installed_on_another_host_may_be_approved(officer, officer2):
    other = SoftwareIdentity(version="9.9.9", digest="ef" * 32, files=())
    software_installed(host="web-2", deployed_by="release pipeline", identity=other)
    drafted = draft(officer, digest=other.digest, software_version=other.version)

    approved = software_approval_decide(actor=officer2, approval_id=drafted.pk, step="approve")

    assert approved.status == S.APPROVED
    # Not the software this server runs: no table here opens or closes by it.
    assert not AvailabilityChange.objects.exists()
