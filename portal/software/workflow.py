"""The game software approvals' workflow, declared once (§ 461a.4,
reading:software-approval):

    draft → approved | rejected     (a second officer's decision: four-eyes)
    approved → withdrawn            (the approval no longer holds: its tables close)

A compliance officer drafts the approval (the identity, the laboratory's reference, the date
of the Executive Director's approval and the document); another officer approves or rejects
it; an approval is withdrawn, never edited. The services take these steps; the pages'
buttons, the API's actions and the audit events' names (``software_approval.<verb>``) read
them from here."""

from __future__ import annotations

from portal.access.four_eyes import four_eyes_guard
from portal.access.policy import Action
from portal.access.workflow import Reason, Step, Workflow
from portal.software.models import SoftwareApproval, SoftwareApprovalStatus

S = SoftwareApprovalStatus

OWN_WORK = "§ 461a.4: a software approval is decided by an officer other than who drafted it"
PASSWORD_SETTER = (
    "§ 461a.4: you set the password of whoever drafted this software approval, or they set "
    "yours: another officer decides it"
)
BAD_TRANSITION = "this software approval is {status}; only {allowed} one can be {verb}"


def authors(approval: SoftwareApproval) -> tuple[int | None, ...]:
    return (approval.created_by_id,)


FOUR_EYES_GUARD = four_eyes_guard(
    authors, own_work=lambda _a: OWN_WORK, password_setter=lambda _a: PASSWORD_SETTER
)

WORKFLOW = Workflow(
    statuses=SoftwareApprovalStatus,
    steps=(
        Step(
            name="approve",
            verb="approve",
            sources=frozenset({S.DRAFT}),
            target=S.APPROVED,
            permission=Action.RECORD_SOFTWARE,
            label="Approve",
            done="approved",
            refused_as="approved",
            reason=Reason.OPTIONAL,
            four_eyes=True,
            guards=(FOUR_EYES_GUARD,),
            changes_tables=True,
        ),
        Step(
            name="reject",
            verb="reject",
            sources=frozenset({S.DRAFT}),
            target=S.REJECTED,
            permission=Action.RECORD_SOFTWARE,
            label="Reject",
            done="rejected",
            refused_as="rejected",
            reason=Reason.REQUIRED,
            four_eyes=True,
            danger=True,
            guards=(FOUR_EYES_GUARD,),
        ),
        Step(
            name="withdraw",
            verb="withdraw",
            sources=frozenset({S.APPROVED}),
            target=S.WITHDRAWN,
            permission=Action.RECORD_SOFTWARE,
            label="Withdraw the approval",
            done="withdrawn",
            refused_as="withdrawn",
            reason=Reason.REQUIRED,
            danger=True,
            confirm="Withdraw it? Tables running this software close at once.",
            changes_tables=True,
        ),
    ),
    bad_transition=lambda approval, step: BAD_TRANSITION.format(
        status=S(approval.status).label.lower(),
        allowed=" or ".join(
            ("an " if s == S.APPROVED else "a ") + S(s).label.lower() for s in sorted(step.sources)
        ),
        verb=step.refused_as,
    ),
)


def picture(approval: SoftwareApproval) -> dict:
    """What the audit trail keeps of it."""
    return {
        "digest": approval.digest,
        "software_version": approval.software_version,
        "lab_reference": approval.lab_reference,
        "approved_on": approval.approved_on.isoformat(),
        "document_sha256": approval.document_sha256,
        "status": approval.status,
    }
