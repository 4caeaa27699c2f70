"""The single wallet of before accounts per holder, for tests of the checks that still read
its entries: a top-up as ``wallet_top_up`` wrote it then, and the upgrade's carry-over of
each wallet's balance into the player's holder accounts (reading:one-account-per-holder)."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

from django.apps import apps
from django.db import connection, transaction

from portal.audit.services import audit_record
from portal.game.models import LedgerEntry, LedgerKind, Wallet
from portal.game.money.selectors import wallet_for
from portal.game.money.services.deposits import TOP_UP_ACTION, top_up_pictures

CARRY_OVER = importlib.import_module(
    "portal.game.migrations.0009_carry_wallets_over_to_holder_accounts"
)


@transaction.atomic
def legacy_top_up(player, amount: int) -> LedgerEntry:
    """A single-wallet top-up: its entry (no account), the wallet's new balance and its
    ``wallet.top_up`` audit event, as they were written."""
    wallet = Wallet.objects.select_for_update().get(pk=wallet_for(player).pk)
    wallet.balance += amount
    entry = LedgerEntry.objects.create(
        wallet=wallet, kind=LedgerKind.TOP_UP, amount=amount, balance_after=wallet.balance
    )
    wallet.save(update_fields=["balance", "updated_at"])
    before, after = top_up_pictures(entry_id=entry.pk, amount=amount, balance_after=wallet.balance)
    audit_record(
        actor=player,
        action=TOP_UP_ACTION,
        object_type="wallet",
        object_id=wallet.pk,
        before=before,
        after=after,
    )
    return entry


def carry_over() -> None:
    """The upgrade's carry-over (its game migration 0009), run on the rows as they are."""
    CARRY_OVER.carry_over(apps, SimpleNamespace(connection=connection))
