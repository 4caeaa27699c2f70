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

import datetime
from enum import StrEnum

from django.conf import settings
from django.db import models
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.functions import JSONObject

from portal.compliance.models import CertificateHolder
from portal.core.hashing import GENESIS_HASH
from portal.core.money import dollars

# How often the notice of § 814a.1 may come: hourly at least, or 15 or 30 minutes by choice.
NOTICE_MINUTES = (15, 30, 60)


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
    # The player's standing, written by ``portal.players`` under this row's lock and read by
    # every deposit and round in the read that takes it: nothing comes in or is played before
    # the identity is verified (§ 812a.2), nor while the player is excluded (§ 815a.3,
    # § 815a.4); what the player holds can always be withdrawn.
    identity_verified_at = models.DateTimeField(null=True, blank=True)
    excluded_since = models.DateTimeField(null=True, blank=True)
    excluded_until = models.DateTimeField(
        null=True, blank=True, help_text="Empty while excluded: no end (life, or the Board's list)."
    )
    # The player's own choices about their sessions, across holders: how often the next
    # round waits on the notice of time and money since sign-in (§ 814a.1, reading:play-notice;
    # read by the round in the read that locks this row), and whether each sign-in is told
    # to them (§ 812a.3(a)(5)).
    notice_minutes = models.PositiveSmallIntegerField(default=60)
    tell_every_access = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="wallet_never_negative"),
            models.CheckConstraint(
                condition=Q(notice_minutes__in=NOTICE_MINUTES),
                name="wallet_notice_every_15_30_or_60_minutes",
            ),
            models.CheckConstraint(
                condition=Q(excluded_until__isnull=True) | Q(excluded_since__isnull=False),
                name="wallet_exclusion_ends_after_it_begins",
            ),
        ]

    def __str__(self) -> str:
        return f"wallet of {self.player}"


class AccountStatus(models.TextChoices):
    OPEN = "open", "Open"
    SUSPENDED = "suspended", "Suspended by the holder"
    SELF_EXCLUDED = "self_excluded", "Self-excluded"


class Period(StrEnum):
    """The Pennsylvania period a limit counts over (reading:limit-periods)."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"


class LimitKind(models.TextChoices):
    """The limits a player may set on an account (§ 814a.2). The stored values are also the
    kinds the API and the audit trail name, so the spend limits keep the names first given
    to them (``loss_*``)."""

    DEPOSIT_DAY = "deposit_day", "daily deposit limit"
    DEPOSIT_WEEK = "deposit_week", "weekly deposit limit"
    DEPOSIT_MONTH = "deposit_month", "monthly deposit limit"
    SPEND_DAY = "loss_day", "daily spend limit"
    SPEND_WEEK = "loss_week", "weekly spend limit"
    SPEND_MONTH = "loss_month", "monthly spend limit"
    WAGER = "wager", "largest single wager"
    TIME_DAY = "time_day", "daily time limit"

    @property
    def period(self) -> Period:
        last = self.value.rsplit("_", 1)[-1]
        return {"week": Period.WEEK, "month": Period.MONTH}.get(last, Period.DAY)

    @property
    def in_minutes(self) -> bool:
        return self is LimitKind.TIME_DAY

    @property
    def maximum(self) -> int:
        return MAX_MINUTES if self.in_minutes else MAX_LIMIT

    def shown(self, value: int | None) -> str:
        if value is None:
            return "no limit"
        return f"{value} minutes" if self.in_minutes else dollars(value)


MAX_LIMIT = 100_000_000  # cents: $1,000,000, the highest money limit a player may set
MAX_MINUTES = 24 * 60  # the daily time limit's highest: the whole day


class _JSONObjectAgg(models.Aggregate):
    """{key: value, …} of the rows aggregated, as JSON: SQLite's ``json_group_object``,
    PostgreSQL's ``jsonb_object_agg``."""

    function = "JSON_GROUP_OBJECT"
    output_field = models.JSONField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return self.as_sql(compiler, connection, function="JSONB_OBJECT_AGG", **extra_context)


# The names under which an account read ``with_limits`` carries its limit rows, as JSON by
# kind: the amounts in force, and each raise waiting as {"value", "from"}.
IN_FORCE_READ = "limits_in_force"
WAITING_READ = "raises_waiting"


def _limits_by_kind(*, waiting: bool) -> Subquery:
    """The account's limits in force (or its raises waiting) as one JSON object by kind: a
    correlated subquery, so they come in the statement that reads the account."""
    rows = AccountLimit.objects.filter(account=OuterRef("pk"), pending_until__isnull=not waiting)
    value = JSONObject(value="amount", **{"from": "pending_until"}) if waiting else F("amount")
    by_kind = rows.order_by().values("account").annotate(found=_JSONObjectAgg("kind", value))
    return Subquery(by_kind.values("found"), output_field=models.JSONField())


class GamingAccountQuerySet(models.QuerySet):
    def with_limits(self, *, waiting: bool = True) -> GamingAccountQuerySet:
        """The accounts with their limits in force (and, unless ``waiting`` is False, the
        raises waiting) read in the same statement: ``limits`` and ``pending_limits`` then
        read no more rows, however many accounts are listed."""
        found = {IN_FORCE_READ: _limits_by_kind(waiting=False)}
        if waiting:
            found[WAITING_READ] = _limits_by_kind(waiting=True)
        return self.annotate(**found)


def _instant_text(value: datetime.datetime | str) -> str:
    """An instant as the pictures of the limits have always held it: ISO 8601 in UTC. JSON
    read from the database holds it as that database's text (SQLite's without a zone)."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
        if value.tzinfo is None:  # SQLite stores instants in UTC without saying so
            value = value.replace(tzinfo=datetime.UTC)
    return value.astimezone(datetime.UTC).isoformat()


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
    # The limits (§ 814a.2) are rows of their own: ``AccountLimit``, ``limit_rows`` here.
    opened_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GamingAccountQuerySet.as_manager()

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

    # The limits as clients, the account page and the audit trail have always seen them (the
    # API's ``limits`` and ``pending_limits``, an ``account.limit`` event's pictures).

    @property
    def limits(self) -> dict[str, int]:
        """The limits in force by kind: {"deposit_day": 5000, "time_day": 120, …}, in cents
        or minutes. Read with the account where its statement asked for them (``with_limits``,
        the round's read: an instance read so keeps them, ``refresh_from_db`` included), else
        from the rows now."""
        if hasattr(self, IN_FORCE_READ):
            found = getattr(self, IN_FORCE_READ) or {}
        else:
            found = {row.kind: row.amount for row in self.limit_rows.all() if row.in_force}
        return {kind: found[kind] for kind in LimitKind.values if kind in found}

    @property
    def pending_limits(self) -> dict[str, dict]:
        """The raises waiting for their period's end and the player's confirmation, by kind:
        {"loss_week": {"value": 20000 or None (no limit), "from": "<ISO instant, UTC>"}}."""
        if hasattr(self, WAITING_READ):
            waiting = getattr(self, WAITING_READ) or {}
        else:
            waiting = {
                row.kind: {"value": row.amount, "from": row.pending_until}
                for row in self.limit_rows.all()
                if not row.in_force
            }
        return {
            kind: {"value": waiting[kind]["value"], "from": _instant_text(waiting[kind]["from"])}
            for kind in LimitKind.values
            if kind in waiting
        }


class AccountLimit(models.Model):
    """One of the player's limits on an account (§ 814a.2): in force, or a raise waiting.

    A limit in force has no ``pending_until``; a raise (to a higher amount, or to none at
    all) waits with ``pending_until``, the instant its period ends and from which the player
    may confirm it (reading:limit-raises). One table holds both, because they are the same
    thing at two stages: a kind and an amount under the same bounds; confirming a raise is
    that row coming into force, and the account's limits are read as one set of rows. Two
    tables would each repeat the kinds, the bounds and their constraints, and every reader
    would join both. The database holds the rules the service keeps (``limit_changes``): a
    kind among the eight, an amount above zero and within its kind's maximum, an amount on
    every limit in force, and at most one limit in force and one raise waiting per kind.
    """

    account = models.ForeignKey(GamingAccount, on_delete=models.CASCADE, related_name="limit_rows")
    kind = models.CharField(max_length=16, choices=LimitKind.choices)
    amount = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="Cents, or minutes for the daily time limit; blank only on a raise to no "
        "limit at all.",
    )
    in_force_from = models.DateTimeField(
        null=True, blank=True, help_text="The instant it took effect; blank while it waits."
    )
    pending_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A raise waiting: the end of the period it was asked in, from which the "
        "player may confirm it. Blank on a limit in force.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=LimitKind.values), name="limit_kind_known"),
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="limit_amount_positive"
            ),
            models.CheckConstraint(
                condition=Q(amount__isnull=True)
                | Q(kind=LimitKind.TIME_DAY, amount__lte=MAX_MINUTES)
                | (~Q(kind=LimitKind.TIME_DAY) & Q(amount__lte=MAX_LIMIT)),
                name="limit_amount_within_maximum",
            ),
            models.CheckConstraint(
                condition=Q(pending_until__isnull=False) | Q(amount__isnull=False),
                name="limit_in_force_has_an_amount",
            ),
            models.CheckConstraint(
                condition=Q(pending_until__isnull=True, in_force_from__isnull=False)
                | Q(pending_until__isnull=False, in_force_from__isnull=True),
                name="limit_in_force_or_waiting",
            ),
            models.UniqueConstraint(
                fields=["account", "kind"],
                condition=Q(pending_until__isnull=True),
                name="one_limit_in_force_per_kind",
            ),
            models.UniqueConstraint(
                fields=["account", "kind"],
                condition=Q(pending_until__isnull=False),
                name="one_raise_waiting_per_kind",
            ),
        ]

    def __str__(self) -> str:
        shown = LimitKind(self.kind).shown(self.amount)
        if self.in_force:
            return f"{LimitKind(self.kind).label} {shown}"
        return f"{LimitKind(self.kind).label} {shown}, waiting"

    @property
    def in_force(self) -> bool:
        return self.pending_until is None


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


# A void's and an adjustment's entries: each names its round.
CORRECTION_KINDS = (
    LedgerKind.VOID_STAKES,
    LedgerKind.VOID_RETURNS,
    LedgerKind.ADJUSTMENT_CREDIT,
    LedgerKind.ADJUSTMENT_DEBIT,
)
# The entries that belong to a round: those it wrote when played, and its corrections'. The
# money they moved is what a spend limit counts (reading:spend-limit-net).
ROUND_ENTRY_KINDS = (LedgerKind.STAKE, LedgerKind.RETURN, *CORRECTION_KINDS)

CREDITS = ("return", "top_up", "deposit", "carried_in", "void_stakes", "adjust_credit")
DEBITS = ("stake", "withdrawal", "carried_out", "void_returns", "adjust_debit")


# An account's entries newest first. They are written one at a time under the account's lock,
# so their times and keys agree; by (time, key) they are read from the account's own stretch of
# ``ledger_by_account_time``, however long the ledger has grown.
LEDGER_NEWEST_FIRST = ("-created_at", "-pk")


class LedgerEntry(models.Model):
    wallet = models.ForeignKey(Wallet, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(
        GamingAccount,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        help_text="Blank on the single wallet's entries, from before accounts per holder.",
        db_index=False,  # ledger_by_account_time starts with it
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
        indexes = [
            # The audit report reconciles each account over a period's instants.
            models.Index(fields=["created_at"], name="ledger_by_time"),
            # An account's balance at an instant (its last entry before it: a report's opening
            # balances, a statement's) and its entries over a period are found in the account's
            # own stretch of the index, however long its ledger has grown.
            models.Index(fields=["account", "created_at", "id"], name="ledger_by_account_time"),
        ]
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


class TermsAcknowledgement(models.Model):
    """A player's acceptance of a holder's terms and conditions, the version then in force,
    with the instant (§ 812a.5); a new version asks again."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="terms_acknowledged"
    )
    terms = models.ForeignKey(
        "compliance.TermsAndConditions", on_delete=models.PROTECT, related_name="acknowledgements"
    )
    acknowledged_at = models.DateTimeField()

    class Meta:
        ordering = ["-acknowledged_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "terms"], name="terms_acknowledged_once")
        ]

    def __str__(self) -> str:
        return f"terms #{self.terms_id} accepted by player #{self.player_id}"


class SessionChannel(models.TextChoices):
    PAGES = "pages", "The portal's pages"
    API = "api", "The API"


class PlaySession(models.Model):
    """A signed-in stretch of a user's (§ 812a.9(a)(4)-(5)), and the time that counts against
    a daily time limit (§ 814a.2(4), reading:time-limit-sessions): from its start to its
    last activity. It ends at sign-out, or after 15 minutes without activity, at its last
    activity (§ 812a.3(a)(6)); every round records the one it was played in."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_sessions"
    )
    # The session's own id, as each round, the API and the player see it (never the row's):
    # empty on sessions recorded before sessions had one.
    public_id = models.UUIDField(unique=True, null=True, editable=False)
    channel = models.CharField(
        max_length=8, choices=SessionChannel.choices, default=SessionChannel.PAGES
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    # Moved by each round in its write, and by pages and API calls at most once a minute.
    last_activity_at = models.DateTimeField(null=True, blank=True)
    # The notices of time and money acknowledged in this session, and when the latest was.
    notices_acknowledged = models.PositiveIntegerField(default=0)
    noticed_at = models.DateTimeField(null=True, blank=True)
    # The browser session's key, so that a session can be ended from outside it (a player
    # the Board's list names is signed out at once, § 815a.4). Empty for older sessions.
    session_key = models.CharField(max_length=40, blank=True, editable=False)

    class Meta:
        ordering = ["-started_at", "-pk"]
        indexes = [models.Index(fields=["user", "started_at"], name="session_by_user")]
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")),
                name="session_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return f"session of {self.user} from {self.started_at:%Y-%m-%d %H:%M}"
