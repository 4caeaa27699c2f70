"""Whether the software running the game is approved (§ 461a.4, reading:software-approval):
a table is live only while it is; every live check reads it here, once per request or job."""

from __future__ import annotations

from django.db.models import QuerySet

from portal.core.software import SoftwareIdentity, running_identity
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

NOT_APPROVED = (
    "§ 461a.4: the game software running here, version {identity}, is not approved; its tables "
    "stay closed until a compliance officer records the Board's approval of it"
)


def approval_of(digest: str) -> SoftwareApproval | None:
    """The approval in force of the identity ``digest``, if any."""
    return SoftwareApproval.objects.filter(
        digest=digest, status=SoftwareApprovalStatus.APPROVED
    ).first()


def running_approvals() -> QuerySet[SoftwareApproval]:
    """The approval in force of the identity this process runs (none or one): for a query
    to ask ``Exists`` of, so that a list's rows read it in their own statement."""
    return SoftwareApproval.objects.filter(
        digest=running_identity().digest, status=SoftwareApprovalStatus.APPROVED
    )


def running_software_approved() -> bool:
    """Whether the identity this process runs is approved (one query)."""
    return running_approvals().exists()


def not_approved_reason(identity: SoftwareIdentity | None = None) -> str:
    """Why tables are closed while ``identity`` (the running one) is not approved."""
    return NOT_APPROVED.format(identity=(identity or running_identity()).short)
