"""Every change to a void or an adjustment of a settled round goes through these services
(``correction_<verb>``), which check the workflow's table (``workflow.WORKFLOW``) and write
the audit event.

Approving moves the money, under the locks every movement of a player's money takes (the
wallet, then the account): a void gives back the round's stakes and takes back its returns
as far as the account can cover them without touching what pending withdrawals hold; the
rest is recorded as uncollected. The round's own row and chain are never touched."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.access.policy import Action, require, require_not_own
from portal.access.workflow import Reason, require_reason
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.money import dollars
from portal.core.validation import MAX_ID
from portal.game.corrections import composition, grounds
from portal.game.corrections import messages as msg
from portal.game.corrections.selectors import correction_or_404, round_account
from portal.game.corrections.workflow import CLAUSES, WORKFLOW, action_name, clause_of, picture
from portal.game.models import (
    AdjustmentGround,
    CorrectionKind,
    CorrectionStatus,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    PayoutFinding,
    Round,
    RoundCorrection,
)
from portal.game.money.selectors import locked

S = CorrectionStatus


MAX_ADJUSTMENT = 100_000_000  # $1,000,000
MAX_TEXT = 2000
MAX_NOTICE = 4000


def _text(value, *, field: str, needed: str, limit: int) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str) or not value.strip():
        raise ValidationFailed.on(field, needed)
    if len(value) > limit:
        raise ValidationFailed.on(field, msg.TEXT_TOO_LONG.format(limit=limit))
    return value.strip()


def _round_or_404(round_id) -> Round:
    if type(round_id) is not int or not 0 < round_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_ROUND.format(id=round_id))
    round_obj = Round.objects.select_related("offering").filter(pk=round_id).first()
    if round_obj is None:
        raise NotFound(msg.NO_SUCH_ROUND.format(id=round_id))
    return round_obj


def _owed(amount: int) -> str:
    return "a credit" if amount > 0 else "a debit"


def _adjustment_amount(amount) -> int:
    message = msg.ADJUSTMENT_AMOUNT.format(limit=dollars(MAX_ADJUSTMENT))
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise ValidationFailed.on("amount", message)
    return amount


def _refuse_clash(round_obj: Round, kind: CorrectionKind, amount: int):
    """A round is voided once, and has one correction waiting at a time; an adjustment of
    a void round would correct what no longer counts, except the one adjustment that puts
    right a round voided before voids undid adjustments (``composition.residual``): that
    one rests on the void (its ground is returned)."""
    ground = None
    others = RoundCorrection.objects.filter(round=round_obj).exclude(status=S.REJECTED)
    for other in others.only("kind", "status"):
        if other.kind == CorrectionKind.VOID and other.status == S.APPROVED:
            left = composition.residual_of(round_obj.pk)
            if kind == CorrectionKind.VOID or not left:
                raise Conflict(msg.ALREADY_VOID.format(round=round_obj.pk))
            if amount != -left:
                raise ValidationFailed.on(
                    "amount",
                    msg.RESIDUAL_ONLY.format(
                        round=round_obj.pk, left=dollars(abs(left)), owed=_owed(-left)
                    ),
                )
            ground = AdjustmentGround.VOID_RESIDUAL
        if other.status == S.PROPOSED:
            if other.kind == CorrectionKind.VOID and kind == CorrectionKind.VOID:
                raise Conflict(msg.VOID_WAITING.format(round=round_obj.pk))
            raise Conflict(msg.ONE_WAITING.format(round=round_obj.pk, kind=other.a_kind))
    return ground


def _finding(finding_id, round_obj: Round) -> PayoutFinding | None:
    if finding_id is None:
        return None
    if type(finding_id) is not int or not 0 < finding_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_FINDING.format(id=finding_id, round=round_obj.pk))
    found = PayoutFinding.objects.filter(pk=finding_id, round=round_obj).first()
    if found is None:
        raise NotFound(msg.NO_SUCH_FINDING.format(id=finding_id, round=round_obj.pk))
    return found


def _ground(round_obj: Round, amount: int, complaint, finding) -> AdjustmentGround:
    """What the adjustment rests on (reading:adjustment-grounds), or a refusal saying what
    it may rest on: a credit on an upheld dispute or a recorded payout error, a debit only
    on a recorded payout error."""
    if complaint is not None:
        if amount < 0:
            raise ValidationFailed.on("amount", msg.DEBIT_ON_COMPLAINT)
        return AdjustmentGround.DISPUTE
    error = grounds.payout_error(round_obj, finding)
    if error is not None:
        return error
    raise ValidationFailed.on(
        "finding", msg.CREDIT_NEEDS_GROUND if amount > 0 else msg.DEBIT_NEEDS_ERROR
    )


@transaction.atomic
def correction_propose(
    *, actor, round_id, kind, reason, amount=None, notice="", finding_id=None, complaint=None
) -> RoundCorrection:
    """Propose a void or an adjustment of a settled round; a second person decides it. An
    adjustment names what it rests on: an officer's payout finding (``finding_id``), the
    round settling otherwise, or (from ``complaints``) the upheld dispute it settles."""
    if kind not in CorrectionKind.values:
        raise ValidationFailed.on("kind", msg.KIND_UNKNOWN)
    kind = CorrectionKind(kind)
    clause = CLAUSES[kind]
    round_obj = _round_or_404(round_id)
    account = round_account(round_obj)
    require(actor, Action.CORRECT_ROUNDS, account)
    own_round = msg.OWN_ROUND.format(clause=clause, kind=kind.a_word)
    require_not_own(actor, player_id=account.player_id, message=own_round)
    reason = _text(
        reason, field="reason", needed=msg.REASON_NEEDED.format(clause=clause), limit=MAX_TEXT
    )
    undone = composition.Undone(0, 0)
    if kind == CorrectionKind.VOID:
        notice = "" if notice is None else notice
        if not isinstance(notice, str) or len(notice) > MAX_NOTICE:
            raise ValidationFailed.on("notice", msg.TEXT_TOO_LONG.format(limit=MAX_NOTICE))
        notice = notice.strip()
    else:
        amount = _adjustment_amount(amount)
        notice = _text(notice, field="notice", needed=msg.NOTICE_NEEDED, limit=MAX_NOTICE)
    finding = _finding(finding_id, round_obj)
    # The player's money lock: corrections of one player's rounds are proposed one by one.
    locked(account.pk, account.player_id)
    if kind == CorrectionKind.VOID:  # it undoes the round's adjustments too
        undone = composition.adjustments_moved(round_obj.pk)
        amount = composition.void_amount(
            staked=round_obj.total_staked, returned=round_obj.total_returned, undone=undone
        )
    ground = _refuse_clash(round_obj, kind, amount)
    if kind == CorrectionKind.ADJUSTMENT and ground is None:
        ground = _ground(round_obj, amount, complaint, finding)
    try:
        with transaction.atomic():
            correction = RoundCorrection.objects.create(
                round=round_obj,
                account=account,
                kind=kind,
                amount=amount,
                ground=ground or "",
                complaint=complaint,
                finding=finding,
                undone_credits=undone.credits,
                undone_debits=undone.debits,
                reason=reason,
                notice=notice,
                proposed_by=actor,
                proposed_at=timezone.now(),
            )
    except IntegrityError:  # a concurrent proposal won the unique constraint
        _refuse_clash(round_obj, kind, amount)
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


@transaction.atomic
def payout_finding_record(*, actor, round_id, text) -> PayoutFinding:
    """A compliance officer's written finding that a round was paid wrongly: a recorded
    payout error, on which an adjustment (a debit too) may rest (reading:adjustment-grounds)."""
    round_obj = _round_or_404(round_id)
    require(actor, Action.DECIDE, round_obj.offering)
    require_not_own(actor, player_id=round_obj.player_id, message=msg.OWN_FINDING)
    text = _text(text, field="text", needed=msg.FINDING_NEEDED, limit=MAX_TEXT)
    finding = PayoutFinding.objects.create(
        round=round_obj, found_by=actor, found_at=timezone.now(), text=text
    )
    audit_record(
        actor=actor,
        action="finding.record",
        object_type="round",
        object_id=round_obj.pk,
        after={"finding": finding.pk, "text": text},
    )
    return finding


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
        # The round's stakes and its adjustments' debits back; its returns and its
        # adjustments' credits taken (reading:corrections-compose).
        credit_amount = round_obj.total_staked + correction.undone_debits
        owed = round_obj.total_returned + correction.undone_credits
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
        raise ValidationFailed.on("reason", msg.REASON_NEEDED.format(clause=clause_of(correction)))
    if step.reason is Reason.REQUIRED and not (reason or "").strip():
        raise ValidationFailed.on("reason", msg.REASON_NEEDED.format(clause=clause_of(correction)))
    reason = require_reason(step, reason or "")
    if len(reason) > MAX_TEXT:
        raise ValidationFailed.on("reason", msg.TEXT_TOO_LONG.format(limit=MAX_TEXT))
    wallet, account = locked(correction.account_id, correction.account.player_id)
    # Two deciders at once: the second waits here, then finds it decided (409).
    fresh = RoundCorrection.objects.select_for_update(of=("self",)).get(pk=correction.pk)
    correction.status = fresh.status
    WORKFLOW.expect_status(correction, step)
    if step.target == S.APPROVED and correction.kind == CorrectionKind.VOID:
        # What it undoes was read when it was proposed; nothing can have moved since (a
        # round has one correction waiting at a time), and if it had, it would be wrong.
        now = composition.adjustments_moved(correction.round_id)
        if now != composition.Undone(correction.undone_credits, correction.undone_debits):
            raise Conflict(msg.VOID_OUTDATED.format(round=correction.round_id))
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
    if correction.complaint_id is not None:
        for hook in _SETTLES_A_COMPLAINT:
            hook(correction, actor=actor)
    return correction


# What other parts of the game do once a correction that settles a complaint is decided
# (the complaint is upheld, or reopens): added from the app's ``ready``, since the
# complaints sit above the corrections.
_SETTLES_A_COMPLAINT: list = []


def when_complaint_settled(hook) -> None:
    if hook not in _SETTLES_A_COMPLAINT:
        _SETTLES_A_COMPLAINT.append(hook)


@transaction.atomic
def correction_approve(*, actor, correction_id, reason="") -> RoundCorrection:
    """A second person approves a proposed void or adjustment: its money moves now."""
    return _decide(actor=actor, correction_id=correction_id, verb="approve", reason=reason)


@transaction.atomic
def correction_reject(*, actor, correction_id, reason) -> RoundCorrection:
    """A second person rejects it, saying why; nothing moves."""
    return _decide(actor=actor, correction_id=correction_id, verb="reject", reason=reason)


SERVICES = {"approve": correction_approve, "reject": correction_reject}
