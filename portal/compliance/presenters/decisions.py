"""Why a user may not decide a version, said where the decision panel would be
(four-eyes, a role that does not decide, a status with nothing left to decide). The rule
is the four-eyes guard's own (``RECORD_WORKFLOW.refusal``): the guard that would refuse
the decision is the one that explains it."""

from __future__ import annotations

from dataclasses import dataclass

from portal.access.four_eyes import OWN_WORK
from portal.access.policy import Action, may
from portal.compliance.workflow import RECORD_WORKFLOW, REVIEWED_STATUSES


@dataclass(frozen=True)
class DecisionRefusal:
    """Why a user may not decide a version, shown where the decision panel would be."""

    reason: str
    rule: str = ""  # the rule's own words (four-eyes), when one applies


def _carried_from(record, user, versions) -> int | None:
    """The earlier version whose authorship ``record`` carries on and ``user`` shares, if
    any: an amendment of a version never approved keeps its authors (the amendment step)."""
    previous = next((v for v in versions if v.version == record.version - 1), None)
    if previous is None or previous.status in REVIEWED_STATUSES:
        return None
    authors = (
        type(record)
        .objects.filter(pk=previous.pk)
        .values_list("created_by_id", "submitted_by_id", "author_ids")
        .first()
    )
    if authors is None or user.pk not in {authors[0], authors[1], *(authors[2] or [])}:
        return None
    return previous.version


def _own_work_reason(record, user, versions) -> str:
    did = []
    if record.created_by_id == user.pk:
        did.append("created")
    carried = None
    if user.pk in record.author_ids and user.pk not in (
        record.created_by_id,
        record.submitted_by_id,
    ):
        carried = _carried_from(record, user, versions)
        if carried is None:
            did.append("edited")
    if record.submitted_by_id == user.pk:
        did.append("submitted")
    parts = [f"{' and '.join(did)} this version"] if did else []
    if carried is not None:
        parts.append(f"wrote v{carried}, never approved, whose content this version carries on")
    return f"You {', and '.join(parts)}: another officer must decide it (four-eyes)."


def decision_refusal(user, record, versions) -> DecisionRefusal | None:
    """Why ``user`` may not approve, reject or send back ``record`` now, or None if they
    may (``versions``: its series, newest first). Nothing is said to a user whose role
    never decides, unless the version awaits a decision."""
    submitted = record.status == "submitted"
    if not may(user, Action.DECIDE, record):
        if not submitted:
            return None
        return DecisionRefusal(
            "Your role does not approve, reject or send back records: a compliance officer "
            "who did not write this version decides it."
        )
    if not submitted:
        status = record.get_status_display().lower()
        if record.status == "draft":
            reason = f"v{record.version} is a draft: it is decided once it is submitted."
        elif record.status == "changes_requested":
            reason = (
                "Changes were requested: the holder amends it into a new version, which is "
                "decided once submitted."
            )
        else:
            reason = f"This version is {status}: nothing is left to decide."
        return DecisionRefusal(reason)
    refused = RECORD_WORKFLOW.refusal(record, user)
    if refused is None:
        return None
    if refused.cause == OWN_WORK:
        return DecisionRefusal(_own_work_reason(record, user, versions), refused.rule)
    return DecisionRefusal(
        "A password one of you did not choose links you to an author of this version: "
        "another officer must decide it (four-eyes).",
        refused.rule,
    )
