"""How the player's account is shown to the player and to staff: its status in plain words,
and each of the player's limits (§ 814a.2) with a raise waiting, if any."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from portal.game.models import AccountStatus, GamingAccount
from portal.game.money.limits import LimitKind, when

STATUS_WORDS = {
    AccountStatus.OPEN: "Open: you may deposit, play and withdraw.",
    AccountStatus.SUSPENDED: (
        "Suspended by the holder (§ 812a.12): no play and no deposits; "
        "you can still withdraw your balance."
    ),
    AccountStatus.SELF_EXCLUDED: (
        "Self-excluded (§ 812a.6): no play and no deposits; you can still withdraw your balance."
    ),
}


PAUSED_WORDS = (
    "Paused by you until {until} (§ 814a.2): no play and no deposits; you can still withdraw "
    "your balance."
)


def status_words(account: GamingAccount, at: datetime.datetime | None = None) -> str:
    """The account's status in plain words, as the player and staff read it: an open account
    the player paused says so until the pause ends."""
    if (
        account.status == AccountStatus.OPEN
        and at is not None
        and account.paused_until is not None
        and at < account.paused_until
    ):
        return PAUSED_WORDS.format(until=when(account.paused_until))
    return STATUS_WORDS[AccountStatus(account.status)]


@dataclass(frozen=True)
class LimitRow:
    """One of the player's limits (§ 814a.2) as the account page shows it."""

    kind: LimitKind
    value: str  # "no limit", "$50.00", "120 minutes"
    pending: str  # the raise waiting, shown; "" if none
    effective: datetime.datetime | None  # when the raise may be confirmed
    effective_text: str
    due: bool  # the raise may be confirmed now


def limit_rows(account: GamingAccount, now: datetime.datetime) -> list[LimitRow]:
    rows = []
    for kind in LimitKind:
        waiting = account.pending_limits.get(kind.value)
        effective = datetime.datetime.fromisoformat(waiting["from"]) if waiting else None
        rows.append(
            LimitRow(
                kind=kind,
                value=kind.shown(account.limits.get(kind.value)),
                pending=kind.shown(waiting["value"]) if waiting else "",
                effective=effective,
                effective_text=when(effective) if effective else "",
                due=effective is not None and now >= effective,
            )
        )
    return rows
