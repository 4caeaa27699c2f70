"""Complaints and disputes a player files with the holder first (reading:complaint-number),
and the grounds an adjustment rests on (reading:adjustment-grounds).

- A **complaint** has a number at once, unique across holders and never reused (the
  holder's licence number, the Pennsylvania year, a sequence per holder and year), the
  rounds or money movements it concerns (the player's own), what happened and what the
  player asks. The holder's supervisors (compliance officers for every holder) take it, add
  dated notes and close it as upheld or not upheld with a written answer that tells the
  player they may take it to the Board quoting its number. Nothing is edited: notes are
  added, each step is an audit event.
- A **dispute** about money, upheld, is settled by an adjustment linked to it, decided
  under four-eyes; the answer reaches the player only once the adjustment is decided, and a
  rejected adjustment reopens the complaint.
- A **payout finding** is an officer's written finding that a round was paid wrongly: with
  a round whose recorded returns differ from what ``jinzi`` settles again under its
  recorded paytable and wheel, it is a recorded payout error, the one ground of a debit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from portal.compliance.models import CertificateHolder
from portal.game.models.accounts import GamingAccount, LedgerEntry
from portal.game.models.records import Round


class ComplaintKind(models.TextChoices):
    COMPLAINT = "complaint", "A complaint"
    DISPUTE = "dispute", "A dispute about money"


class ComplaintStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    INVESTIGATING = "investigating", "Being investigated"
    # Upheld with an adjustment that waits for a second person's decision: the answer is
    # written, and sent once the adjustment is decided.
    AWAITING_ADJUSTMENT = "awaiting_adjustment", "Upheld: the adjustment waits for a decision"
    UPHELD = "upheld", "Upheld"
    NOT_UPHELD = "not_upheld", "Not upheld"


OPEN_STATUSES = (
    ComplaintStatus.RECEIVED,
    ComplaintStatus.INVESTIGATING,
    ComplaintStatus.AWAITING_ADJUSTMENT,
)
CLOSED_STATUSES = (ComplaintStatus.UPHELD, ComplaintStatus.NOT_UPHELD)


class ComplaintCounter(models.Model):
    """The last complaint number given for one holder in one Pennsylvania year: taken under
    its row lock, so a number is given once and never again."""

    holder = models.ForeignKey(CertificateHolder, on_delete=models.PROTECT, related_name="+")
    year = models.PositiveSmallIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["holder", "year"], name="complaint_counter_once")
        ]

    def __str__(self) -> str:
        return f"complaints of holder #{self.holder_id} in {self.year}: {self.last}"


class Complaint(models.Model):
    number = models.CharField(max_length=100, unique=True, editable=False)
    holder = models.ForeignKey(CertificateHolder, on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="complaints")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="complaints"
    )
    kind = models.CharField(max_length=16, choices=ComplaintKind.choices)
    subject = models.CharField(max_length=200)
    description = models.TextField(help_text="What happened, in the player's words.")
    request = models.TextField(help_text="What the player asks for.")
    rounds = models.ManyToManyField(Round, blank=True, related_name="complaints")
    movements = models.ManyToManyField(LedgerEntry, blank=True, related_name="complaints")
    status = models.CharField(
        max_length=24, choices=ComplaintStatus.choices, default=ComplaintStatus.RECEIVED
    )
    opened_at = models.DateTimeField()
    handler = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    answer = models.TextField(blank=True, help_text="The written answer to the player.")
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opened_at", "pk"]
        indexes = [models.Index(fields=["status", "opened_at"], name="complaint_queue")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ComplaintStatus.values), name="complaint_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in CLOSED_STATUSES], closed_at__isnull=False)
                | Q(~Q(status__in=[s.value for s in CLOSED_STATUSES]), closed_at__isnull=True),
                name="complaint_closed_when_it_says",
            ),
        ]

    def __str__(self) -> str:
        return f"complaint {self.number}"


class ComplaintNote(models.Model):
    """A dated note on a complaint: added, never changed."""

    complaint = models.ForeignKey(Complaint, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    written_at = models.DateTimeField()
    text = models.TextField()

    class Meta:
        ordering = ["written_at", "pk"]

    def __str__(self) -> str:
        return f"note on complaint #{self.complaint_id}"


class PayoutFinding(models.Model):
    """An officer's written finding that a round was paid wrongly: a recorded payout error,
    on which an adjustment, a debit too, may rest (reading:adjustment-grounds)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="payout_findings")
    found_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    found_at = models.DateTimeField()
    text = models.TextField()

    class Meta:
        ordering = ["found_at", "pk"]

    def __str__(self) -> str:
        return f"payout finding on round {self.round_id}"
