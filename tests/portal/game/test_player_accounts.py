"""The player's interactive gaming account with each holder (Chapter 812a): one account per
holder, deposits, withdrawals, the holder's restrictions, through the services and a real
database. Every refusal moves nothing."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from portal.access.policy import OTHER_HOLDER, Action, denial
from portal.access.roles import Role
from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.game.models import (
    AccountStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    Round,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.money.services.accounts import account_set_status
from portal.game.money.services.deposits import deposit_make, deposit_record
from portal.game.money.services.withdrawals import (
    withdrawal_cancel,
    withdrawal_pay,
    withdrawal_refuse,
    withdrawal_request,
)
from tests.portal.factories import approved_offering, make_user
from tests.portal.game.conftest import play_round

RED = [{"kind": "red", "stake": 1000}]


def moved_nothing(player, before: tuple) -> bool:
    return before == snapshot(player)


def snapshot(player) -> tuple:
    accounts = tuple(
        GamingAccount.objects.filter(player=player).order_by("pk").values_list("balance", "held")
    )
    return (
        accounts,
        LedgerEntry.objects.count(),
        Deposit.objects.count(),
        Withdrawal.objects.filter(status=WithdrawalStatus.PENDING).count(),
        AuditEvent.objects.count(),
    )


def card(player, holder, amount, reference="visa-4242"):
    return deposit_make(
        player=player,
        holder_id=holder.pk,
        amount=amount,
        method=DepositMethod.CARD,
        reference=reference,
    )


# § 812a.4: one account per holder ---------------------------------------------------------


@pytest.mark.clause("reading:one-account-per-holder", kind="proves")
def test_812a4_a_player_holds_one_account_per_holder_and_plays_each_holders_tables_from_it(
    player, manager_a, manager_b, officer, holder_a, holder_b
):
    table_a = approved_offering(manager_a, officer, holder_a)
    table_b = approved_offering(manager_b, officer, holder_b, name="Table B")
    card(player, holder_a, 5_000)
    card(player, holder_a, 1_000, reference="visa-4243")
    card(player, holder_b, 2_000)

    assert GamingAccount.objects.filter(player=player).count() == 2
    played = play_round(player, table_b, "round-at-b-0001", wagers=RED, outcome=1)

    account_a = GamingAccount.objects.get(player=player, holder=holder_a)
    account_b = GamingAccount.objects.get(player=player, holder=holder_b)
    assert account_a.balance == 6_000  # untouched by a round at holder B's table
    assert played.round.balance_before == 2_000
    assert account_b.balance == played.round.balance_after
    assert set(played.round.ledger_entries.values_list("account_id", flat=True)) == {account_b.pk}
    assert table_a.holder_id != table_b.holder_id


def test_812a4_a_holders_table_refuses_a_player_without_an_account_with_that_holder(
    player, live_offering, holder_b
):
    card(player, holder_b, 5_000)
    before = snapshot(player)

    with pytest.raises(ValidationFailed, match="§ 812a.4: you have no account with Keystone"):
        play_round(player, live_offering, "no-account-0001", wagers=RED)

    assert moved_nothing(player, before)
    assert not Round.objects.exists()


# § 812a.7: deposits -----------------------------------------------------------------------


def test_812a7_a_deposit_writes_one_ledger_entry_and_one_audit_event_naming_it(player, holder_a):
    deposit = card(player, holder_a, 2_501)

    account = GamingAccount.objects.get(player=player, holder=holder_a)
    assert account.balance == 2_501  # odd cents are money like any other
    assert deposit.entry.kind == LedgerKind.DEPOSIT
    assert (deposit.entry.amount, deposit.entry.balance_after) == (2_501, 2_501)
    event = AuditEvent.objects.get(action="account.deposit")
    assert event.after["ledger_entry"] == deposit.entry_id
    assert event.after["method"] == "card" and event.after["reference"] == "visa-4242"
    assert AuditEvent.objects.filter(action="account.open", object_id=str(account.pk)).count() == 1


@pytest.mark.parametrize("word", ["credit", "marker", "Loan"])
def test_812a7_b_credit_from_the_holder_is_refused_by_name_and_moves_nothing(
    player, holder_a, word
):
    before = snapshot(player)
    with pytest.raises(ValidationFailed, match=r"§ 812a\.7\(b\)"):
        deposit_make(player=player, holder_id=holder_a.pk, amount=1_000, method=word, reference="x")
    assert moved_nothing(player, before)


@pytest.mark.parametrize("method", ["bitcoin", "", None, 7, "cash", "promotional"])
def test_812a7_a_a_method_not_offered_to_players_is_refused_and_moves_nothing(
    player, holder_a, method
):
    before = snapshot(player)
    with pytest.raises(ValidationFailed, match=r"§ 812a\.7\(a\)"):
        deposit_make(
            player=player, holder_id=holder_a.pk, amount=1_000, method=method, reference="x"
        )
    assert moved_nothing(player, before)


@pytest.mark.parametrize("amount", [0, -100, 10.5, "1000", True, None, 10**12])
def test_812a7_an_amount_that_is_not_whole_cents_in_range_is_refused(player, holder_a, amount):
    before = snapshot(player)
    with pytest.raises(ValidationFailed, match="whole number of cents"):
        card(player, holder_a, amount)
    assert moved_nothing(player, before)


def test_812a7_a_deposit_needs_its_payment_reference(player, holder_a):
    with pytest.raises(ValidationFailed, match="reference"):
        card(player, holder_a, 1_000, reference="   ")
    assert not GamingAccount.objects.filter(player=player).exists() or not Deposit.objects.exists()


def test_812a7_the_demo_top_up_is_a_deposit_method_only_on_the_demo_portal(
    player, holder_a, settings
):
    deposit_make(player=player, holder_id=holder_a.pk, amount=2_000, method=DepositMethod.DEMO)
    assert Deposit.objects.get().method == DepositMethod.DEMO

    settings.JINZI_DEMO = False
    before = snapshot(player)
    with pytest.raises(ValidationFailed, match="only on the demo portal"):
        deposit_make(player=player, holder_id=holder_a.pk, amount=2_000, method="demo")
    assert moved_nothing(player, before)


def test_812a7_a_an_unknown_holder_is_a_404(player):
    with pytest.raises(NotFound):
        deposit_make(player=player, holder_id=999_999, amount=1, method="card", reference="x")


def test_812a7_a_payments_staff_record_cash_at_their_own_holder_only(
    player, holder_a, payments_a, payments_b
):
    card(player, holder_a, 1_000)
    account = GamingAccount.objects.get(player=player)

    deposit_record(
        actor=payments_a, account_id=account.pk, amount=5_000, method="cash", reference="cage 3"
    )
    before = snapshot(player)
    with pytest.raises(NotPermitted, match="another certificate holder"):
        deposit_record(
            actor=payments_b, account_id=account.pk, amount=5_000, method="cash", reference="c"
        )
    with pytest.raises(NotPermitted):
        deposit_record(
            actor=player, account_id=account.pk, amount=5_000, method="cash", reference="c"
        )
    assert moved_nothing(player, before)
    account.refresh_from_db()
    assert account.balance == 6_000
    assert Deposit.objects.filter(made_by=payments_a, method="cash").count() == 1


# § 812a.10: withdrawals -------------------------------------------------------------------


@pytest.fixture
def account_a(funded_player, holder_a):
    return GamingAccount.objects.get(player=funded_player, holder=holder_a)


def test_812a10_a_request_holds_the_amount_from_play_at_once(
    funded_player, account_a, live_offering
):
    withdrawal_request(player=funded_player, account_id=account_a.pk, amount=99_500)
    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held, account_a.available) == (100_000, 99_500, 500)

    before = snapshot(funded_player)
    with pytest.raises(ValidationFailed, match="held for withdrawals"):
        play_round(funded_player, live_offering, "held-money-0001", wagers=RED)
    assert moved_nothing(funded_player, before)


def test_812a10_payments_staff_pay_a_request_and_the_money_leaves_with_a_ledger_entry(
    funded_player, account_a, payments_a
):
    asked = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=40_001)
    paid = withdrawal_pay(actor=payments_a, withdrawal_id=asked.pk, payout_reference="ACH 77")

    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held) == (59_999, 0)
    assert paid.status == WithdrawalStatus.PAID and paid.decided_by == payments_a
    assert (paid.entry.kind, paid.entry.amount, paid.entry.balance_after) == (
        LedgerKind.WITHDRAWAL,
        -40_001,
        59_999,
    )
    total = LedgerEntry.objects.filter(account=account_a).aggregate(s=Sum("amount"))["s"]
    assert total == account_a.balance
    event = AuditEvent.objects.get(action="withdrawal.pay")
    assert event.after["ledger_entry"] == paid.entry_id and event.actor_id == payments_a.pk


def test_812a10_a_refusal_says_why_and_releases_the_hold(funded_player, account_a, payments_a):
    asked = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=10_000)
    with pytest.raises(ValidationFailed, match="reason"):
        withdrawal_refuse(actor=payments_a, withdrawal_id=asked.pk, reason="  ")
    refused = withdrawal_refuse(
        actor=payments_a, withdrawal_id=asked.pk, reason="name on the bank account differs"
    )

    account_a.refresh_from_db()
    assert (account_a.balance, account_a.held) == (100_000, 0)
    assert refused.status == WithdrawalStatus.REFUSED and refused.entry is None
    assert AuditEvent.objects.get(action="withdrawal.refuse").reason.startswith("name on")


def test_812a10_the_player_cancels_a_pending_request_and_not_a_decided_one(
    funded_player, account_a, payments_a
):
    asked = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=10_000)
    withdrawal_cancel(player=funded_player, withdrawal_id=asked.pk)
    account_a.refresh_from_db()
    assert account_a.held == 0

    paid = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=10_000)
    withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="cheque 12")
    before = snapshot(funded_player)
    with pytest.raises(Conflict, match="this withdrawal is paid"):
        withdrawal_cancel(player=funded_player, withdrawal_id=paid.pk)
    with pytest.raises(Conflict, match="this withdrawal is cancelled"):
        withdrawal_pay(actor=payments_a, withdrawal_id=asked.pk, payout_reference="x")
    assert moved_nothing(funded_player, before)


@pytest.mark.parametrize("amount", [100_001, 0, -5, 1.5, "10"])
def test_812a10_a_request_over_the_available_balance_or_not_whole_cents_is_refused(
    funded_player, account_a, amount
):
    before = snapshot(funded_player)
    with pytest.raises(ValidationFailed):
        withdrawal_request(player=funded_player, account_id=account_a.pk, amount=amount)
    assert moved_nothing(funded_player, before)


def test_812a10_a_second_request_that_together_would_overdraw_is_refused(funded_player, account_a):
    withdrawal_request(player=funded_player, account_id=account_a.pk, amount=60_000)
    before = snapshot(funded_player)
    with pytest.raises(ValidationFailed, match=r"§ 812a\.10: \$500\.00 is more than the available"):
        withdrawal_request(player=funded_player, account_id=account_a.pk, amount=50_000)
    assert moved_nothing(funded_player, before)


def test_812a10_another_players_account_and_another_holders_staff_are_refused(
    funded_player, account_a, payments_b, manager_a
):
    stranger = make_user("stranger", Role.PLAYER)
    before = snapshot(funded_player)
    with pytest.raises(NotFound):
        withdrawal_request(player=stranger, account_id=account_a.pk, amount=100)
    asked = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=100)
    before = snapshot(funded_player)
    with pytest.raises(NotFound):
        withdrawal_cancel(player=stranger, withdrawal_id=asked.pk)
    with pytest.raises(NotPermitted, match="another certificate holder"):
        withdrawal_pay(actor=payments_b, withdrawal_id=asked.pk, payout_reference="x")
    with pytest.raises(NotPermitted):  # managers do not pay out
        withdrawal_pay(actor=manager_a, withdrawal_id=asked.pk, payout_reference="x")
    assert moved_nothing(funded_player, before)


# § 812a.6 and § 812a.12: the holder's restrictions ---------------------------------------


@pytest.mark.parametrize(
    ("status", "clause"),
    [(AccountStatus.SELF_EXCLUDED, "§ 812a.6"), (AccountStatus.SUSPENDED, "§ 812a.12")],
)
def test_812a6_812a12_a_restricted_account_neither_plays_nor_deposits_but_withdraws(
    funded_player, account_a, payments_a, live_offering, status, clause
):
    account_set_status(
        actor=payments_a, account_id=account_a.pk, status=status, reason="Board list 2026-118"
    )
    before = snapshot(funded_player)
    with pytest.raises(Conflict, match=clause):
        play_round(funded_player, live_offering, "restricted-0001", wagers=RED)
    with pytest.raises(Conflict, match=clause):
        card(funded_player, account_a.holder, 1_000)
    assert moved_nothing(funded_player, before)

    withdrawal_request(player=funded_player, account_id=account_a.pk, amount=100_000)
    event = AuditEvent.objects.get(action="account.status")
    assert (event.actor_id, event.reason) == (payments_a.pk, "Board list 2026-118")
    assert (event.before["status"], event.after["status"]) == ("open", status)


def test_812a6_only_staff_of_the_holder_or_compliance_restrict_an_account_and_say_why(
    funded_player, account_a, payments_b, officer, auditor
):
    for someone in (payments_b, auditor, funded_player):
        with pytest.raises(NotPermitted):
            account_set_status(
                actor=someone, account_id=account_a.pk, status="suspended", reason="r"
            )
    with pytest.raises(ValidationFailed, match="reason"):
        account_set_status(actor=officer, account_id=account_a.pk, status="suspended", reason="")
    with pytest.raises(ValidationFailed, match="can be set to"):
        account_set_status(actor=officer, account_id=account_a.pk, status="closed", reason="r")
    account_set_status(actor=officer, account_id=account_a.pk, status="suspended", reason="r")
    account_set_status(actor=officer, account_id=account_a.pk, status="open", reason="lifted")
    account_a.refresh_from_db()
    assert account_a.status == AccountStatus.OPEN
    assert AuditEvent.objects.filter(action="account.status").count() == 2


def test_812a10_the_policy_reads_a_withdrawals_holder_through_its_account(
    funded_player, account_a, payments_a, payments_b
):
    asked = withdrawal_request(player=funded_player, account_id=account_a.pk, amount=100)
    assert denial(payments_a, Action.PAY_OUT, asked) is None
    assert denial(payments_b, Action.PAY_OUT, asked) == OTHER_HOLDER
