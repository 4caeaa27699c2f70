"""Every change to a complaint goes through these services (``complaint_<verb>``), each
writing its audit event; nothing is edited: notes are added, steps recorded.

- ``complaint_file``: the player, with the holder whose tables they played, also while
  suspended or self-excluded. It gets its number at once (reading:complaint-number).
- ``complaint_take``, ``complaint_note``: the holder's supervisors, compliance officers.
- ``complaint_close``: upheld or not upheld, with the written answer. An upheld dispute
  about money may propose an adjustment linked to it (reading:adjustment-grounds); the
  answer then waits for that adjustment's decision, and a rejection reopens the complaint
  (``correction_decided``, called by the corrections' decision).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.access.policy import Action, require, require_not_own
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.padates import pa_date
from portal.core.validation import MAX_ID
from portal.game.complaints import messages as msg
from portal.game.complaints.selectors import may_handle
from portal.game.corrections.services import correction_propose
from portal.game.models import (
    OPEN_STATUSES,
    Complaint,
    ComplaintCounter,
    ComplaintKind,
    ComplaintNote,
    ComplaintStatus,
    CorrectionStatus,
    GamingAccount,
    LedgerEntry,
    Round,
    RoundCorrection,
)

S = ComplaintStatus
MAX_SUBJECT = 200
MAX_TEXT = 4000
MAX_LINKED = 50
OUTCOMES = {"upheld": S.UPHELD, "not_upheld": S.NOT_UPHELD}


def _text(value, *, field: str, needed: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ValidationFailed.on(field, needed)
    return value.strip()


def _ids(values, *, field: str, what: str) -> list[int]:
    values = [] if values is None else values
    if not isinstance(values, list | tuple) or len(values) > MAX_LINKED:
        raise ValidationFailed.on(field, msg.IDS.format(what=what))
    for value in values:
        if type(value) is not int or not 0 < value <= MAX_ID:
            raise ValidationFailed.on(field, msg.IDS.format(what=what))
    return sorted(set(values))


def _number(holder) -> str:
    """The next complaint number of ``holder`` this Pennsylvania year, under its counter's
    lock: unique across holders (it starts with the holder's licence number), never reused."""
    year = pa_date(timezone.now()).year
    try:
        with transaction.atomic():
            ComplaintCounter.objects.get_or_create(holder=holder, year=year)
    except IntegrityError:  # made by a concurrent filing: it is there now
        pass
    counter = ComplaintCounter.objects.select_for_update().get(holder=holder, year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    return f"{holder.licence_number}-{year}-{counter.last:05d}"


@transaction.atomic
def complaint_file(
    *, player, holder_id, kind, subject, description, request, rounds=(), movements=()
) -> Complaint:
    """A player's complaint or dispute with the holder whose tables they played: numbered
    at once. Filed also while their account is suspended or they are excluded."""
    require(player, Action.PLAY)
    if kind not in ComplaintKind.values:
        raise ValidationFailed.on("kind", msg.KIND_UNKNOWN)
    account = None
    if type(holder_id) is int and 0 < holder_id <= MAX_ID:
        account = (
            GamingAccount.objects.select_related("holder")
            .filter(player=player, holder_id=holder_id)
            .first()
        )
    if account is None:
        raise NotFound(msg.NO_ACCOUNT)
    subject = _text(
        subject, field="subject", needed=msg.SUBJECT_NEEDED.format(limit=MAX_SUBJECT),
        limit=MAX_SUBJECT,
    )  # fmt: skip
    needed = msg.TEXT_NEEDED
    description = _text(
        description, field="description",
        needed=needed.format(what="Say what happened", limit=MAX_TEXT), limit=MAX_TEXT,
    )  # fmt: skip
    request = _text(
        request, field="request",
        needed=needed.format(what="Say what you ask for", limit=MAX_TEXT), limit=MAX_TEXT,
    )  # fmt: skip
    round_ids = _ids(rounds, field="rounds", what="rounds")
    movement_ids = _ids(movements, field="movements", what="movements")
    own_rounds = set(
        Round.objects.filter(
            pk__in=round_ids, player=player, offering__holder_id=holder_id
        ).values_list("pk", flat=True)
    )
    for round_id in round_ids:
        if round_id not in own_rounds:
            raise NotFound(msg.NO_SUCH_ROUND.format(id=round_id))
    own_movements = set(
        LedgerEntry.objects.filter(pk__in=movement_ids, account=account).values_list(
            "pk", flat=True
        )
    )
    for movement_id in movement_ids:
        if movement_id not in own_movements:
            raise NotFound(msg.NO_SUCH_MOVEMENT.format(id=movement_id))
    if kind == ComplaintKind.DISPUTE and not (round_ids or movement_ids):
        raise ValidationFailed.on("rounds", msg.DISPUTE_NEEDS_MONEY)
    complaint = Complaint.objects.create(
        number=_number(account.holder),
        holder=account.holder,
        account=account,
        player=player,
        kind=kind,
        subject=subject,
        description=description,
        request=request,
        opened_at=timezone.now(),
    )
    complaint.rounds.set(round_ids)
    complaint.movements.set(movement_ids)
    audit_record(
        actor=player,
        action="complaint.file",
        object_type="complaint",
        object_id=complaint.pk,
        after={
            "number": complaint.number,
            "holder_id": account.holder_id,
            "kind": kind,
            "subject": subject,
            "rounds": round_ids,
            "movements": movement_ids,
        },
    )
    return complaint


def _handled(actor, complaint_id, *, lock: bool = True) -> Complaint:
    """The complaint ``actor`` may handle (the holder's supervisors, compliance officers;
    never their own), locked; another holder's is not found."""
    require(actor, Action.CORRECT_ROUNDS)  # a role that handles none: 403
    if type(complaint_id) is not int or not 0 < complaint_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_COMPLAINT.format(id=complaint_id))
    found = Complaint.objects.select_for_update() if lock else Complaint.objects
    complaint = found.filter(pk=complaint_id).first()
    if complaint is None:
        raise NotFound(msg.NO_SUCH_COMPLAINT.format(id=complaint_id))
    if not may_handle(actor, complaint):
        raise NotFound(msg.NO_SUCH_COMPLAINT.format(id=complaint_id))
    require(actor, Action.CORRECT_ROUNDS, complaint)
    require_not_own(actor, player_id=complaint.player_id, message=msg.OWN_COMPLAINT)
    return complaint


def _refuse_closed(complaint: Complaint, *, allowed=(S.RECEIVED, S.INVESTIGATING)) -> None:
    if complaint.status not in allowed:
        status = ComplaintStatus(complaint.status).label.lower()
        raise Conflict(msg.NOT_OPEN.format(number=complaint.number, status=status))


def _event(actor, complaint: Complaint, action: str, **after) -> None:
    audit_record(
        actor=actor,
        action=f"complaint.{action}",
        object_type="complaint",
        object_id=complaint.pk,
        after={"number": complaint.number, "status": complaint.status, **after},
    )


@transaction.atomic
def complaint_take(*, actor, complaint_id) -> Complaint:
    """Take a complaint to investigate it: its handler is now ``actor``."""
    complaint = _handled(actor, complaint_id)
    _refuse_closed(complaint)
    complaint.status, complaint.handler, complaint.taken_at = S.INVESTIGATING, actor, timezone.now()
    complaint.save(update_fields=["status", "handler", "taken_at"])
    _event(actor, complaint, "take")
    return complaint


@transaction.atomic
def complaint_note(*, actor, complaint_id, text) -> ComplaintNote:
    """A dated note on an open complaint: added, never changed."""
    complaint = _handled(actor, complaint_id)
    _refuse_closed(complaint, allowed=OPEN_STATUSES)
    text = _text(
        text, field="text", needed=msg.TEXT_NEEDED.format(what="Write the note", limit=MAX_TEXT),
        limit=MAX_TEXT,
    )  # fmt: skip
    note = ComplaintNote.objects.create(
        complaint=complaint, author=actor, written_at=timezone.now(), text=text
    )
    _event(actor, complaint, "note", note=note.pk, text=text)
    return note


@transaction.atomic
def complaint_close(
    *, actor, complaint_id, outcome, answer, adjust_round=None, amount=None, notice=""
) -> Complaint:
    """Close a complaint as upheld or not upheld with the written answer to the player.
    An upheld dispute about money may be settled by an adjustment (a credit, of one of the
    rounds it names), proposed here and decided by someone else: the answer goes to the
    player once it is decided."""
    complaint = _handled(actor, complaint_id)
    _refuse_closed(complaint)
    if outcome not in OUTCOMES:
        raise ValidationFailed.on("outcome", msg.OUTCOME_UNKNOWN)
    answer = _text(
        answer, field="answer",
        needed=msg.TEXT_NEEDED.format(what="Write the answer to the player", limit=MAX_TEXT),
        limit=MAX_TEXT,
    )  # fmt: skip
    complaint.answer, complaint.answered_by = answer, actor
    adjusting = adjust_round is not None or amount is not None
    if adjusting:
        if OUTCOMES[outcome] != S.UPHELD or complaint.kind != ComplaintKind.DISPUTE:
            raise ValidationFailed.on("amount", msg.ADJUSTMENT_ONLY_UPHELD)
        named = sorted(complaint.rounds.values_list("pk", flat=True))
        if adjust_round not in named:
            rounds = ", ".join(str(r) for r in named) or "none"
            raise ValidationFailed.on("round", msg.ADJUSTMENT_ROUND.format(rounds=rounds))
        correction_propose(
            actor=actor,
            round_id=adjust_round,
            kind="adjustment",
            reason=f"Dispute {complaint.number} upheld: {answer}"[:2000],
            amount=amount,
            notice=notice,
            complaint=complaint,
        )
        complaint.status = S.AWAITING_ADJUSTMENT
        complaint.save(update_fields=["status", "answer", "answered_by"])
        _event(actor, complaint, "uphold", answer=answer, round=adjust_round, amount=amount)
        return complaint
    complaint.status, complaint.closed_at = OUTCOMES[outcome], timezone.now()
    complaint.save(update_fields=["status", "closed_at", "answer", "answered_by"])
    _event(actor, complaint, "close", outcome=outcome, answer=answer)
    return complaint


def correction_decided(correction: RoundCorrection, *, actor) -> None:
    """After an adjustment settling a complaint is decided: approved, the complaint is
    upheld and its answer goes to the player; rejected, it reopens for its handlers."""
    complaint = Complaint.objects.select_for_update().get(pk=correction.complaint_id)
    if complaint.status != S.AWAITING_ADJUSTMENT:
        return
    if correction.status == CorrectionStatus.APPROVED:
        complaint.status, complaint.closed_at = S.UPHELD, timezone.now()
        complaint.save(update_fields=["status", "closed_at"])
        _event(actor, complaint, "close", outcome="upheld", answer=complaint.answer)
    else:
        complaint.status = S.INVESTIGATING
        complaint.save(update_fields=["status"])
        _event(actor, complaint, "reopen", adjustment=correction.pk)
