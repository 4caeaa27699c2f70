"""What the accounts API tests share: the player's accounts with two holders, and a picture
of every movement of money, to show a refused request moved nothing."""

from __future__ import annotations

from contextlib import contextmanager

from portal.game.models import AccountLimit, Deposit, GamingAccount, LedgerEntry, Withdrawal
from tests.portal.factories import events_written

ACCOUNT_FIELDS = ("balance", "held", "status", "status_reason", "paused_until")
LIMIT_FIELDS = ("account", "kind", "amount", "in_force_from", "pending_until")


def money() -> dict:
    """Every account and its limits as they stand, and how many entries, deposits,
    withdrawals and audit events there are (sign-ins left out)."""
    return {
        "accounts": list(GamingAccount.objects.order_by("pk").values("pk", *ACCOUNT_FIELDS)),
        "limits": list(AccountLimit.objects.order_by("pk").values("pk", *LIMIT_FIELDS)),
        "withdrawals": list(Withdrawal.objects.order_by("pk").values("pk", "status", "amount")),
        "entries": LedgerEntry.objects.count(),
        "deposits": Deposit.objects.count(),
        "events": events_written(),
    }


@contextmanager
def nothing_moved():
    before = money()
    yield
    assert money() == before
