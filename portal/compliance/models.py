"""Regulated records: layouts, paytables, rules submissions, the holders' terms and
conditions for players, and the offerings built on them.

Records are versioned, never edited once submitted: a change is a new version in
the same ``series`` that supersedes the approved one when it is approved itself.
Only the services in ``services/`` change these rows.
"""

from __future__ import annotations

import datetime
import uuid

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse

import jinzi
from portal.accounts.models import CertificateHolder


class RecordStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    CHANGES_REQUESTED = "changes_requested", "Changes requested"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    SUPERSEDED = "superseded", "Superseded"
    EXPIRED = "expired", "Expired"
    WITHDRAWN = "withdrawn", "Withdrawn"


class OfferingStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    # Closed at once while a suspected malfunction is checked; another person reopens it
    # (reading:table-suspension). Retiring stays permanent.
    SUSPENDED = "suspended", "Suspended while it is checked"
    RETIRED = "retired", "Retired"


# An offering that is not retired: it keeps its parts, and an amendment moves it.
IN_SERVICE = (OfferingStatus.ACTIVE, OfferingStatus.SUSPENDED)


class Game(models.TextChoices):
    JINZI_ROULETTE = "jinzi_roulette", jinzi.GAME_NAME


SUNSET: datetime.date = jinzi.SUNSET  # a Pennsylvania date (reading:pennsylvania-dates)
EFFECTIVE: datetime.date = jinzi.EFFECTIVE


class VersionedRecord(models.Model):
    holder = models.ForeignKey(CertificateHolder, on_delete=models.PROTECT, related_name="+")
    series = models.UUIDField(default=uuid.uuid4, editable=False, db_index=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    status = models.CharField(
        max_length=24, choices=RecordStatus.choices, default=RecordStatus.DRAFT, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    # Everyone who created, edited or submitted this version: none of them may decide it.
    author_ids = models.JSONField(default=list, blank=True, editable=False)
    effective_date = models.DateField(null=True, blank=True)
    expiry_date = models.DateField(
        null=True,
        blank=True,
        help_text="First day the approval no longer holds; never after the sunset 2028-06-14.",
    )

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "version"], name="%(app_label)s_%(class)s_one_version"
            ),
            models.UniqueConstraint(
                fields=["series"],
                condition=Q(status="approved"),
                name="%(app_label)s_%(class)s_one_approved_per_series",
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="%(app_label)s_%(class)s_version_positive"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RecordStatus.values),
                name="%(app_label)s_%(class)s_status_known",
            ),
            models.CheckConstraint(
                condition=Q(expiry_date__isnull=True) | Q(expiry_date__lte=SUNSET),
                name="%(app_label)s_%(class)s_expiry_not_after_sunset",
            ),
            models.CheckConstraint(
                condition=Q(expiry_date__isnull=True)
                | Q(effective_date__isnull=True)
                | Q(expiry_date__gt=F("effective_date")),
                name="%(app_label)s_%(class)s_expiry_after_effective",
            ),
        ]

    # A short label used in messages, the audit trail and URLs.
    kind: str = ""
    # What messages call one in words, where the kind's code read as words would not do.
    noun: str = ""
    # The portal's URL name prefix for this kind of record.
    url_prefix: str = ""

    def __str__(self) -> str:
        return f"{self.title_for_display} v{self.version}"

    def get_absolute_url(self) -> str:
        """The record's portal page, where drafts are edited (the admin only looks)."""
        return reverse(f"compliance:{self.url_prefix}-detail", args=[self.pk])

    @property
    def title_for_display(self) -> str:
        return getattr(self, "title", "") or getattr(self, "name", "") or self.kind


class Layout(VersionedRecord):
    """A table layout submitted for approval (§ 601a.10(a), § 617b.8(b)), wheel included."""

    kind = "layout"
    url_prefix = "layout"

    title = models.CharField(max_length=200)
    wheel_order = models.JSONField(help_text="Clockwise from 0, validated under § 617b.8(c).")
    # § 617b.8(c) only says the colours alternate, so either may follow 0 (reading:wheel-order).
    first_colour = models.CharField(
        max_length=5,
        choices=[("red", "Red"), ("black", "Black")],
        default="red",
        help_text="Colour of the compartment after 0; the others alternate (§ 617b.8(c)).",
    )
    artwork = models.FileField(upload_to="layouts/%Y/%m/", blank=True)
    artwork_sha256 = models.CharField(max_length=64, blank=True)
    artwork_content_type = models.CharField(max_length=40, blank=True)
    signage_text = models.TextField(blank=True)
    review_due = models.DateField(
        null=True, blank=True, help_text="Submitted + 15 calendar days (§ 601a.10(a))."
    )
    reference_number = models.CharField(max_length=64, blank=True)
    conditions = models.TextField(blank=True)

    CONTENT_FIELDS = (
        "title",
        "wheel_order",
        "first_colour",
        "artwork",
        "artwork_sha256",
        "artwork_content_type",
        "signage_text",
    )

    class Meta(VersionedRecord.Meta):
        abstract = False

    def wheel(self) -> jinzi.Wheel:
        """The wheel its tables' rounds are drawn and settled on (§ 617a.1)."""
        return jinzi.Wheel.of(self.wheel_order, first=self.first_colour)


class Paytable(VersionedRecord):
    """Payout odds per wager kind (§ 617b.8(f)), stored as {"straight": "11", "split": "11/2"}."""

    kind = "paytable"
    url_prefix = "paytable"

    name = models.CharField(max_length=200)
    odds = models.JSONField()
    edge_override_reason = models.TextField(
        blank=True, help_text="Why a paytable with a house edge ≤ 0 was approved."
    )

    CONTENT_FIELDS = ("name", "odds")

    class Meta(VersionedRecord.Meta):
        abstract = False

    def to_domain(self) -> jinzi.Paytable:
        return jinzi.Paytable.of(self.odds)


class RulesSubmission(VersionedRecord):
    """A holder's Rules Submission (§ 601a.2, § 617b.8(a)) listing the games it offers."""

    kind = "rules_submission"
    url_prefix = "rules"

    title = models.CharField(max_length=200)
    notes = models.TextField(blank=True)

    CONTENT_FIELDS = ("title", "notes", "effective_date", "expiry_date")

    class Meta(VersionedRecord.Meta):
        abstract = False

    def audit_extra(self) -> dict:
        """The listed games belong in the record's audit picture."""
        games = ListedGame.objects.filter(submission=self).values(*ListedGame.COPIED_FIELDS)
        return {"games": list(games)}


TERMS_MAX_BODY = 50_000  # characters of a holder's terms and conditions


class TermsAndConditions(VersionedRecord):
    """A certificate holder's terms and conditions for players (§ 811a.3): the plain text a
    player reads and accepts before their first deposit or round with the holder (§ 812a.5).
    A holder keeps one series of them: a change is an amendment, a new version of that
    series, which supersedes the approved one when it is approved."""

    kind = "terms"
    url_prefix = "terms"
    noun = "terms and conditions"

    MAX_TITLE = 200
    MAX_BODY = TERMS_MAX_BODY

    title = models.CharField(max_length=MAX_TITLE)
    body = models.TextField(
        help_text="Plain text (never HTML), shown with its line breaks; at most 50,000 characters."
    )

    CONTENT_FIELDS = ("title", "body")

    class Meta(VersionedRecord.Meta):
        abstract = False
        verbose_name = "terms and conditions"
        verbose_name_plural = "terms and conditions"
        constraints = [
            *VersionedRecord.Meta.constraints,
            # One series per holder (§ 811a.3): every series starts at version 1.
            models.UniqueConstraint(
                fields=["holder"],
                condition=Q(version=1),
                name="compliance_terms_one_series_per_holder",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("body"), TERMS_MAX_BODY),
                name="compliance_terms_body_length",
            ),
        ]


class ListedGame(models.Model):
    """One game a rules submission lists, with its chosen paytable, layout and limits."""

    submission = models.ForeignKey(RulesSubmission, on_delete=models.CASCADE, related_name="games")
    game = models.CharField(max_length=32, choices=Game.choices, default=Game.JINZI_ROULETTE)
    paytable = models.ForeignKey(Paytable, on_delete=models.PROTECT, related_name="+")
    layout = models.ForeignKey(Layout, on_delete=models.PROTECT, related_name="+")
    chip_unit = models.PositiveIntegerField(
        help_text="Minor units; even (reading:even-stakes).",
    )
    min_wager = models.PositiveIntegerField(help_text="Per bet spot, minor units.")
    max_wager = models.PositiveIntegerField(help_text="Per bet spot, minor units.")
    max_round_stake = models.PositiveIntegerField(help_text="All spots of one round, minor units.")

    # What a listing is, apart from the submission it belongs to (copied by amendments,
    # recorded in the audit trail).
    COPIED_FIELDS = (
        "game",
        "paytable_id",
        "layout_id",
        "chip_unit",
        "min_wager",
        "max_wager",
        "max_round_stake",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["submission", "game"], name="listed_game_once"),
            models.CheckConstraint(
                condition=Q(chip_unit__gte=2) & Q(chip_unit__lte=100_000_000),
                name="listed_game_chip_unit_range",
            ),
            models.CheckConstraint(
                condition=Q(min_wager__gte=F("chip_unit"))
                & Q(max_wager__gte=F("min_wager"))
                & Q(max_round_stake__gte=F("max_wager")),
                name="listed_game_limits_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} in {self.submission}"


class Offering(models.Model):
    """A Jinzi Roulette table a holder runs on a rules submission, layout and paytable."""

    holder = models.ForeignKey(CertificateHolder, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=200)
    rules_submission = models.ForeignKey(
        RulesSubmission, on_delete=models.PROTECT, related_name="offerings"
    )
    layout = models.ForeignKey(Layout, on_delete=models.PROTECT, related_name="offerings")
    paytable = models.ForeignKey(Paytable, on_delete=models.PROTECT, related_name="offerings")
    status = models.CharField(
        max_length=16, choices=OfferingStatus.choices, default=OfferingStatus.ACTIVE
    )
    # While suspended (reading:table-suspension): since when, by whom, why.
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    suspension_reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["holder", "name"], name="offering_name_per_holder"),
            models.CheckConstraint(
                condition=Q(status__in=OfferingStatus.values), name="offering_status_known"
            ),
            models.CheckConstraint(
                condition=Q(status="suspended", suspended_at__isnull=False)
                | Q(~Q(status="suspended"), suspended_at__isnull=True),
                name="offering_suspended_when_it_says",
            ),
        ]

    kind = "offering"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("compliance:offering-detail", args=[self.pk])


class AvailabilityCause(models.TextChoices):
    """Why an offering opened to play or closed (§ 811a.7(f))."""

    APPROVAL_TOOK_EFFECT = "approval_took_effect", "An approval took effect"
    APPROVAL_LAPSED = "approval_lapsed", "An approval lapsed"
    APPROVAL_WITHDRAWN = "approval_withdrawn", "An approval was withdrawn"
    APPROVAL_SUPERSEDED = "approval_superseded", "An approval was superseded"
    OFFERING_ACTIVATED = "offering_activated", "The offering was set up or changed"
    OFFERING_DEACTIVATED = "offering_deactivated", "The offering was retired"
    TABLE_SUSPENDED = "table_suspended", "The table was suspended while it is checked"
    TABLE_REOPENED = "table_reopened", "The table was reopened after its check"
    SOFTWARE_APPROVED = "software_approved", "The game software was approved (§ 461a.4)"
    SOFTWARE_WITHDRAWN = (
        "software_withdrawn",
        "The game software's approval was withdrawn (§ 461a.4)",
    )
    RULE_TOOK_EFFECT = "rule_took_effect", "§ 617b.8 took effect"
    SUNSET = "sunset", "§ 617b.8 expired (sunset)"


class AvailabilityChange(models.Model):
    """The game availability log (§ 811a.7(f)): each time an offering opened to play or
    closed, when, and why. Append-only (database triggers), and each row is also an event
    of the hash-chained audit trail, written in the same transaction."""

    offering = models.ForeignKey(Offering, on_delete=models.PROTECT, related_name="availability")
    holder = models.ForeignKey(CertificateHolder, on_delete=models.PROTECT, related_name="+")
    opened = models.BooleanField(help_text="True: the offering opened to play; False: closed.")
    at = models.DateTimeField(help_text="When it happened (for the calendar: local midnight).")
    cause = models.CharField(max_length=32, choices=AvailabilityCause.choices)
    reason = models.TextField()
    recorded_at = models.DateTimeField(auto_now_add=True)
    audit_event = models.OneToOneField(
        "audit.AuditEvent", on_delete=models.PROTECT, related_name="availability_change"
    )
    # The game software in force (§ 811a.7(f)(2)): its identity's digest; blank on rows
    # written before it was recorded ("not recorded").
    software_identity = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["offering", "-at"], name="availability_by_offering")]
        constraints = [
            models.CheckConstraint(
                condition=Q(cause__in=AvailabilityCause.values), name="availability_cause_known"
            )
        ]

    def __str__(self) -> str:
        return f"{self.offering} {'opened' if self.opened else 'closed'} at {self.at}"
