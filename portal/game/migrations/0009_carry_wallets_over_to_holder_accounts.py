"""Each player's single wallet is carried over into an account per certificate holder
(reading:one-account-per-holder, § 812a.4; reading:wallet-carry-over), losing nothing and
rewriting nothing.

The ledger is append-only, so the wallet's entries stay exactly as written. Instead, a
wallet with money gets one entry moving its whole balance out (``carried_out``, to zero),
and each holder account that receives a share gets one entry carrying it in
(``carried_in``). The rule for the shares, from the wallet's own history:

1. each holder's share starts as what the player's rounds at that holder's tables
   returned less what they staked;
2. the wallet's top-ups go to the holder the player first played (by the first round);
   a player who never played gets them with the first holder registered;
3. a share below zero (the player lost there money won or topped up elsewhere) becomes
   zero, and its deficit is taken from the other shares in the order the player first
   played their holders.

The shares add up to the wallet's balance exactly. The player gets an account with every
holder they played, even where the share is zero. ``verify_records`` holds the entries
out and in to each other. Without any holder registered, a wallet's money stays in it.

A migration imports no code of the portal's apps: the kinds are written as they are.
"""

from __future__ import annotations

from django.db import migrations
from django.db.models import Min, Sum
from django.utils import timezone

CARRIED_OUT, CARRIED_IN, TOP_UP = "carried_out", "carried_in", "top_up"


def shares_of(
    balance: int,
    nets: dict[int, int],
    first_played: list[int],
    top_ups: int,
    first_holder: int | None,
) -> dict[int, int]:
    """Each holder's share of ``balance`` (the rule of this module's docstring)."""
    shares = {holder: nets.get(holder, 0) for holder in first_played}
    receiver = first_played[0] if first_played else first_holder
    if receiver is None:
        return {}
    shares[receiver] = shares.get(receiver, 0) + top_ups
    deficit = -sum(share for share in shares.values() if share < 0)
    shares = {holder: max(share, 0) for holder, share in shares.items()}
    for holder in [*first_played, receiver]:
        taken = min(deficit, shares[holder])
        shares[holder] -= taken
        deficit -= taken
    if deficit or sum(shares.values()) != balance:
        raise RuntimeError(
            f"a wallet's balance {balance} is not what its ledger adds up to ({shares}): "
            "run verify_records on the database before upgrading it"
        )
    return shares


def carry_over(apps, schema_editor):
    alias = schema_editor.connection.alias
    Wallet = apps.get_model("game", "Wallet")
    Round = apps.get_model("game", "Round")
    LedgerEntry = apps.get_model("game", "LedgerEntry")
    GamingAccount = apps.get_model("game", "GamingAccount")
    CertificateHolder = apps.get_model("accounts", "CertificateHolder")
    first_holder = (
        CertificateHolder.objects.using(alias).order_by("pk").values_list("pk", flat=True).first()
    )
    now = timezone.now()
    for wallet in Wallet.objects.using(alias).order_by("pk").iterator(chunk_size=500):
        played = (
            Round.objects.using(alias)
            .filter(player_id=wallet.player_id)
            .values("offering__holder_id")
            .annotate(first=Min("pk"), returned=Sum("total_returned"), staked=Sum("total_staked"))
            .order_by("first")
        )
        first_played = [row["offering__holder_id"] for row in played]
        nets = {row["offering__holder_id"]: row["returned"] - row["staked"] for row in played}
        top_ups = (
            LedgerEntry.objects.using(alias)
            .filter(wallet=wallet, kind=TOP_UP)
            .aggregate(total=Sum("amount"))["total"]
            or 0
        )
        if wallet.balance == 0 and not first_played:
            continue
        shares = shares_of(wallet.balance, nets, first_played, top_ups, first_holder)
        if not shares:
            continue
        accounts = {
            holder: GamingAccount.objects.using(alias).get_or_create(
                player_id=wallet.player_id, holder_id=holder
            )[0]
            for holder in shares
        }
        if wallet.balance == 0:
            continue
        LedgerEntry.objects.using(alias).create(
            wallet=wallet,
            kind=CARRIED_OUT,
            amount=-wallet.balance,
            balance_after=0,
            created_at=now,
        )
        for holder, share in shares.items():
            if share == 0:
                continue
            account = accounts[holder]
            account.balance += share
            account.save(update_fields=["balance"])
            LedgerEntry.objects.using(alias).create(
                wallet=wallet,
                account=account,
                kind=CARRIED_IN,
                amount=share,
                balance_after=account.balance,
                created_at=now,
            )
        Wallet.objects.using(alias).filter(pk=wallet.pk).update(balance=0)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_profile_password_setters"),
        ("compliance", "0005_carry_authors_over_unreviewed_versions"),
        ("game", "0008_accounts_per_holder"),
    ]

    operations = [migrations.RunPython(carry_over, migrations.RunPython.noop)]
