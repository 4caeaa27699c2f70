"""A player's money (Chapter 812a): an interactive gaming account with each certificate
holder, its ledger, deposits, withdrawals, limits (§ 814a.2) and sessions.

Money is integer minor units. An account's balance always equals the sum of its ledger
and never goes negative (check constraints); what pending withdrawals hold stays in the
balance until paid, and play may use only the balance less the held amount.

``Wallet`` is the player's own row, whatever the holder: the head of their chain of rounds
and the lock every movement of their money takes first. Before accounts per holder
(reading:one-account-per-holder) it also held the player's one balance; the upgrade moved
each such balance into the player's holder accounts with one ledger entry out and one in
per account, so those older entries (no account) stay exactly as written.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from portal.compliance.models import CertificateHolder
from portal.core.hashing import GENESIS_HASH
from portal.core.money import dollars


class Wallet(models.Model):
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wallet"
    )
    balance = models.BigIntegerField(
        default=0,
        help_text="Minor units (cents) of the single wallet used before accounts per holder; "
        "zero once carried over.",
    )
    # The head of the player's round chain, kept under the same row lock.
    rounds_played = models.PositiveIntegerField(default=0)
    chain_head = models.CharField(max_length=64, default=GENESIS_HASH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="wallet_never_negative")
        ]

    def __str__(self) -> str:
        return f"wallet of {self.player}"


class AccountStatus(models.TextChoices):
    OPEN = "open", "Open"
    SUSPENDED = "suspended", "Suspended by the holder"
    SELF_EXCLUDED = "self_excluded", "Self-excluded"


class GamingAccount(models.Model):
    """A player's interactive gaming account with one certificate holder (§ 812a.4)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="gaming_accounts"
    )
    holder = models.ForeignKey(
        CertificateHolder, on_delete=models.PROTECT, related_name="player_accounts"
    )
    balance = models.BigIntegerField(default=0, help_text="Minor units (cents).")
    held = models.BigIntegerField(
        default=0, help_text="Minor units held for pending withdrawals (§ 812a.10)."
    )
    status = models.CharField(
        max_length=16, choices=AccountStatus.choices, default=AccountStatus.OPEN
    )
    status_reason = models.TextField(blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    paused_until = models.DateTimeField(
        null=True, blank=True, help_text="The player's own temporary suspension (§ 814a.2)."
    )
    # The limits in force (§ 814a.2), by kind: {"deposit_day": 5000, "time_day": 120, …};
    # a raise waiting for its period's end and the player's confirmation, by kind:
    # {"loss_week": {"value": 20000 or null (no limit), "from": "<ISO instant>"}}.
    limits = models.JSONField(default=dict, blank=True)
    pending_limits = models.JSONField(default=dict, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["holder__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "holder"], name="one_account_per_holder"),
            models.CheckConstraint(condition=Q(balance__gte=0), name="account_never_negative"),
            models.CheckConstraint(
                condition=Q(held__gte=0) & Q(held__lte=F("balance")),
                name="account_holds_what_it_has",
            ),
        ]

    def __str__(self) -> str:
        return f"account of {self.player} with {self.holder.name}"

    @property
    def available(self) -> int:
        """What play and a new withdrawal may use: the balance less what is held."""
        return self.balance - self.held


class LedgerKind(models.TextChoices):
    TOP_UP = "top_up", "Demo top-up"
    STAKE = "stake", "Round stake"
    RETURN = "return", "Round return"
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL = "withdrawal", "Withdrawal paid"
    CARRIED_OUT = "carried_out", "Moved to the holder accounts"
    CARRIED_IN = "carried_in", "Carried over from the single wallet"
    # A voided round (§ 617a.6, reading:voids-and-adjustments): its stakes given back, its
    # returns taken back (as far as the account can cover them).
    VOID_STAKES = "void_stakes", "Void: stakes given back"
    VOID_RETURNS = "void_returns", "Void: returns taken back"
    # An adjustment of a round (§ 812a.7(a)(9)): the difference, either way.
    ADJUSTMENT_CREDIT = "adjust_credit", "Adjustment credited"
    ADJUSTMENT_DEBIT = "adjust_debit", "Adjustment debited"


CREDITS = ("return", "top_up", "deposit", "carried_in", "void_stakes", "adjust_credit")
DEBITS = ("stake", "withdrawal", "carried_out", "void_returns", "adjust_debit")


class LedgerEntry(models.Model):
    wallet = models.ForeignKey(Wallet, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(
        GamingAccount,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        help_text="Blank on the single wallet's entries, from before accounts per holder.",
    )
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    amount = models.BigIntegerField(help_text="Signed minor units: debits are negative.")
    balance_after = models.BigIntegerField()
    round = models.ForeignKey(
        "Round", on_delete=models.PROTECT, null=True, blank=True, related_name="ledger_entries"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "ledger entries"
        ordering = ["pk"]
        # The audit report reconciles each account over a period's instants.
        indexes = [models.Index(fields=["created_at"], name="ledger_by_time")]
        constraints = [
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="ledger_never_negative"),
            models.CheckConstraint(
                condition=(Q(kind__in=DEBITS) & Q(amount__lt=0))
                | (Q(kind__in=CREDITS) & Q(amount__gt=0)),
                name="ledger_sign_matches_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {'+' if self.amount > 0 else ''}{dollars(self.amount)}"


class DepositMethod(models.TextChoices):
    """How money comes in (§ 812a.7(a)); never as credit from the holder (§ 812a.7(b))."""

    CARD = "card", "Debit or credit card"
    BANK = "bank", "Bank transfer (ACH)"
    PREPAID = "prepaid", "Reloadable prepaid card"
    CHEQUE = "cheque", "Cheque, wire transfer or money order"
    CASH = "cash", "Cash at an approved cashiering location"
    PROMOTIONAL = "promotional", "Promotional credit"
    DEMO = "demo", "Demo top-up"


class Deposit(models.Model):
    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="deposits")
    amount = models.BigIntegerField()
    method = models.CharField(max_length=16, choices=DepositMethod.choices)
    reference = models.CharField(max_length=100, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    made_at = models.DateTimeField()
    entry = models.OneToOneField(LedgerEntry, on_delete=models.PROTECT, related_name="deposit")

    class Meta:
        ordering = ["-pk"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_positive")]

    def __str__(self) -> str:
        return f"deposit {dollars(self.amount)} ({self.get_method_display()})"


class WithdrawalStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    PAID = "paid", "Paid"
    REFUSED = "refused", "Refused"
    CANCELLED = "cancelled", "Cancelled"


class Withdrawal(models.Model):
    """A player's request to be paid from their account (§ 812a.10)."""

    account = models.ForeignKey(GamingAccount, on_delete=models.PROTECT, related_name="withdrawals")
    amount = models.BigIntegerField()
    status = models.CharField(
        max_length=16, choices=WithdrawalStatus.choices, default=WithdrawalStatus.PENDING
    )
    requested_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    payout_reference = models.CharField(max_length=100, blank=True)
    reason = models.TextField(blank=True)
    entry = models.OneToOneField(
        LedgerEntry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="withdrawal",
    )

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "requested_at"], name="withdrawal_queue")]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="withdrawal_positive"),
            models.CheckConstraint(
                condition=Q(status="paid", entry__isnull=False)
                | (~Q(status="paid") & Q(entry__isnull=True)),
                name="withdrawal_paid_has_its_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"withdrawal {dollars(self.amount)} ({self.get_status_display()})"


class PlaySession(models.Model):
    """A signed-in stretch of a user's (§ 812a.9(a)(4)), and the time that counts against a
    daily time limit (§ 814a.2)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_sessions"
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-pk"]
        indexes = [models.Index(fields=["user", "started_at"], name="session_by_user")]

    def __str__(self) -> str:
        return f"session of {self.user} from {self.started_at:%Y-%m-%d %H:%M}"
