"""Finding a player's accounts (§ 812a.4) and locking them for a movement of money.

Every movement locks the player's wallet row, then the account's, the order a round takes
them in; a player's money never moves under any other order of locks."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from portal.compliance.models import CertificateHolder
from portal.core.errors import NotFound, ValidationFailed
from portal.core.validation import MAX_ID
from portal.game.models import GamingAccount, Wallet
from portal.game.money import messages as msg


def holder_or_404(holder_id) -> CertificateHolder:
    if type(holder_id) is not int or not 0 < holder_id <= MAX_ID:
        raise ValidationFailed.on("holder", "holder is the id of a certificate holder")
    holder = CertificateHolder.objects.filter(pk=holder_id).first()
    if holder is None:
        raise NotFound(msg.NO_HOLDER.format(id=holder_id))
    return holder


def wallet_for(player) -> Wallet:
    """The player's wallet (their chain head and money lock), created on first use."""
    wallet = Wallet.objects.filter(player=player).first()
    if wallet is not None:
        return wallet
    try:
        with transaction.atomic():
            return Wallet.objects.create(player=player)
    except IntegrityError:  # created by a concurrent request
        return Wallet.objects.get(player=player)


def locked(account_id: int, player_id: int) -> tuple[Wallet, GamingAccount]:
    """The player's wallet, then the account, locked in that order (as a round takes them).
    The wallet's row is touched too: a round whose read waited for this lock then knows
    that the account it read beside the wallet may have moved (``portal.game.play.sql``)."""
    wallet = Wallet.objects.select_for_update().get(player_id=player_id)
    wallet.save(update_fields=["updated_at"])
    # Only the account's row: never the holder's, which every player's money shares. Its
    # limits in force come with it, for a deposit's checks (§ 814a.2).
    account = (
        GamingAccount.objects.with_limits(waiting=False)
        .select_for_update(of=("self",))
        .select_related("holder")
        .get(pk=account_id)
    )
    return wallet, account


def account_picture(account: GamingAccount) -> dict:
    return {
        "player_id": account.player_id,
        "holder_id": account.holder_id,
        "balance": account.balance,
        "held": account.held,
        "status": account.status,
    }


def account_or_404(account_id) -> GamingAccount:
    if type(account_id) is not int or not 0 < account_id <= MAX_ID:
        raise NotFound(msg.NO_SUCH_ACCOUNT.format(id=account_id))
    account = GamingAccount.objects.select_related("holder", "player").filter(pk=account_id)
    found = account.first()
    if found is None:
        raise NotFound(msg.NO_SUCH_ACCOUNT.format(id=account_id))
    return found


def players_account(player, account_id) -> GamingAccount:
    """The player's own account ``account_id``; anyone else's is, to them, not there."""
    account = account_or_404(account_id)
    if account.player_id != player.pk:
        raise NotFound(msg.NO_SUCH_ACCOUNT.format(id=account_id))
    return account
