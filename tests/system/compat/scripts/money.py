"""Every player's money as the database holds it, read through the models by app and name
(no module path), so either tree answers for its own schema.

Prints, after its marker line: each wallet's balance and the sum of its own ledger entries
(the entries of no account), by player; and, once accounts per holder exist, each account's
player, holder and balance and the sum and count of its ledger entries (before accounts per
holder, ``accounts`` is null); and how many ledger entries there are of each kind.
"""

import json

from django.apps import apps
from django.db.models import Count, Q, Sum

Wallet = apps.get_model("game", "Wallet")
LedgerEntry = apps.get_model("game", "LedgerEntry")
try:
    GamingAccount = apps.get_model("game", "GamingAccount")
except LookupError:  # the single wallet: no account per holder yet
    GamingAccount = None

own = Q()
if GamingAccount is not None:
    own = Q(account__isnull=True)
entered = dict(
    LedgerEntry.objects.filter(own)
    .order_by()
    .values("wallet_id")
    .annotate(total=Sum("amount"))
    .values_list("wallet_id", "total")
)
money = {
    "wallets": [
        {
            "player": wallet.player_id,
            "balance": wallet.balance,
            "entries": entered.get(wallet.pk, 0),
        }
        for wallet in Wallet.objects.order_by("pk")
    ],
    "accounts": None,
    "kinds": dict(
        LedgerEntry.objects.order_by()
        .values("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    ),
}
if GamingAccount is not None:
    money["accounts"] = [
        {
            "player": account.player_id,
            "holder": account.holder_id,
            "balance": account.balance,
            "entries": account.entered or 0,
            "entry_count": account.entry_count,
        }
        for account in GamingAccount.objects.annotate(
            entered=Sum("entries__amount"), entry_count=Count("entries")
        ).order_by("pk")
    ]
print("=== money ===")
print(json.dumps(money))
