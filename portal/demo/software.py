"""The demo's approval of the game software it runs (§ 461a.4, reading:approved-software):
without one no round is played, so the demo (and its generated history, which the service
then plays on) records it before its tables play, as compliance officers record the
Board's approval.

It is written as it stands (the approval's page and API record it through their own
service, with its audit events); once, whatever the number of seeds."""

from __future__ import annotations

import datetime
import hashlib

from django.utils import timezone

from portal.core.software import running_identity
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

DEMO_LAB_REFERENCE = "BGLO-DEMO-0001"
DEMO_DOCUMENT = "software/approvals/demo-approval.pdf"


def approve_demo_software(drafted_by, decided_by) -> SoftwareApproval:
    """The approval in force of the software running, recorded if there is none yet."""
    identity = running_identity()
    found = SoftwareApproval.objects.filter(
        digest=identity.digest, status=SoftwareApprovalStatus.APPROVED
    ).first()
    if found is not None:
        return found
    return SoftwareApproval.objects.create(
        digest=identity.digest,
        software_version=identity.version,
        lab_reference=DEMO_LAB_REFERENCE,
        approved_on=datetime.date(2025, 6, 1),
        document=DEMO_DOCUMENT,
        document_sha256=hashlib.sha256(DEMO_DOCUMENT.encode()).hexdigest(),
        status=SoftwareApprovalStatus.APPROVED,
        created_by=drafted_by,
        decided_by=decided_by,
        decided_at=timezone.now(),
    )
