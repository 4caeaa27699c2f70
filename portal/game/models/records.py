"""The game records of § 810a.11: rounds and their bets.

Rounds and bets are written once, when the round is settled, and the database refuses to
change them (append-only triggers); each player's rounds are chained by SHA-256 like the
audit trail, whichever holder's table they were played at.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from portal.compliance.models import Layout, Offering, Paytable, RulesSubmission
from portal.core.money import dollars
from portal.core.software import short_form


class RoundStatus(models.TextChoices):
    """§ 810a.11's game status. A round is stored once, complete, in the one transaction
    that stakes, draws and settles it: a round that cannot complete stores nothing and
    moves no money, so no other status is ever written."""

    COMPLETE = "complete", "Complete"


class Round(models.Model):
    """One game: what § 810a.11 asks a game record to keep."""

    # No index of its own: both unique constraints below start with the player.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rounds", db_index=False
    )
    offering = models.ForeignKey(Offering, on_delete=models.PROTECT, related_name="rounds")
    rules_submission = models.ForeignKey(
        RulesSubmission, on_delete=models.PROTECT, related_name="+"
    )
    rules_version = models.PositiveIntegerField()
    layout = models.ForeignKey(Layout, on_delete=models.PROTECT, related_name="+")
    layout_version = models.PositiveIntegerField()
    paytable = models.ForeignKey(Paytable, on_delete=models.PROTECT, related_name="+")
    paytable_version = models.PositiveIntegerField()
    paytable_odds = models.JSONField(help_text="The odds the round was settled under.")
    wheel_order = models.JSONField()
    first_colour = models.CharField(
        max_length=5,
        choices=[("red", "Red"), ("black", "Black")],
        default="red",
        help_text="The colour after 0 on the wheel played (§ 617b.8(c)).",
    )
    game_name = models.CharField(max_length=64)
    software_version = models.CharField(max_length=32, help_text="The game engine's (jinzi).")
    portal_version = models.CharField(
        max_length=32, default="", help_text="The portal's; blank on older rounds."
    )
    idempotency_key = models.CharField(max_length=64)
    request_fingerprint = models.CharField(max_length=64)
    started_at = models.DateTimeField()
    bets_closed_at = models.DateTimeField(
        null=True, help_text='"No more bets" (§ 617b.8(e)), before the draw; blank on old rounds.'
    )
    ended_at = models.DateTimeField()
    # The player session it was played in (§ 812a.9(a)(5)): its public id; empty on rounds
    # recorded before sessions had one, and on generated history ("not recorded").
    session_id = models.CharField(max_length=36, blank=True, default="")
    # The game software's identity it was played under (§ 461a.4, reading:software-approval):
    # the digest of ``portal.core.software``; blank on rounds recorded before it was kept.
    software_identity = models.CharField(max_length=64, blank=True, default="")
    rng_raw = models.PositiveSmallIntegerField()
    rng_method = models.CharField(max_length=120)
    outcome = models.PositiveSmallIntegerField()
    total_staked = models.BigIntegerField()
    total_returned = models.BigIntegerField()
    balance_before = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    sequence = models.PositiveIntegerField(help_text="The player's n-th round.")
    prev_hash = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.COMPLETE
    )
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["-pk"]
        # Reports read a period of rounds (gaming days): by start, whatever the volume.
        indexes = [models.Index(fields=["started_at"], name="round_by_start")]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "idempotency_key"], name="round_once_per_key"
            ),
            models.UniqueConstraint(
                fields=["player", "sequence"], name="round_sequence_per_player"
            ),
            models.CheckConstraint(condition=Q(outcome__lte=12), name="round_outcome_0_to_12"),
            models.CheckConstraint(condition=Q(total_staked__gt=0), name="round_staked_positive"),
            models.CheckConstraint(
                condition=Q(
                    balance_after=F("balance_before") - F("total_staked") + F("total_returned")
                ),
                name="round_balance_adds_up",
            ),
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="round_no_overdraft"),
        ]

    def __str__(self) -> str:
        return f"round {self.pk} ({self.game_name}, outcome {self.outcome})"

    @property
    def software_short(self) -> str:
        """The game software it was played under as a page names it (§ 461a.4), or ""."""
        if not self.software_identity:
            return ""
        return short_form(self.portal_version, self.software_identity)


class Bet(models.Model):
    # No index of its own: the unique constraints below start with the round.
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="bets", db_index=False)
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16)
    numbers = models.JSONField()
    spot = models.CharField(max_length=32)
    stake = models.BigIntegerField()
    returned = models.BigIntegerField()

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="bet_position_once"),
            models.UniqueConstraint(fields=["round", "spot"], name="bet_spot_once_per_round"),
            models.CheckConstraint(condition=Q(stake__gt=0), name="bet_stake_positive"),
            models.CheckConstraint(condition=Q(returned__gte=0), name="bet_returned_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.spot} × {dollars(self.stake)}"
