"""The upgrade that carries each player's single wallet into accounts per holder
(reading:wallet-carry-over, § 812a.4): nothing lost, nothing rewritten.

The shares are worked here by hand; a database made by the previous commit's own commands,
migrated and verified whole, is the compatibility suite's (tests/system/compat)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.db.models import Sum

from portal.game.models import GamingAccount, LedgerEntry, LedgerKind, Wallet
from portal.game.money.selectors import wallet_for

MIGRATION = importlib.import_module(
    "portal.game.migrations.0009_carry_wallets_over_to_holder_accounts"
)

pytestmark = [pytest.mark.django_db, pytest.mark.clause("reading:wallet-carry-over", kind="proves")]


def test_812a4_each_holders_share_is_its_net_play_with_top_ups_to_the_holder_first_played():
    """Topped up $100; at holder 7 (first) staked $30 and got back $10: net −$20; at holder 3
    staked $10 and got back $45: net +$35. Balance 100 − 20 + 35 = $115. Holder 7 gets
    −20 + 100 = $80, holder 3 gets $35."""
    shares = MIGRATION.shares_of(
        11_500, {7: -2_000, 3: 3_500}, first_played=[7, 3], top_ups=10_000, first_holder=1
    )
    assert shares == {7: 8_000, 3: 3_500}


def test_812a4_a_share_below_zero_is_taken_from_the_others_in_the_order_first_played():
    """Topped up $10 (to holder 1, first played) and lost $10 there; then won $50 at holder 2
    and lost $30 of it at holder 3: balance 10 − 10 + 50 − 30 = $20. Shares 0, +50, −30:
    the −30 becomes 0, taken from holder 1 (nothing there), then holder 2: 0, 20, 0."""
    shares = MIGRATION.shares_of(
        2_000,
        {1: -1_000, 2: 5_000, 3: -3_000},
        first_played=[1, 2, 3],
        top_ups=1_000,
        first_holder=1,
    )
    assert shares == {1: 0, 2: 2_000, 3: 0}


def test_812a4_a_player_who_never_played_keeps_the_money_with_the_first_holder():
    assert MIGRATION.shares_of(5_000, {}, [], 5_000, first_holder=4) == {4: 5_000}
    assert MIGRATION.shares_of(5_000, {}, [], 5_000, first_holder=None) == {}


def test_812a4_a_wallet_whose_ledger_does_not_add_up_stops_the_upgrade_saying_why():
    with pytest.raises(RuntimeError, match="run verify_records"):
        MIGRATION.shares_of(9_999, {1: 0}, [1], 5_000, first_holder=1)


@transaction.atomic
def _single_wallet_top_up(player, amount: int) -> None:
    """Money in a player's single wallet, as before accounts per holder: no account."""
    wallet = Wallet.objects.select_for_update().get(pk=wallet_for(player).pk)
    wallet.balance += amount
    LedgerEntry.objects.create(
        wallet=wallet, kind=LedgerKind.TOP_UP, amount=amount, balance_after=wallet.balance
    )
    wallet.save(update_fields=["balance", "updated_at"])


def test_812a4_the_upgrade_moves_each_wallet_out_and_into_the_account_and_both_add_up(
    player, holder_a, holder_b
):
    _single_wallet_top_up(player, 3_000)
    _single_wallet_top_up(player, 1_501)
    entries_before = list(LedgerEntry.objects.order_by("pk").values())

    MIGRATION.carry_over(apps, SimpleNamespace(connection=connection))

    wallet = Wallet.objects.get(player=player)
    account = GamingAccount.objects.get(player=player)
    assert wallet.balance == 0
    assert account.holder == holder_a  # never played: the first holder registered
    assert account.balance == 4_501
    out = LedgerEntry.objects.get(kind=LedgerKind.CARRIED_OUT)
    came = LedgerEntry.objects.get(kind=LedgerKind.CARRIED_IN)
    assert (out.account, out.amount, out.balance_after) == (None, -4_501, 0)
    assert (came.account, came.amount, came.balance_after) == (account, 4_501, 4_501)
    # What was written before is exactly as it was.
    assert list(LedgerEntry.objects.order_by("pk").values()[:2]) == entries_before
    wallet_total = LedgerEntry.objects.filter(wallet=wallet, account=None).aggregate(
        s=Sum("amount")
    )["s"]
    assert wallet_total == wallet.balance == 0

    MIGRATION.carry_over(apps, SimpleNamespace(connection=connection))  # a second run
    assert LedgerEntry.objects.count() == 4 and GamingAccount.objects.count() == 1
