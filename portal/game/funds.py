"""A player's money with a certificate holder (Chapter 812a): opening the account, deposits
(§ 812a.7), withdrawals (§ 812a.10) and the holder's restrictions (§ 812a.6, § 812a.12).

Every movement locks the player's wallet row, then the account's: the order a round takes
them in, so a withdrawal request and a round of the same player run one after the other,
and neither can overdraw. Each writes its ledger entry (if money moves) and an audit event
naming it, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.access.policy import Action, require
from portal.audit.services import audit_record
from portal.compliance.models import CertificateHolder
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.validation import MAX_ID
from portal.game import limits
from portal.game import messages as msg
from portal.game.accounts import (
    account_or_404,
    account_picture,
    holder_or_404,
    locked,
    players_account,
    wallet_for,
)
from portal.game.models import (
    AccountStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Wallet,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money import dollars

MAX_AMOUNT = 100_000_000  # $1,000,000 in one movement
MAX_DEMO_TOP_UP = 100_000  # $1,000 of demo credit at a time
MAX_DEMO_BALANCE = 10_000_000  # $100,000
MAX_REFERENCE = 100

# Who records which deposit method (§ 812a.7(a)): the player's own, online; the holder's
# payments staff, what is handed over at the holder.
PLAYER_METHODS = (DepositMethod.CARD, DepositMethod.BANK, DepositMethod.PREPAID)
STAFF_METHODS = (DepositMethod.CASH, DepositMethod.CHEQUE, DepositMethod.PROMOTIONAL)
# Words for borrowing a client may send; each is refused by § 812a.7(b) by name.
CREDIT_WORDS = frozenset({"credit", "marker", "loan", "house_credit"})

DEPOSIT_ACTION = "account.deposit"
WITHDRAWAL_ACTIONS = {
    "request": "withdrawal.request",
    "cancel": "withdrawal.cancel",
    "pay": "withdrawal.pay",
    "refuse": "withdrawal.refuse",
}
STATUS_ACTION = "account.status"
# The single wallet's demo top-ups, before accounts per holder: each has its event.
TOP_UP_ACTION = "wallet.top_up"


def top_up_pictures(*, entry_id: int, amount: int, balance_after: int) -> tuple[dict, dict]:
    """A single-wallet top-up's audit event's before and after, as written then: the balance
    it found, and the ledger entry it wrote (``verify_records`` holds each to its event)."""
    before = {"balance": balance_after - amount}
    after = {"ledger_entry": entry_id, "amount": amount, "balance_after": balance_after}
    return before, after


def demo_enabled() -> bool:
    return bool(getattr(settings, "JINZI_DEMO", False))


def player_methods() -> tuple[DepositMethod, ...]:
    return (*PLAYER_METHODS, DepositMethod.DEMO) if demo_enabled() else PLAYER_METHODS


# Accounts ---------------------------------------------------------------------------------


def _ensure_account(player, holder: CertificateHolder) -> GamingAccount:
    """The player's one account with ``holder`` (§ 812a.4), opened on first deposit."""
    wallet_for(player)
    try:
        with transaction.atomic():
            account, created = GamingAccount.objects.get_or_create(player=player, holder=holder)
    except IntegrityError:  # opened by a concurrent request
        return GamingAccount.objects.get(player=player, holder=holder)
    if created:
        with transaction.atomic():
            audit_record(
                actor=player,
                action="account.open",
                object_type="player_account",
                object_id=account.pk,
                after=account_picture(account),
            )
    return account


def _amount(amount, *, maximum: int = MAX_AMOUNT) -> int:
    if type(amount) is not int or not 1 <= amount <= maximum:
        raise ValidationFailed.on("amount", msg.AMOUNT_WHOLE.format(maximum=maximum))
    return amount


def _reference(reference, *, message: str, required: bool = True) -> str:
    if reference is None:
        reference = ""
    if not isinstance(reference, str):
        raise ValidationFailed.on("reference", message)
    reference = reference.strip()
    if (required and not reference) or len(reference) > MAX_REFERENCE:
        raise ValidationFailed.on("reference", message)
    return reference


def open_to_play_and_deposit(account: GamingAccount) -> None:
    """A suspended (§ 812a.12) or self-excluded (§ 812a.6) account neither plays nor takes
    deposits; its balance can still be withdrawn."""
    if account.status == AccountStatus.SELF_EXCLUDED:
        raise Conflict(msg.ACCOUNT_CLOSED_TO_PLAY.format(clause="§ 812a.6", status="self-excluded"))
    if account.status == AccountStatus.SUSPENDED:
        raise Conflict(
            msg.ACCOUNT_CLOSED_TO_PLAY.format(clause="§ 812a.12", status="suspended by the holder")
        )


# Deposits ---------------------------------------------------------------------------------


def _method(actor, method, *, by_staff: bool) -> DepositMethod:
    allowed = STAFF_METHODS if by_staff else player_methods()
    labels = ", ".join(str(m.label) for m in allowed)
    if isinstance(method, str) and method.strip().lower() in CREDIT_WORDS:
        raise ValidationFailed.on("method", msg.METHOD_CREDIT.format(methods=labels))
    if method == DepositMethod.DEMO and not demo_enabled():
        raise ValidationFailed.on("method", msg.DEMO_ONLY)
    if method not in DepositMethod.values:
        raise ValidationFailed.on("method", msg.METHOD_UNKNOWN.format(methods=labels))
    chosen = DepositMethod(method)
    if chosen not in allowed:
        if by_staff:
            raise ValidationFailed.on("method", msg.METHOD_STAFF_ONLY.format(methods=labels))
        raise ValidationFailed.on("method", msg.METHOD_NOT_YOURS.format(method=chosen.label))
    return chosen


@limits.tells_limit_reached
def deposit_make(*, player, holder_id, amount, method, reference="") -> Deposit:
    """The player's own deposit into their account with the holder, opening it if need be."""
    require(player, Action.PLAY)
    holder = holder_or_404(holder_id)
    chosen = _method(player, method, by_staff=False)
    demo = chosen == DepositMethod.DEMO  # no payment behind it, so nothing to refer to
    amount = _amount(amount, maximum=MAX_DEMO_TOP_UP if demo else MAX_AMOUNT)
    reference = _reference(reference, message=msg.REFERENCE_NEEDED, required=not demo)
    account = _ensure_account(player, holder)
    return _deposit(player, account, amount, chosen, reference)


@limits.tells_limit_reached
def deposit_record(*, actor, account_id, amount, method, reference) -> Deposit:
    """A deposit made at the holder (cash at its cage, a cheque, promotional credit),
    recorded by its payments staff (§ 812a.7(a))."""
    account = account_or_404(account_id)
    require(actor, Action.PAY_OUT, account)
    chosen = _method(actor, method, by_staff=True)
    amount = _amount(amount)
    reference = _reference(reference, message=msg.REFERENCE_NEEDED)
    return _deposit(actor, account, amount, chosen, reference)


@transaction.atomic
def _deposit(actor, account, amount, method, reference) -> Deposit:
    wallet, account = locked(account.pk, account.player_id)
    open_to_play_and_deposit(account)
    now = timezone.now()
    if method == DepositMethod.DEMO and account.balance + amount > MAX_DEMO_BALANCE:
        raise ValidationFailed.on("amount", msg.BALANCE_CAP.format(maximum=MAX_DEMO_BALANCE))
    limits.check_deposit(account, amount, at=now, promotional=method == DepositMethod.PROMOTIONAL)
    account.balance += amount
    entry = LedgerEntry.objects.create(
        wallet=wallet,
        account=account,
        kind=LedgerKind.DEPOSIT,
        amount=amount,
        balance_after=account.balance,
    )
    account.save(update_fields=["balance", "updated_at"])
    deposit = Deposit.objects.create(
        account=account,
        amount=amount,
        method=method,
        reference=reference,
        made_by=actor,
        made_at=now,
        entry=entry,
    )
    audit_record(
        actor=actor,
        action=DEPOSIT_ACTION,
        object_type="player_account",
        object_id=account.pk,
        before={"balance": account.balance - amount},
        after=deposit_picture(deposit),
    )
    return deposit


def deposit_picture(deposit: Deposit) -> dict:
    """A deposit's audit event's after (``verify_records`` holds the entry to it)."""
    return {
        "deposit": deposit.pk,
        "ledger_entry": deposit.entry_id,
        "amount": deposit.amount,
        "method": deposit.method,
        "reference": deposit.reference,
        "balance_after": deposit.entry.balance_after,
    }


# Withdrawals ------------------------------------------------------------------------------


def withdrawal_picture(withdrawal: Withdrawal) -> dict:
    return {
        "withdrawal": withdrawal.pk,
        "amount": withdrawal.amount,
        "status": withdrawal.status,
        "ledger_entry": withdrawal.entry_id,
        "payout_reference": withdrawal.payout_reference,
        "reason": withdrawal.reason,
    }


@transaction.atomic
def withdrawal_request(*, player, account_id, amount) -> Withdrawal:
    """Hold ``amount`` from play at once, for the holder's payments staff to pay (§ 812a.10).
    Allowed whatever the account's status: a suspended or self-excluded player can still
    take their money out."""
    require(player, Action.PLAY)
    account = players_account(player, account_id)
    amount = _amount(amount)
    wallet, account = locked(account.pk, player.pk)
    if amount > account.available:
        raise ValidationFailed.on(
            "amount",
            msg.OVER_AVAILABLE.format(
                amount=dollars(amount),
                available=dollars(account.available),
                held=dollars(account.held),
            ),
        )
    account.held += amount
    account.save(update_fields=["held", "updated_at"])
    withdrawal = Withdrawal.objects.create(
        account=account, amount=amount, requested_at=timezone.now()
    )
    _audit_withdrawal(player, withdrawal, "request", before={"held": account.held - amount})
    return withdrawal


def withdrawal_or_404(withdrawal_id) -> Withdrawal:
    if type(withdrawal_id) is not int or not 0 < withdrawal_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_WITHDRAWAL.format(id=withdrawal_id))
    withdrawal = Withdrawal.objects.select_related("account").filter(pk=withdrawal_id).first()
    if withdrawal is None:
        raise NotFound(msg.NO_SUCH_WITHDRAWAL.format(id=withdrawal_id))
    return withdrawal


@dataclass(frozen=True)
class _Decided:
    withdrawal: Withdrawal
    account: GamingAccount
    wallet: Wallet


def _pending_locked(withdrawal: Withdrawal, verb: str) -> _Decided:
    wallet, account = locked(withdrawal.account_id, withdrawal.account.player_id)
    withdrawal = Withdrawal.objects.select_for_update().get(pk=withdrawal.pk)
    if withdrawal.status != WithdrawalStatus.PENDING:
        raise Conflict(
            msg.WITHDRAWAL_NOT_PENDING.format(
                status=WithdrawalStatus(withdrawal.status).label.lower(), verb=verb
            )
        )
    return _Decided(withdrawal, account, wallet)


@transaction.atomic
def withdrawal_cancel(*, player, withdrawal_id) -> Withdrawal:
    """The player takes back a pending request; the hold is released."""
    require(player, Action.PLAY)
    withdrawal = withdrawal_or_404(withdrawal_id)
    if withdrawal.account.player_id != player.pk:
        raise NotFound(msg.NO_SUCH_WITHDRAWAL.format(id=withdrawal_id))
    decided = _pending_locked(withdrawal, "cancelled")
    return _release(player, decided, WithdrawalStatus.CANCELLED, "cancel", reason="")


@transaction.atomic
def withdrawal_refuse(*, actor, withdrawal_id, reason) -> Withdrawal:
    """Payments staff refuse a request, saying why; the hold is released."""
    withdrawal = withdrawal_or_404(withdrawal_id)
    require(actor, Action.PAY_OUT, withdrawal.account)
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise ValidationFailed.on("reason", msg.REASON_NEEDED.format(clause="§ 812a.10"))
    decided = _pending_locked(withdrawal, "refused")
    return _release(actor, decided, WithdrawalStatus.REFUSED, "refuse", reason=reason.strip())


def _release(actor, decided: _Decided, status, verb: str, *, reason: str) -> Withdrawal:
    withdrawal, account = decided.withdrawal, decided.account
    account.held -= withdrawal.amount
    account.save(update_fields=["held", "updated_at"])
    withdrawal.status = status
    withdrawal.reason = reason
    withdrawal.decided_at = timezone.now()
    withdrawal.decided_by = actor
    withdrawal.save(update_fields=["status", "reason", "decided_at", "decided_by"])
    _audit_withdrawal(
        actor, withdrawal, verb, before={"held": account.held + withdrawal.amount}, reason=reason
    )
    return withdrawal


@transaction.atomic
def withdrawal_pay(*, actor, withdrawal_id, payout_reference) -> Withdrawal:
    """Payments staff record the payout: the money leaves the account (a ledger entry)."""
    withdrawal = withdrawal_or_404(withdrawal_id)
    require(actor, Action.PAY_OUT, withdrawal.account)
    reference = _reference(payout_reference, message=msg.PAYOUT_REFERENCE_NEEDED)
    decided = _pending_locked(withdrawal, "paid")
    withdrawal, account = decided.withdrawal, decided.account
    account.held -= withdrawal.amount
    account.balance -= withdrawal.amount
    entry = LedgerEntry.objects.create(
        wallet=decided.wallet,
        account=account,
        kind=LedgerKind.WITHDRAWAL,
        amount=-withdrawal.amount,
        balance_after=account.balance,
    )
    account.save(update_fields=["balance", "held", "updated_at"])
    withdrawal.status = WithdrawalStatus.PAID
    withdrawal.payout_reference = reference
    withdrawal.decided_at = timezone.now()
    withdrawal.decided_by = actor
    withdrawal.entry = entry
    withdrawal.save(
        update_fields=["status", "payout_reference", "decided_at", "decided_by", "entry"]
    )
    _audit_withdrawal(
        actor,
        withdrawal,
        "pay",
        before={"balance": account.balance + withdrawal.amount, "held": account.held},
    )
    return withdrawal


def _audit_withdrawal(actor, withdrawal, verb, *, before, reason="") -> None:
    after = withdrawal_picture(withdrawal)
    if withdrawal.entry_id is not None:
        after["balance_after"] = withdrawal.entry.balance_after
    audit_record(
        actor=actor,
        action=WITHDRAWAL_ACTIONS[verb],
        object_type="withdrawal",
        object_id=withdrawal.pk,
        before=before,
        after=after,
        reason=reason,
    )


# The holder's restrictions ----------------------------------------------------------------

STATUS_CLAUSES = {
    AccountStatus.OPEN: "",
    AccountStatus.SUSPENDED: "§ 812a.12",
    AccountStatus.SELF_EXCLUDED: "§ 812a.6",
}


@transaction.atomic
def account_set_status(*, actor, account_id, status, reason) -> GamingAccount:
    """Suspend an account, record a self-exclusion from the Board's list, or reopen it;
    always with the reason, audited with who did it."""
    account = account_or_404(account_id)
    require(actor, Action.RESTRICT_ACCOUNTS, account)
    if status not in AccountStatus.values:
        statuses = ", ".join(str(s.label) for s in AccountStatus)
        raise ValidationFailed.on("status", msg.STATUS_UNKNOWN.format(statuses=statuses))
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise ValidationFailed.on("reason", msg.REASON_NEEDED.format(clause="§ 812a.6, § 812a.12"))
    _, account = locked(account.pk, account.player_id)
    if account.status == status:
        return account
    before = account_picture(account)
    account.status = status
    account.status_reason = reason.strip()
    account.status_changed_at = timezone.now()
    account.save(update_fields=["status", "status_reason", "status_changed_at", "updated_at"])
    audit_record(
        actor=actor,
        action=STATUS_ACTION,
        object_type="player_account",
        object_id=account.pk,
        before=before,
        after=account_picture(account),
        reason=reason.strip(),
    )
    return account
