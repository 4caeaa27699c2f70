"""Withdrawals (§ 812a.10): the player asks, and the amount is held from play at once; the
holder's payments staff pay it (the money leaves, a ledger entry) or refuse it, or the
player cancels it (the hold is released). A withdrawal request and a round of the same
player run one after the other, under the same locks, so neither can overdraw."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, require, require_not_own
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, ValidationFailed
from portal.core.money import dollars
from portal.core.validation import MAX_ID
from portal.game.models import (
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Wallet,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money import messages as msg
from portal.game.money.selectors import locked, players_account
from portal.game.money.services.accounts import checked_amount, checked_reference

WITHDRAWAL_ACTIONS = {
    "request": "withdrawal.request",
    "cancel": "withdrawal.cancel",
    "pay": "withdrawal.pay",
    "refuse": "withdrawal.refuse",
}


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
    amount = checked_amount(amount)
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
    require_not_own(actor, player_id=withdrawal.account.player_id, message=msg.OWN_WITHDRAWAL)
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
    require_not_own(actor, player_id=withdrawal.account.player_id, message=msg.OWN_WITHDRAWAL)
    reference = checked_reference(payout_reference, message=msg.PAYOUT_REFERENCE_NEEDED)
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
