"""How a round's voids and adjustments are shown: the round's state after them ("Void",
"Adjusted", "Complete"), one correction as the pages, the API and exports show it, and
why someone may not decide one, in the workflow's own words."""

from __future__ import annotations

from portal.access.four_eyes import OWN_WORK
from portal.access.policy import Action, may
from portal.compliance.presenters.decisions import DecisionRefusal
from portal.game.corrections.workflow import WORKFLOW
from portal.game.models import CorrectionKind, CorrectionStatus, Round, RoundCorrection

STATE_WORDS = {"void": "Void", "adjusted": "Adjusted", "complete": "Complete"}


def state_of(corrections) -> str:
    """What a round's record says it is now: "void", "adjusted" or "complete" (as settled).
    Only an approved correction changes it; one waiting or rejected does not."""
    approved = {c.kind for c in corrections if c.status == CorrectionStatus.APPROVED}
    if CorrectionKind.VOID in approved:
        return "void"
    return "adjusted" if CorrectionKind.ADJUSTMENT in approved else "complete"


def correction_data(correction: RoundCorrection) -> dict:
    """One void or adjustment as pages, the API and exports show it: who, when and why."""
    decided_by = correction.decided_by
    return {
        "id": correction.pk,
        "round": correction.round_id,
        "kind": correction.kind,
        "kind_label": CorrectionKind(correction.kind).label,
        "status": correction.status,
        "status_label": CorrectionStatus(correction.status).label,
        "amount": correction.amount,
        "reason": correction.reason,
        "ground": correction.ground,
        "notice": correction.notice,
        "proposed_by": correction.proposed_by.get_username(),
        "proposed_at": correction.proposed_at,
        "decided_by": decided_by.get_username() if decided_by is not None else None,
        "decided_at": correction.decided_at,
        "decision_reason": correction.decision_reason,
        "credited": correction.credited,
        "debited": correction.debited,
        "uncollected": correction.uncollected,
    }


def state_key(round_obj: Round) -> str:
    """A round's state from ``selectors.with_state``'s annotations: "void", "adjusted"
    or "complete" (as settled). A void outweighs an adjustment made before it."""
    if getattr(round_obj, "voided", False):
        return "void"
    return "adjusted" if getattr(round_obj, "adjusted", False) else "complete"


def state_word(round_obj: Round) -> str:
    """The lists' word for a round's state: "Complete", "Void" or "Adjusted"."""
    return STATE_WORDS[state_key(round_obj)]


def correction_refusal(user, correction: RoundCorrection) -> DecisionRefusal | None:
    """Why ``user`` may not decide ``correction``, said where the decision panel would be;
    None when they may decide it. The rule is the four-eyes guard's own
    (``WORKFLOW.refusal``: who set whose password is read only for someone otherwise
    allowed to decide, one query); the sentence before it speaks to the user."""
    kind = CorrectionKind(correction.kind).label.lower()
    if correction.status != CorrectionStatus.PROPOSED:
        status = CorrectionStatus(correction.status).label.lower()
        return DecisionRefusal(f"This {kind} is {status}: nothing is left to decide.")
    if not may(user, Action.CORRECT_ROUNDS, correction.account):
        return DecisionRefusal(
            "Your role does not decide voids and adjustments: a compliance officer, or a "
            f"supervisor of {correction.account.holder.name}, who did not propose it decides."
        )
    refused = WORKFLOW.refusal(correction, user)
    if refused is None:
        return None
    if refused.cause != OWN_WORK:
        sentence = (
            "A password one of you did not choose links you to whoever proposed it: someone "
            f"else decides this {kind}."
        )
    elif user.pk == correction.proposed_by_id:
        sentence = f"You proposed this {kind}: someone else decides it."
    else:
        sentence = f"You played this round: someone else decides this {kind}."
    return DecisionRefusal(sentence, refused.rule)
