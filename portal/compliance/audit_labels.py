"""The audit trail's words for what the compliance app writes: each step of a record's
workflow (``<kind>.<verb>``, read as the verb alone, the record named beside it), a table's
openings and closings (§ 811a.7(f)), and the fields of records' pictures."""

from __future__ import annotations

from jinzi.wagers import KIND_LABELS as WAGER_LABELS
from portal.audit import labels
from portal.compliance.models import (
    Layout,
    Offering,
    Paytable,
    RulesSubmission,
    TermsAndConditions,
)
from portal.software.models import SoftwareApproval

# First in the trail's filter: the records, then their tables.
ORDER = 10

VERBS = {
    "create": "Created",
    "update": "Edited",
    "submit": "Submitted for review",
    "approve": "Approved",
    "reject": "Rejected",
    "request_changes": "Changes requested",
    "withdraw": "Approval withdrawn",
    "amend": "Amendment started",
    "supersede": "Superseded by a newer approval",
    "expire": "Expired",
    "retire": "Retired",
    "suspend": "Suspended while it is checked",
    "reopen": "Reopened after its check",
    "propose": "Proposed",
    "draft": "Recorded as a draft",
}
RECORD_KINDS = (Layout.kind, Paytable.kind, RulesSubmission.kind, TermsAndConditions.kind)
# The verbs the filter offers for each: a record's every step; a table's set-up steps.
RECORD_VERBS = tuple(verb for verb in VERBS if verb not in ("propose", "draft"))
# The game software's approvals (§ 461a.4): recorded, then decided or withdrawn.
SOFTWARE_KIND = SoftwareApproval.kind
SOFTWARE_VERBS = ("draft", "approve", "reject", "withdraw")
OFFERING_VERBS = ("create", "update", "retire", "suspend", "reopen")

ACTIONS = {
    "offering.opened": "Opened to play",
    "offering.closed": "Closed to play",
}

FIELDS = {
    "submitted_by_id": "Submitted by",
    "decided_by_id": "Decided by",
    "author_ids": "Written by",
    "layout_id": "Layout",
    "paytable_id": "Paytable",
    "rules_submission_id": "Rules submission",
    "offering_id": "Offering",
    "submitted_at": "Submitted",
    "decided_at": "Decided",
    "at": "When",
    "software_identity": "Game software (digest)",
    "effective_date": "Effective",
    "expiry_date": "Expires",
    "review_due": "Bureau review due",
    "decision_reason": "Reason for the decision",
    "edge_override_reason": "Reason for the house edge",
    "edge_acknowledged": "Wagers acknowledged with a house edge of zero or less",
    "series": "Series",
    "suspended_at": "Suspended",
    "suspended_by_id": "Suspended by",
    "suspension_reason": "Why it was suspended",
    "wheel_order": "Wheel order",
    "first_colour": "Colour of the first pocket",
    "artwork_content_type": "Artwork file type",
    "artwork_sha256": "Artwork fingerprint (SHA-256)",
    "reference_number": "Bureau reference",
    "games": "Games listed",
    "body": "Text players read and accept",
    "game": "Game",
    "chip_unit": "Chip unit",
    "min_wager": "Smallest wager",
    "max_wager": "Largest wager",
    "max_round_stake": "Largest stake in one round",
    "digest": "Game software (digest)",
    "software_version": "Software version",
    "lab_reference": "Laboratory's reference",
    "approved_on": "Approved by the Executive Director on",
    "document_sha256": "Approval letter's fingerprint (SHA-256)",
    # A paytable's odds, by wager.
    **{kind.value: label for kind, label in WAGER_LABELS.items()},
}


def register() -> None:
    labels.register_verbs(VERBS)
    labels.register_record_kinds(RECORD_KINDS, verbs=RECORD_VERBS, order=ORDER)
    labels.register_record_kinds([Offering.kind], verbs=OFFERING_VERBS, order=ORDER)
    labels.register_record_kinds([SOFTWARE_KIND], verbs=SOFTWARE_VERBS, order=ORDER)
    labels.register_actions(ACTIONS, order=ORDER)
    labels.register_object_kinds([*RECORD_KINDS, Offering.kind, SOFTWARE_KIND])
    labels.register_fields(
        FIELDS,
        money=("chip_unit", "min_wager", "max_wager", "max_round_stake"),
        codes=("cause", "first_colour", "game"),
        people=("submitted_by_id", "decided_by_id", "author_ids", "suspended_by_id"),
        records={
            "layout_id": Layout.kind,
            "paytable_id": Paytable.kind,
            "rules_submission_id": RulesSubmission.kind,
            "offering_id": Offering.kind,
        },
    )
