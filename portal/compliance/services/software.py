"""The game software's approvals (§ 461a.4, reading:software-approval): drafted by a
compliance officer, approved or rejected by another, withdrawn when they no longer hold.

A table is live only while the software running it is approved (``offering_is_live``): an
approval of the running identity opens the tables that wait only for it, a withdrawal
closes them, each change written to the game availability log (§ 811a.7(f)) in the same
transaction as the decision and its audit event."""

from __future__ import annotations

import datetime
import hashlib

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from portal.access.policy import Action, require
from portal.access.workflow import Reason
from portal.audit.models import AuditEvent
from portal.audit.services import audit_record
from portal.compliance.models import AvailabilityCause
from portal.compliance.services.availability import availability_sync
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.padates import pa_today
from portal.core.software import is_digest, running_identity
from portal.software.installations import INSTALLED, identity_name
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus
from portal.software.workflow import WORKFLOW, picture

S = SoftwareApprovalStatus
KIND = SoftwareApproval.kind

DIGEST_MALFORMED = (
    "§ 461a.4: the identity is the SHA-256 digest of the game software's files: 64 "
    "characters, each 0–9 or a–f"
)
VERSION_NEEDED = "Enter the software's version, as the laboratory tested it"
REFERENCE_NEEDED = "Enter the laboratory's reference for its test of this software"
APPROVED_ON_NEEDED = "Enter the date of the Executive Director's approval, like 2026-11-30"
APPROVED_ON_FUTURE = "The date of the approval is after today: enter the date it was given"
DOCUMENT_NEEDED = "Choose the approval document (a PDF)"
DOCUMENT_NOT_PDF = "The approval document must be a PDF file"
DOCUMENT_TOO_LARGE = "The approval document is {size:,} bytes; the most is {limit:,} bytes"
ALREADY_RECORDED = (
    "§ 461a.4: the software {identity} already has an approval {status}: decide or withdraw "
    "that one first"
)
NOBODY_RUNS = (
    "§ 461a.4: no server runs the software {identity}, here or in the Software "
    "Installation/Removal Log: approve software that is installed"
)
NOT_FOUND = "no software approval {id}"
TEXT_LIMITS = {"software_version": 64, "lab_reference": 100}


def _text(value, *, field: str, needed: str) -> str:
    text = str(value or "").strip()
    if not text:
        raise ValidationFailed.on(field, needed)
    if len(text) > TEXT_LIMITS[field]:
        raise ValidationFailed.on(field, f"Enter at most {TEXT_LIMITS[field]} characters")
    return text


def _approved_on(value) -> datetime.date:
    if isinstance(value, str):
        try:
            value = datetime.date.fromisoformat(value.strip())
        except ValueError:
            value = None
    if not isinstance(value, datetime.date):
        raise ValidationFailed.on("approved_on", APPROVED_ON_NEEDED)
    if value > pa_today():
        raise ValidationFailed.on("approved_on", APPROVED_ON_FUTURE)
    return value


def _document(upload) -> bytes:
    if upload is None:
        raise ValidationFailed.on("document", DOCUMENT_NEEDED)
    limit = settings.JINZI_MAX_DOCUMENT_BYTES
    if upload.size > limit:
        raise ValidationFailed.on(
            "document", DOCUMENT_TOO_LARGE.format(size=upload.size, limit=limit)
        )
    data = upload.read()
    if not data.startswith(b"%PDF-"):
        raise ValidationFailed.on("document", DOCUMENT_NOT_PDF)
    return data


def _open_one(digest: str) -> SoftwareApproval | None:
    return SoftwareApproval.objects.filter(digest=digest, status__in=(S.DRAFT, S.APPROVED)).first()


@transaction.atomic
def software_approval_draft(
    *, actor, digest, software_version, lab_reference, approved_on, document
) -> SoftwareApproval:
    """A draft of the Board's approval of the software ``digest`` (400 on bad input, 409
    while the identity has a draft or an approval already); nothing is stored if refused."""
    require(actor, Action.RECORD_SOFTWARE)
    digest = str(digest or "").strip().lower()
    if not is_digest(digest):
        raise ValidationFailed.on("digest", DIGEST_MALFORMED)
    version = _text(software_version, field="software_version", needed=VERSION_NEEDED)
    reference = _text(lab_reference, field="lab_reference", needed=REFERENCE_NEEDED)
    day = _approved_on(approved_on)
    data = _document(document)
    found = _open_one(digest)
    if found is not None:
        raise Conflict(
            ALREADY_RECORDED.format(
                identity=identity_name(digest, found.software_version),
                status=found.get_status_display().lower(),
            )
        )
    sha256 = hashlib.sha256(data).hexdigest()
    approval = SoftwareApproval(
        digest=digest,
        software_version=version,
        lab_reference=reference,
        approved_on=day,
        document_sha256=sha256,
        created_by=actor,
    )
    approval.document.save(f"{digest[:16]}-{sha256[:16]}.pdf", ContentFile(data), save=False)
    try:
        with transaction.atomic():
            approval.save()
    except IntegrityError as exc:  # the same identity drafted at the same moment
        raise Conflict(
            ALREADY_RECORDED.format(identity=identity_name(digest, version), status="draft")
        ) from exc
    audit_record(
        actor=actor,
        action=f"{KIND}.draft",
        object_type=KIND,
        object_id=approval.pk,
        after=picture(approval),
    )
    return approval


def is_installed(digest: str) -> bool:
    """Whether some server runs the software ``digest``: this one, or one the Software
    Installation/Removal Log (§ 811a.7(e)) records it installed on."""
    if digest == running_identity().digest:
        return True
    return AuditEvent.objects.filter(action=INSTALLED, after__digest=digest).exists()


def _locked(approval_id) -> SoftwareApproval:
    try:
        return SoftwareApproval.objects.select_for_update().get(pk=int(approval_id))
    except (SoftwareApproval.DoesNotExist, TypeError, ValueError) as exc:
        raise NotFound(NOT_FOUND.format(id=approval_id)) from exc


def _reason(step, reason) -> str:
    text = str(reason or "").strip()
    if step.reason is Reason.REQUIRED and not text:
        raise ValidationFailed.on(
            "reason", f"§ 461a.4: give the reason the software approval is {step.done}"
        )
    return text


@transaction.atomic
def software_approval_decide(
    *, actor, approval_id, step: str, reason: str = ""
) -> SoftwareApproval:
    """Take ``step`` (approve, reject, withdraw) on the approval, as the workflow allows."""
    found = WORKFLOW.get(step)
    if found is None:
        raise ValidationFailed.on("step", f"There is no step “{step}”: approve, reject or withdraw")
    approval = _locked(approval_id)
    WORKFLOW.check(found, approval, actor)
    text = _reason(found, reason)
    before = picture(approval)
    now = timezone.now()
    if found.name == "approve":
        if not is_installed(approval.digest):
            raise Conflict(
                NOBODY_RUNS.format(
                    identity=identity_name(approval.digest, approval.software_version)
                )
            )
        if SoftwareApproval.objects.filter(digest=approval.digest, status=S.APPROVED).exists():
            raise Conflict(
                ALREADY_RECORDED.format(
                    identity=identity_name(approval.digest, approval.software_version),
                    status="approved",
                )
            )
    if found.name == "withdraw":
        approval.withdrawn_by, approval.withdrawn_at, approval.withdrawal_reason = actor, now, text
    else:
        approval.decided_by, approval.decided_at, approval.decision_reason = actor, now, text
    approval.status = found.target
    approval.save()
    audit_record(
        actor=actor,
        action=f"{KIND}.{found.verb}",
        object_type=KIND,
        object_id=approval.pk,
        before=before,
        after=picture(approval),
        reason=text,
    )
    if found.changes_tables and approval.digest == running_identity().digest:
        availability_sync(
            where=Q(),
            opened_cause=AvailabilityCause.SOFTWARE_APPROVED,
            closed_cause=AvailabilityCause.SOFTWARE_WITHDRAWN,
            actor=actor,
        )
    return approval
