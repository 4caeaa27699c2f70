"""The corrections of a settled round: a void and an adjustment, each decided by a second
person (reading:voids-and-adjustments).

A round is written once and never changed (§ 810a.11; its row and its chain stay as they
were). What was found wrong with it afterwards is a record of its own, beside it:

- a **void** (§ 617a.6: a malfunction voids all pays and plays) gives back every stake of
  the round and takes back every return, and undoes every adjustment of the round decided
  before it (reading:corrections-compose): it gives back what their debits took and takes
  back what their credits paid, so the player ends as if the round had never been played;
  each side is one ledger entry linked to it, the breakdown kept on the void. Where the
  account cannot cover the returns, it takes what is there (never the balance held for a
  pending withdrawal, never below zero) and records the rest as uncollected. Reports count
  a void round apart from play, whatever the money;
- an **adjustment** (§ 812a.7(a)(9): a wrong payout, an upheld dispute) credits or debits
  the difference, with the notification the player was sent kept beside it; a debit the
  account cannot cover is taken as far as it can be, and the rest recorded as uncollected.

Each is proposed with a reason and approved or rejected by someone else (``workflow``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from portal.game.models.accounts import GamingAccount, LedgerEntry
from portal.game.models.records import Round


class CorrectionKind(models.TextChoices):
    VOID = "void", "Void"
    ADJUSTMENT = "adjustment", "Adjustment"

    @property
    def a_word(self) -> str:
        """The kind in a sentence, with its article: "a void", "an adjustment"."""
        word = self.label.lower()
        return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


class CorrectionStatus(models.TextChoices):
    PROPOSED = "proposed", "Proposed"
    APPROVED = "approved", "Approved and applied"
    REJECTED = "rejected", "Rejected"


class AdjustmentGround(models.TextChoices):
    """What an adjustment rests on (reading:adjustment-grounds): a credit on an upheld
    dispute or a recorded payout error; a debit only on a recorded payout error."""

    DISPUTE = "dispute", "An upheld dispute"
    RESETTLED = "resettled", "The round settles otherwise when settled again"
    FINDING = "finding", "An officer's written finding of a payout error"
    VOID_RESIDUAL = "void_residual", "A void that left the round's adjustments in place"


class RoundCorrection(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="corrections")
    # The account the round was played from: its money moves, its holder's staff decide.
    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="corrections")
    kind = models.CharField(max_length=16, choices=CorrectionKind.choices)
    status = models.CharField(
        max_length=16, choices=CorrectionStatus.choices, default=CorrectionStatus.PROPOSED
    )
    amount = models.BigIntegerField(
        help_text="Minor units the player is owed (positive) or owes (negative): for a void, "
        "the round's stakes less its returns; for an adjustment, the difference."
    )
    reason = models.TextField(help_text="Why it was proposed.")
    # What an adjustment rests on; blank for voids and for adjustments made before grounds
    # were recorded (they stay as they were).
    ground = models.CharField(max_length=16, choices=AdjustmentGround.choices, blank=True)
    complaint = models.ForeignKey(
        "game.Complaint",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="adjustments",
    )
    finding = models.ForeignKey(
        "game.PayoutFinding",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="adjustments",
    )
    notice = models.TextField(
        blank=True, help_text="What the player is told (§ 812a.7(a)(9)), kept as sent."
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    # A void's undoing of the round's earlier adjustments (reading:corrections-compose): what
    # their credits paid, which it takes back, and what their debits took, which it gives
    # back. Zero on adjustments, and on voids of rounds never adjusted.
    undone_credits = models.BigIntegerField(default=0)
    undone_debits = models.BigIntegerField(default=0)
    # What approving it moved: money in, money out, and what could not be taken.
    credited = models.BigIntegerField(default=0)
    debited = models.BigIntegerField(default=0)
    uncollected = models.BigIntegerField(default=0)
    credit_entry = models.OneToOneField(
        LedgerEntry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="correction_credited",
    )
    debit_entry = models.OneToOneField(
        LedgerEntry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="correction_debited",
    )

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "proposed_at"], name="correction_queue")]
        constraints = [
            # A round is voided at most once, and has at most one correction waiting.
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(kind="void") & ~Q(status="rejected"),
                name="one_void_per_round",
            ),
            models.UniqueConstraint(
                fields=["round"], condition=Q(status="proposed"), name="one_open_correction"
            ),
            models.CheckConstraint(
                condition=~Q(kind="adjustment") | ~Q(amount=0), name="adjustment_not_zero"
            ),
            models.CheckConstraint(
                condition=Q(credited__gte=0) & Q(debited__gte=0) & Q(uncollected__gte=0),
                name="correction_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(undone_credits__gte=0, undone_debits__gte=0)
                & (Q(kind="void") | Q(undone_credits=0, undone_debits=0)),
                name="only_a_void_undoes_adjustments",
            ),
            # What it moved is what it said: credited less debited and uncollected.
            models.CheckConstraint(
                condition=Q(status="proposed", credited=0, debited=0, uncollected=0)
                | Q(status="rejected", credited=0, debited=0, uncollected=0)
                | Q(
                    status="approved",
                    amount=F("credited") - F("debited") - F("uncollected"),
                    decided_by__isnull=False,
                ),
                name="correction_moves_what_it_says",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display().lower()} of round {self.round_id}"

    @property
    def a_kind(self) -> str:
        """What it is, with its article, for a sentence ("an adjustment")."""
        return CorrectionKind(self.kind).a_word
