"""Voids and adjustments of settled rounds, proposed by one person and decided by another
(§ 617a.6, § 812a.7(a)(9), reading:voids-and-adjustments).

The steps are declared once (``WORKFLOW``): proposing is a form of its own; approving and
rejecting are a second person's decision (four-eyes: not the proposer, nor anyone whose
password the proposer set or who set it, nor the round's player). The services enforce the
table; the pages' decision panel, the API's actions and the admin's actions read it, and the
audit events are named ``<kind>.<verb>`` (``void.approve``).

Approving moves the money, under the locks every movement of a player's money takes (the
wallet, then the account): a void gives back the round's stakes and takes back its returns
as far as the account can cover them without touching what pending withdrawals hold; the
rest is recorded as uncollected. The round's own row and chain are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from portal.access.four_eyes import four_eyes_guard
from portal.access.policy import Action, require
from portal.access.workflow import Reason, Step, Workflow, require_reason
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.validation import MAX_ID
from portal.game.accounts import locked
from portal.game.models import (
    CorrectionKind,
    CorrectionStatus,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Round,
    RoundCorrection,
)
from portal.game.money import dollars

MAX_ADJUSTMENT = 100_000_000  # $1,000,000
MAX_TEXT = 2000
MAX_NOTICE = 4000

CLAUSES = {CorrectionKind.VOID: "§ 617a.6", CorrectionKind.ADJUSTMENT: "§ 812a.7(a)(9)"}
KIND_UNKNOWN = "say what to propose: a void (§ 617a.6) or an adjustment (§ 812a.7(a)(9))"
NO_SUCH_ROUND = "no round {id}"
NO_SUCH_CORRECTION = "no void or adjustment {id}"
NO_ACCOUNT = (
    "§ 812a.4: round {round} was played before its player had an account with the table's "
    "holder; it cannot be corrected here"
)
REASON_NEEDED = "{clause}: give the reason (it is kept with the record and shown to the player)"
TEXT_TOO_LONG = "keep it to {limit} characters"
ADJUSTMENT_AMOUNT = (
    "§ 812a.7(a)(9): the adjustment is a whole number of cents, not zero, at most "
    "{limit} either way (positive credits the player, negative debits)"
)
NOTICE_NEEDED = (
    "§ 812a.7(a)(9): write the notification the player is sent about this adjustment; it is "
    "kept with it"
)
ALREADY_VOID = "§ 617a.6: round {round} is already void"
VOID_WAITING = "§ 617a.6: a void of round {round} is already waiting for a decision"
ONE_WAITING = "round {round} already has a {kind} waiting for a decision; decide that one first"
NOT_PROPOSED = "this {kind} is {status}; only a proposed one can be {verb}"
FOUR_EYES = (
    "{clause}: a {kind} is decided by someone other than who proposed it, and never by the "
    "round's player"
)
FOUR_EYES_PASSWORD_SETTER = (
    "{clause}: you set the password of whoever proposed this {kind}, or they set yours: "
    "someone else decides it"
)


def _kind(correction: RoundCorrection) -> str:
    return CorrectionKind(correction.kind).label.lower()


def _clause(correction: RoundCorrection) -> str:
    return CLAUSES[CorrectionKind(correction.kind)]


def authors(correction: RoundCorrection) -> tuple[int | None, ...]:
    """Who may not decide it: whoever proposed it, and the player whose round it is."""
    return (correction.proposed_by_id, correction.account.player_id)


FOUR_EYES_GUARD = four_eyes_guard(
    authors,
    own_work=lambda c: FOUR_EYES.format(clause=_clause(c), kind=_kind(c)),
    password_setter=lambda c: FOUR_EYES_PASSWORD_SETTER.format(clause=_clause(c), kind=_kind(c)),
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
    bad_transition=lambda c, step: NOT_PROPOSED.format(
        kind=_kind(c), status=CorrectionStatus(c.status).label.lower(), verb=step.refused_as
    ),
)


def action_name(correction: RoundCorrection, verb: str) -> str:
    """The audit event's action: ``void.propose``, ``adjustment.approve``…"""
    return f"{correction.kind}.{verb}"


def picture(correction: RoundCorrection) -> dict:
    """What the audit trail keeps of it (``verify_records`` holds each to its event)."""
    return {
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


# Reads ------------------------------------------------------------------------------------


def correction_or_404(correction_id) -> RoundCorrection:
    if type(correction_id) is not int or not 0 < correction_id <= MAX_ID:
        raise NotFound(NO_SUCH_CORRECTION.format(id=correction_id))
    found = (
        RoundCorrection.objects.select_related(
            "account__holder", "account__player", "round", "proposed_by", "decided_by"
        )
        .filter(pk=correction_id)
        .first()
    )
    if found is None:
        raise NotFound(NO_SUCH_CORRECTION.format(id=correction_id))
    return found


def round_account(round_obj: Round) -> GamingAccount:
    """The account the round was played from: the player's with the table's holder."""
    account = (
        GamingAccount.objects.select_related("holder")
        .filter(player_id=round_obj.player_id, holder_id=round_obj.offering.holder_id)
        .first()
    )
    if account is None:
        raise Conflict(NO_ACCOUNT.format(round=round_obj.pk))
    return account


def with_state(rounds: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds annotated ``voided`` and ``adjusted`` (approved corrections), in the same query."""
    approved = RoundCorrection.objects.filter(round=OuterRef("pk"), status=S.APPROVED)
    return rounds.annotate(
        voided=Exists(approved.filter(kind=CorrectionKind.VOID)),
        adjusted=Exists(approved.filter(kind=CorrectionKind.ADJUSTMENT)),
    )


def corrections_of(round_ids) -> dict[int, list[RoundCorrection]]:
    """Each round's voids and adjustments, oldest first, in one query."""
    found: dict[int, list[RoundCorrection]] = {}
    rows = RoundCorrection.objects.filter(round_id__in=list(round_ids)).select_related(
        "proposed_by", "decided_by"
    )
    for correction in rows.order_by("pk"):
        found.setdefault(correction.round_id, []).append(correction)
    return found


def state_of(corrections) -> str:
    """What a round's record says it is now: "void", "adjusted" or "complete" (as settled).
    Only an approved correction changes it; one waiting or rejected does not."""
    approved = {c.kind for c in corrections if c.status == S.APPROVED}
    if CorrectionKind.VOID in approved:
        return "void"
    return "adjusted" if CorrectionKind.ADJUSTMENT in approved else "complete"


STATE_WORDS = {"void": "Void", "adjusted": "Adjusted", "complete": "Complete"}


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


# Proposing --------------------------------------------------------------------------------


def _text(value, *, field: str, needed: str, limit: int) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str) or not value.strip():
        raise ValidationFailed.on(field, needed)
    if len(value) > limit:
        raise ValidationFailed.on(field, TEXT_TOO_LONG.format(limit=limit))
    return value.strip()


def _round_or_404(round_id) -> Round:
    if type(round_id) is not int or not 0 < round_id <= MAX_ID:
        raise NotFound(NO_SUCH_ROUND.format(id=round_id))
    round_obj = Round.objects.select_related("offering").filter(pk=round_id).first()
    if round_obj is None:
        raise NotFound(NO_SUCH_ROUND.format(id=round_id))
    return round_obj


def _adjustment_amount(amount) -> int:
    message = ADJUSTMENT_AMOUNT.format(limit=dollars(MAX_ADJUSTMENT))
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise ValidationFailed.on("amount", message)
    return amount


def _refuse_clash(round_obj: Round, kind: CorrectionKind) -> None:
    """A round is voided once, and has one correction waiting at a time; an adjustment of
    a void round would correct what no longer counts."""
    others = RoundCorrection.objects.filter(round=round_obj).exclude(status=S.REJECTED)
    for other in others.only("kind", "status"):
        if other.kind == CorrectionKind.VOID and other.status == S.APPROVED:
            raise Conflict(ALREADY_VOID.format(round=round_obj.pk))
        if other.status == S.PROPOSED:
            if other.kind == CorrectionKind.VOID and kind == CorrectionKind.VOID:
                raise Conflict(VOID_WAITING.format(round=round_obj.pk))
            label = CorrectionKind(other.kind).label.lower()
            raise Conflict(ONE_WAITING.format(round=round_obj.pk, kind=label))


@transaction.atomic
def correction_propose(*, actor, round_id, kind, reason, amount=None, notice="") -> RoundCorrection:
    """Propose a void or an adjustment of a settled round; a second person decides it."""
    if kind not in CorrectionKind.values:
        raise ValidationFailed.on("kind", KIND_UNKNOWN)
    kind = CorrectionKind(kind)
    clause = CLAUSES[kind]
    round_obj = _round_or_404(round_id)
    account = round_account(round_obj)
    require(actor, Action.CORRECT_ROUNDS, account)
    reason = _text(
        reason, field="reason", needed=REASON_NEEDED.format(clause=clause), limit=MAX_TEXT
    )
    if kind == CorrectionKind.VOID:
        amount = round_obj.total_staked - round_obj.total_returned
        notice = "" if notice is None else notice
        if not isinstance(notice, str) or len(notice) > MAX_NOTICE:
            raise ValidationFailed.on("notice", TEXT_TOO_LONG.format(limit=MAX_NOTICE))
        notice = notice.strip()
    else:
        amount = _adjustment_amount(amount)
        notice = _text(notice, field="notice", needed=NOTICE_NEEDED, limit=MAX_NOTICE)
    # The player's money lock: corrections of one player's rounds are proposed one by one.
    locked(account.pk, account.player_id)
    _refuse_clash(round_obj, kind)
    try:
        with transaction.atomic():
            correction = RoundCorrection.objects.create(
                round=round_obj,
                account=account,
                kind=kind,
                amount=amount,
                reason=reason,
                notice=notice,
                proposed_by=actor,
                proposed_at=timezone.now(),
            )
    except IntegrityError:  # a concurrent proposal won the unique constraint
        _refuse_clash(round_obj, kind)
        raise
    audit_record(
        actor=actor,
        action=action_name(correction, "propose"),
        object_type=kind.value,
        object_id=correction.pk,
        after=picture(correction),
        reason=reason,
    )
    return correction


# Deciding ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    credit: LedgerEntry | None
    debit: LedgerEntry | None
    uncollected: int


def _apply(correction: RoundCorrection, wallet, account: GamingAccount) -> Applied:
    """Move the money: credit first, then debit what the account can spare (its balance
    less what pending withdrawals hold), never below zero; the rest is uncollected."""
    round_obj = correction.round
    if correction.kind == CorrectionKind.VOID:
        credit_amount, owed = round_obj.total_staked, round_obj.total_returned
        kinds = (LedgerKind.VOID_STAKES, LedgerKind.VOID_RETURNS)
    else:
        credit_amount, owed = max(correction.amount, 0), max(-correction.amount, 0)
        kinds = (LedgerKind.ADJUSTMENT_CREDIT, LedgerKind.ADJUSTMENT_DEBIT)

    def entry(kind: LedgerKind, amount: int) -> LedgerEntry | None:
        """Move ``amount`` (signed) with its ledger entry naming the round; none for 0."""
        if not amount:
            return None
        account.balance += amount
        return LedgerEntry.objects.create(
            wallet=wallet,
            account=account,
            kind=kind,
            amount=amount,
            balance_after=account.balance,
            round=round_obj,
        )

    credit = entry(kinds[0], credit_amount)
    taken = min(owed, account.balance - account.held)
    debit = entry(kinds[1], -taken)
    account.save(update_fields=["balance", "updated_at"])
    return Applied(credit, debit, owed - taken)


def _decide(*, actor, correction_id, verb: str, reason) -> RoundCorrection:
    step = WORKFLOW[verb]
    correction = correction_or_404(correction_id)
    WORKFLOW.check(step, correction, actor)
    if reason is not None and not isinstance(reason, str):
        raise ValidationFailed.on("reason", REASON_NEEDED.format(clause=_clause(correction)))
    if step.reason is Reason.REQUIRED and not (reason or "").strip():
        raise ValidationFailed.on("reason", REASON_NEEDED.format(clause=_clause(correction)))
    reason = require_reason(step, reason or "")
    if len(reason) > MAX_TEXT:
        raise ValidationFailed.on("reason", TEXT_TOO_LONG.format(limit=MAX_TEXT))
    wallet, account = locked(correction.account_id, correction.account.player_id)
    # Two deciders at once: the second waits here, then finds it decided (409).
    fresh = RoundCorrection.objects.select_for_update(of=("self",)).get(pk=correction.pk)
    correction.status = fresh.status
    WORKFLOW.expect_status(correction, step)
    before = {"status": correction.status, "balance": account.balance, "held": account.held}
    fields = ["status", "decided_by", "decided_at", "decision_reason"]
    if step.target == S.APPROVED:
        applied = _apply(correction, wallet, account)
        correction.credit_entry = applied.credit
        correction.debit_entry = applied.debit
        correction.credited = applied.credit.amount if applied.credit else 0
        correction.debited = -applied.debit.amount if applied.debit else 0
        correction.uncollected = applied.uncollected
        fields += ["credit_entry", "debit_entry", "credited", "debited", "uncollected"]
    correction.status = step.target
    correction.decided_by = actor
    correction.decided_at = timezone.now()
    correction.decision_reason = reason
    correction.save(update_fields=fields)
    after = picture(correction) | {"balance_after": account.balance}
    audit_record(
        actor=actor,
        action=action_name(correction, step.verb),
        object_type=correction.kind,
        object_id=correction.pk,
        before=before,
        after=after,
        reason=reason,
    )
    return correction


@transaction.atomic
def correction_approve(*, actor, correction_id, reason="") -> RoundCorrection:
    """A second person approves a proposed void or adjustment: its money moves now."""
    return _decide(actor=actor, correction_id=correction_id, verb="approve", reason=reason)


@transaction.atomic
def correction_reject(*, actor, correction_id, reason) -> RoundCorrection:
    """A second person rejects it, saying why; nothing moves."""
    return _decide(actor=actor, correction_id=correction_id, verb="reject", reason=reason)


SERVICES = {"approve": correction_approve, "reject": correction_reject}
