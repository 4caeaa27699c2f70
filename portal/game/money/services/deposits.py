"""Deposits into a player's account with a holder (§ 812a.7): the player's own, which opens
the account if need be, and those made at the holder, recorded by its payments staff;
never credit (§ 812a.7(b)). Each passes the account's status and the player's deposit
limits (§ 814a.2) before any money moves."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from portal.access.policy import Action, require, require_not_own
from portal.audit.services import audit_record
from portal.core.errors import ValidationFailed
from portal.game.models import Deposit, DepositMethod, LedgerEntry, LedgerKind, Wallet
from portal.game.money import limits, standing, terms
from portal.game.money import messages as msg
from portal.game.money.selectors import account_or_404, holder_or_404, locked
from portal.game.money.services.accounts import (
    MAX_AMOUNT,
    checked_amount,
    checked_reference,
    ensure_account,
    open_to_play_and_deposit,
)

MAX_DEMO_TOP_UP = 100_000  # $1,000 of demo credit at a time
MAX_DEMO_BALANCE = 10_000_000  # $100,000


# Who records which deposit method (§ 812a.7(a)): the player's own, online; the holder's
# payments staff, what is handed over at the holder.
PLAYER_METHODS = (DepositMethod.CARD, DepositMethod.BANK, DepositMethod.PREPAID)
STAFF_METHODS = (DepositMethod.CASH, DepositMethod.CHEQUE, DepositMethod.PROMOTIONAL)
# Words for borrowing a client may send; each is refused by § 812a.7(b) by name.
CREDIT_WORDS = frozenset({"credit", "marker", "loan", "house_credit"})


DEPOSIT_ACTION = "account.deposit"
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
    amount = checked_amount(amount, maximum=MAX_DEMO_TOP_UP if demo else MAX_AMOUNT)
    reference = checked_reference(reference, message=msg.REFERENCE_NEEDED, required=not demo)
    # Before an account is opened: no new account for a player who may not deposit.
    standing.refuse_money_in(Wallet.objects.filter(player=player).first(), at=timezone.now())
    terms.refuse_unaccepted(terms.standing_of(player.pk, holder.pk), holder_name=holder.name)
    account = ensure_account(player, holder)
    return _deposit(player, account, amount, chosen, reference)


@limits.tells_limit_reached
def deposit_record(*, actor, account_id, amount, method, reference) -> Deposit:
    """A deposit made at the holder (cash at its cage, a cheque, promotional credit),
    recorded by its payments staff (§ 812a.7(a))."""
    account = account_or_404(account_id)
    require(actor, Action.PAY_OUT, account)
    require_not_own(actor, player_id=account.player_id, message=msg.OWN_DEPOSIT)
    chosen = _method(actor, method, by_staff=True)
    amount = checked_amount(amount)
    reference = checked_reference(reference, message=msg.REFERENCE_NEEDED)
    return _deposit(actor, account, amount, chosen, reference)


@transaction.atomic
def _deposit(actor, account, amount, method, reference) -> Deposit:
    wallet, account = locked(account.pk, account.player_id)
    now = timezone.now()
    standing.refuse_money_in(wallet, at=now)
    terms.refuse_unaccepted(
        terms.standing_of(account.player_id, account.holder_id), holder_name=account.holder.name
    )
    open_to_play_and_deposit(account)
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
