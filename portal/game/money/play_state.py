"""Whether a player may play at a holder's tables now, and if not why, in the words a round
would refuse them with: their standing (§ 812a.2, § 815a.4), the holder's terms (§ 812a.5),
the account's status (§ 812a.6, § 812a.12) and their own pause (§ 814a.2). The pages say it
before a bet is built: My account, the tables list and the table page."""

from __future__ import annotations

import datetime

from portal.compliance.models import CertificateHolder
from portal.game.models import AccountStatus, GamingAccount, Wallet
from portal.game.money import limits, standing, terms
from portal.game.money import messages as msg

STATUS_CLAUSES = {
    AccountStatus.SELF_EXCLUDED: ("§ 812a.6", "self-excluded"),
    AccountStatus.SUSPENDED: ("§ 812a.12", "suspended by the holder"),
}


def account_refusal(account: GamingAccount, *, at: datetime.datetime) -> str | None:
    """Why this account may not play now (its status, then the player's pause), or None."""
    if account.status in STATUS_CLAUSES:
        clause, words = STATUS_CLAUSES[AccountStatus(account.status)]
        return msg.ACCOUNT_CLOSED_TO_PLAY.format(clause=clause, status=words)
    return limits.paused(account, at)


def refusals_by_holder(player, holders: list[CertificateHolder], *, at) -> dict[int, str]:
    """For each of ``holders`` where the player may not play now, why (the first reason a
    round would give). A holder where they have no account yet is not refused here: the
    table page says how to open one."""
    wallet = Wallet.objects.filter(player=player).first()
    everywhere = standing.refusal(wallet, at=at)
    if everywhere is not None:
        return {holder.pk: everywhere for holder in holders}
    accounts = {
        account.holder_id: account
        for account in GamingAccount.objects.filter(
            player=player, holder__in=holders
        ).select_related("holder")
    }
    found: dict[int, str] = {}
    for holder in holders:
        accepted = terms.standing_of(player.pk, holder.pk)
        if not accepted.accepted:
            found[holder.pk] = terms.TERMS_NEEDED.format(
                holder=holder.name, version=accepted.in_force_version
            )
            continue
        account = accounts.get(holder.pk)
        refused = account_refusal(account, at=at) if account is not None else None
        if refused is not None:
            found[holder.pk] = refused
    return found
