"""A player's registration (§ 812a.2): the player file, sealed at rest, its verification,
and the exclusions that keep a player from depositing and playing (§ 815a.3, § 815a.4).

The identity itself (legal name, date of birth, address, telephone, the SSN's last four
digits, the verifying document's reference) is one sealed document (``portal.players.sealing``):
a copy of the database shows none of it. Two keyed digests stand beside it so the portal
can find a person without reading every file: the normalised full name with the date of
birth (a second registration of the same person is refused; the Board's list is matched on
it) and the normalised surname with the date of birth (a near match, for an officer's review).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class VerificationMethod(models.TextChoices):
    """How the player's identity was verified (§ 812a.2(c))."""

    IN_PERSON = "in_person", "Identity document inspected in person"
    DOCUMENT_IMAGE = "document_image", "Image of an identity document checked"
    ELECTRONIC = "electronic", "Electronic check against an identity database"
    # The demo's and the tests' made-up players, set up verified with nobody verifying.
    SETUP = "setup", "Made up at setup (a demonstration player)"


class PlayerFile(models.Model):
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="player_file"
    )
    sealed = models.TextField(editable=False, help_text="The identity, encrypted (§ 812a.2(d)).")
    name_key = models.CharField(max_length=64, unique=True, editable=False)
    surname_key = models.CharField(max_length=64, db_index=True, editable=False)
    registered_at = models.DateTimeField()
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="identities_verified",
    )
    verification_method = models.CharField(
        max_length=20, choices=VerificationMethod.choices, blank=True
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-registered_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(verified_at__isnull=True, verified_by__isnull=True, verification_method="")
                    | (
                        Q(verified_at__isnull=False, verified_by__isnull=False)
                        & ~Q(verification_method="")
                        & ~Q(verification_method="setup")
                    )
                    | Q(
                        verified_at__isnull=False,
                        verified_by__isnull=True,
                        verification_method="setup",
                    )
                ),
                name="player_file_verified_by_whom_how_and_when",
            ),
            models.CheckConstraint(
                condition=~Q(verified_by=F("player")), name="player_file_never_self_verified"
            ),
        ]

    def __str__(self) -> str:
        return f"player file of player #{self.player_id}"

    @property
    def verified(self) -> bool:
        return self.verified_at is not None


class ExclusionSource(models.TextChoices):
    BOARD_LIST = "board_list", "The Board's self-exclusion list"
    SELF = "self", "The player's own request"


class ExclusionPeriod(models.TextChoices):
    """The periods of § 815a.3(c)."""

    ONE_YEAR = "1_year", "1 year"
    FIVE_YEARS = "5_years", "5 years"
    LIFE = "life", "Life"


class PlayerExclusion(models.Model):
    """One reason a player is excluded from interactive gaming at every holder: an entry of
    the Board's list naming them, or their own request. Never edited and never shortened; a
    Board entry ends only when an edition of the list removes it (``lifted_at``)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions"
    )
    source = models.CharField(max_length=16, choices=ExclusionSource.choices)
    period = models.CharField(max_length=10, choices=ExclusionPeriod.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Empty: no end.")
    lifted_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions_recorded"
    )
    list_entry = models.ForeignKey(
        "ListEntry", on_delete=models.PROTECT, null=True, blank=True, related_name="exclusions"
    )

    class Meta:
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=F("starts_at")),
                name="exclusion_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True) | Q(source="board_list"),
                name="exclusion_only_the_boards_is_lifted",
            ),
            models.CheckConstraint(
                condition=Q(source="board_list", list_entry__isnull=False)
                | Q(source="self", list_entry__isnull=True),
                name="exclusion_board_entries_name_their_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"exclusion of player #{self.player_id} ({self.get_source_display()})"


class ListKind(models.TextChoices):
    """How an officer declares a file of the Board's list (reading:exclusion-list-import)."""

    FULL_EDITION = "full_edition", "Full edition"
    CHANGES = "changes", "Additions and removals"


class ListImport(models.Model):
    """One file of the Board's self-exclusion list (§ 815a.4), imported by an officer and
    kept whole (sealed, as it names people): who, when, and what it added and removed."""

    kind = models.CharField(max_length=16, choices=ListKind.choices)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the file.")
    file_name = models.CharField(max_length=200)
    sealed_file = models.TextField(editable=False)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="list_imports"
    )
    imported_at = models.DateTimeField()
    people = models.PositiveIntegerField(help_text="People the file lists.")
    added = models.PositiveIntegerField(default=0)
    removals_asked = models.PositiveIntegerField(default=0)
    players_excluded = models.PositiveIntegerField(default=0)
    reviews_opened = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-imported_at", "-pk"]

    def __str__(self) -> str:
        return f"list import #{self.pk} ({self.get_kind_display()})"


class ListEntry(models.Model):
    """One person on the holders' copy of the Board's list, from the import that added them
    until a removal is confirmed by a second officer."""

    person_key = models.CharField(max_length=64, db_index=True, editable=False)
    surname_key = models.CharField(max_length=64, db_index=True, editable=False)
    sealed = models.TextField(editable=False, help_text="The listed person's details, sealed.")
    period = models.CharField(max_length=10, choices=ExclusionPeriod.choices)
    date_listed = models.DateField()
    added_by = models.ForeignKey(ListImport, on_delete=models.PROTECT, related_name="entries_added")
    removal_asked_by = models.ForeignKey(
        ListImport,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries_to_remove",
    )
    removal_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="list_removals_confirmed",
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(removed_at__isnull=True)
                | Q(removal_asked_by__isnull=False, removal_confirmed_by__isnull=False),
                name="list_entry_removed_only_when_asked_and_confirmed",
            ),
            models.UniqueConstraint(
                fields=["person_key"],
                condition=Q(removed_at__isnull=True),
                name="list_entry_once_while_listed",
            ),
        ]

    def __str__(self) -> str:
        return f"list entry #{self.pk}"


class ListEntryName(models.Model):
    """A name an entry is matched by (the full name and each alias, with the date of birth),
    as a keyed digest."""

    entry = models.ForeignKey(ListEntry, on_delete=models.CASCADE, related_name="names")
    key = models.CharField(max_length=64, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "key"], name="list_entry_name_once")
        ]

    def __str__(self) -> str:
        return f"name of list entry #{self.entry_id}"


class ReviewCause(models.TextChoices):
    NEAR_MATCH = "near_match", "Same surname and date of birth, another given name"
    SSN_CONFLICT = "ssn_conflict", "Name and date of birth match, the SSN digits differ"


class ReviewOutcome(models.TextChoices):
    SAME_PERSON = "same_person", "The same person: excluded"
    NOT_THE_PERSON = "not_the_person", "Not the listed person"


class ListReview(models.Model):
    """A possible match an officer decides, rather than the portal deciding alone."""

    entry = models.ForeignKey(ListEntry, on_delete=models.PROTECT, related_name="reviews")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="list_reviews"
    )
    cause = models.CharField(max_length=16, choices=ReviewCause.choices)
    opened_at = models.DateTimeField()
    outcome = models.CharField(max_length=16, choices=ReviewOutcome.choices, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="list_reviews_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["opened_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["entry", "player"], name="list_review_once")]

    def __str__(self) -> str:
        return f"review #{self.pk} of list entry #{self.entry_id}"
