"""Corrections compose (reading:corrections-compose): a void undoes everything its round
moved, its earlier adjustments included, so the player ends as if the round had never been
played; nothing more is adjusted on a void round.

- A void gives back the round's stakes and what its approved adjustments' debits took, and
  takes back its returns and what their credits paid (``Undone``, kept on the void).
- A round voided before voids undid adjustments (an earlier rule) keeps a **residual**: the
  money its adjustments moved that its void did not undo. Such a round is listed by the
  records' verification and the audit report, and is put right only by one adjustment of
  exactly the residual's opposite, proposed and decided under four-eyes like any other;
  never by a migration.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum

from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection


@dataclass(frozen=True)
class Undone:
    """What a round's approved adjustments moved, for its void to undo."""

    credits: int  # what their credits paid the player: the void takes it back
    debits: int  # what their debits took from the player: the void gives it back


def adjustments_moved(round_id: int) -> Undone:
    """What the round's approved adjustments credited and debited (one query)."""
    sums = RoundCorrection.objects.filter(
        round_id=round_id, kind=CorrectionKind.ADJUSTMENT, status=CorrectionStatus.APPROVED
    ).aggregate(credits=Sum("credited"), debits=Sum("debited"))
    return Undone(sums["credits"] or 0, sums["debits"] or 0)


def void_amount(*, staked: int, returned: int, undone: Undone) -> int:
    """What a void owes the player (negative: what the player owes): the stakes and the
    adjustments' debits given back, less the returns and the adjustments' credits."""
    return staked + undone.debits - returned - undone.credits


def residual(corrections: list[RoundCorrection]) -> int:
    """The money a void round's adjustments still leave moved (positive: the player keeps
    it), given the round's corrections in the order they were decided; 0 when the round is
    not void, or its void undid them, or a completing adjustment since did."""
    approved = [c for c in corrections if c.status == CorrectionStatus.APPROVED]
    voids = [c for c in approved if c.kind == CorrectionKind.VOID]
    if not voids:
        return 0
    void = voids[0]
    left = -(void.undone_credits - void.undone_debits)
    for correction in approved:
        if correction.kind != CorrectionKind.ADJUSTMENT:
            continue
        if correction.decided_at <= void.decided_at:
            left += correction.credited - correction.debited
        else:  # a completing adjustment: what it was due counts, collected or not
            left += correction.amount
    return left


def residual_of(round_id: int) -> int:
    """``residual`` of one round's corrections (one query)."""
    found = RoundCorrection.objects.filter(round_id=round_id).order_by("decided_at", "pk")
    return residual(list(found))
