"""The voids' and adjustments' workflow, declared once (§ 617a.6, § 812a.7(a)(9),
reading:voids-and-adjustments).

Proposing is a form of its own (``services.correction_propose``); approving and rejecting
are a second person's decision (four-eyes: not the proposer, nor anyone whose password
the proposer set or who set it, nor the round's player). The services enforce the table;
the pages' decision panel, the API's actions and the admin's actions read it, and the
audit events are named ``<kind>.<verb>`` (``void.approve``)."""

from __future__ import annotations

from portal.access.four_eyes import four_eyes_guard
from portal.access.policy import Action
from portal.access.workflow import Reason, Step, Workflow
from portal.game.corrections import messages as msg
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection

CLAUSES = {CorrectionKind.VOID: "§ 617a.6", CorrectionKind.ADJUSTMENT: "§ 812a.7(a)(9)"}


def kind_word(correction: RoundCorrection) -> str:
    return CorrectionKind(correction.kind).label.lower()


def a_kind(correction: RoundCorrection) -> str:
    return correction.a_kind


def clause_of(correction: RoundCorrection) -> str:
    return CLAUSES[CorrectionKind(correction.kind)]


def authors(correction: RoundCorrection) -> tuple[int | None, ...]:
    """Who may not decide it: whoever proposed it, and the player whose round it is."""
    return (correction.proposed_by_id, correction.account.player_id)


FOUR_EYES_GUARD = four_eyes_guard(
    authors,
    own_work=lambda c: msg.FOUR_EYES_PROPOSER_OR_PLAYER.format(clause=clause_of(c), kind=a_kind(c)),
    password_setter=lambda c: msg.FOUR_EYES_PASSWORD_SETTER.format(
        clause=clause_of(c), kind=kind_word(c)
    ),
)


S = CorrectionStatus
WORKFLOW = Workflow(
    statuses=CorrectionStatus,
    steps=(
        Step(
            name="approve",
            verb="approve",
            sources=frozenset({S.PROPOSED}),
            target=S.APPROVED,
            permission=Action.CORRECT_ROUNDS,
            label="Approve and apply",
            done="approved and applied",
            refused_as="approved",
            reason=Reason.OPTIONAL,
            four_eyes=True,
            confirm="Approve it? The money moves at once and cannot be moved back.",
            guards=(FOUR_EYES_GUARD,),
        ),
        Step(
            name="reject",
            verb="reject",
            sources=frozenset({S.PROPOSED}),
            target=S.REJECTED,
            permission=Action.CORRECT_ROUNDS,
            label="Reject",
            done="rejected",
            refused_as="rejected",
            reason=Reason.REQUIRED,
            four_eyes=True,
            danger=True,
            guards=(FOUR_EYES_GUARD,),
        ),
    ),
    bad_transition=lambda c, step: msg.NOT_PROPOSED.format(
        kind=kind_word(c), status=CorrectionStatus(c.status).label.lower(), verb=step.refused_as
    ),
)


def action_name(correction: RoundCorrection, verb: str) -> str:
    """The audit event's action: ``void.propose``, ``adjustment.approve``…"""
    return f"{correction.kind}.{verb}"


def picture(correction: RoundCorrection) -> dict:
    """What the audit trail keeps of it (``verify_records`` holds each to its event)."""
    return (
        {
            "round_id": correction.round_id,
            "account_id": correction.account_id,
            "kind": correction.kind,
            "status": correction.status,
            "amount": correction.amount,
            "reason": correction.reason,
            "notice": correction.notice,
            "credited": correction.credited,
            "debited": correction.debited,
            "uncollected": correction.uncollected,
            "credit_entry": correction.credit_entry_id,
            "debit_entry": correction.debit_entry_id,
        }
        | (
            # What an adjustment rests on (reading:adjustment-grounds), once grounds are recorded.
            {
                "ground": correction.ground,
                "complaint": correction.complaint_id,
                "finding": correction.finding_id,
            }
            if correction.ground
            else {}
        )
        | (
            # What a void undoes of the round's adjustments (reading:corrections-compose).
            {"undone_credits": correction.undone_credits, "undone_debits": correction.undone_debits}
            if correction.kind == "void"
            else {}
        )
    )
