"""What a decision on a software approval does to the tables (§ 461a.4,
reading:software-approval), worked out by ``offering_is_live`` itself before the decision is
taken, so no decision changes a live table unseen: approving the software this server runs
opens the tables that wait only for it; withdrawing its approval closes every live table."""

from __future__ import annotations

from portal.compliance.models import OfferingStatus
from portal.compliance.selectors import Impact, offering_is_live, offerings_with_parts
from portal.core.software import running_identity
from portal.software.models import SoftwareApproval
from portal.software.workflow import WORKFLOW


def software_impact(approval: SoftwareApproval, step_name: str) -> Impact:
    """The tables ``step_name`` on ``approval`` would open or close now."""
    step = WORKFLOW.get(step_name)
    if step is None or not step.changes_tables or approval.digest != running_identity().digest:
        return Impact()
    tables = (
        offerings_with_parts()
        .exclude(status=OfferingStatus.RETIRED)
        .order_by("holder__name", "name")
    )
    if step.name == "approve":
        opens = [
            o
            for o in tables
            if not offering_is_live(o).live and offering_is_live(o, software_approved=True).live
        ]
        return Impact(opens=tuple(opens))
    return Impact(closes=tuple(o for o in tables if offering_is_live(o).live))
