"""What the API's documentation says of each operation on the versioned records (layouts,
paytables, rules submissions, terms and conditions), for whoever calls it
(``portal.api.schema``)."""

from __future__ import annotations

WHO_SEES = "Compliance officers and auditors see every holder's; a manager sees their own holder's."


def record_descriptions(noun: str, plural: str, *, clause: str) -> dict[str, str]:
    """Each operation's description for one kind of record (``noun`` "layout", ``plural``
    "layouts"), citing the ``clause`` its approval answers to."""
    return {
        "list": (
            f"The {plural} you may see, every version, newest change first. {WHO_SEES} "
            "Filter by status."
        ),
        "retrieve": f"One {noun}, any version, if it is one you may see. {WHO_SEES}",
        "create": (
            f"Start a new {noun} as a draft (version 1). A manager drafts for their own "
            "holder (no need to name it); a superuser names the holder. Nothing is in play "
            "until the draft is submitted and approved."
        ),
        "partial_update": (
            f"Change a draft {noun}, or one sent back for changes: only the fields you send "
            "change. A submitted or decided version cannot be edited; amend it instead."
        ),
        "submit": (
            "Send the draft to compliance for review: it can no longer be edited, and a "
            "compliance officer who did not create, edit or submit it decides it."
        ),
        "approve": (
            f"Approve a submitted {noun} ({clause}), as a compliance officer who did not "
            "create, edit or submit it (four-eyes): from then on tables may be played on it. "
            "Send the impact fingerprint you were shown (impact) to have the approval "
            "refused if the tables it opens or closes have changed since."
        ),
        "reject": (
            f"Reject a submitted {noun}, saying why. It stays on record, and can be neither "
            "edited nor approved."
        ),
        "request_changes": (
            f"Send a submitted {noun} back to its holder for changes, saying what. The holder "
            "edits it and submits it again."
        ),
        "withdraw": (
            f"Withdraw an approved {noun}, saying why: tables that use it go dark at once. "
            "Compliance officers, or a manager for their own holder."
        ),
        "amend": (
            f"Start the next version of an approved {noun} as a draft, to change and submit; "
            "the approved version is left as it is."
        ),
        "impact": (
            f"Before deciding: for each step this {noun}'s status allows that opens or "
            "closes tables (approve, withdraw, and its expiry at midnight), the tables it "
            "would take dark or bring live, with the fingerprint to send back with the step."
        ),
    }
