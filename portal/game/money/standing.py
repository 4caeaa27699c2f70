"""Whether a player's money may come in or be played, whatever the holder: the player's
standing, read from their wallet's row in the same locked read as everything else a deposit
or a round checks (``portal.players`` writes it, under the same lock).

- § 812a.2: nothing is deposited or played before the player's identity is verified;
- § 815a.3, § 815a.4: nothing while the player is excluded, by the Board's self-exclusion
  list or by their own request.

Neither stops a withdrawal: what the player holds stays theirs to take out.
"""

from __future__ import annotations

import datetime

from portal.core.errors import Conflict
from portal.core.padates import pa_time
from portal.game.models import Wallet

NOT_VERIFIED = (
    "§ 812a.2: your identity has not been verified yet, so you cannot deposit or play; the "
    "holder's payments staff verify it. You may still withdraw what you hold."
)
EXCLUDED = (
    "§ 815a.4: you are excluded from interactive gaming{until}, so you cannot deposit or play "
    "at any holder. You may still withdraw what you hold."
)


def is_excluded(wallet: Wallet, *, at: datetime.datetime) -> bool:
    """Whether the player is excluded at ``at``."""
    if wallet.excluded_since is None or wallet.excluded_since > at:
        return False
    return wallet.excluded_until is None or wallet.excluded_until > at


def refusal(wallet: Wallet | None, *, at: datetime.datetime) -> str | None:
    """Why money may not come in or be played from this wallet at ``at``, or None."""
    if wallet is None or wallet.identity_verified_at is None:
        return NOT_VERIFIED
    if is_excluded(wallet, at=at):
        until = wallet.excluded_until
        shown = f" until {pa_time(until):%d %B %Y}" if until is not None else ""
        return EXCLUDED.format(until=shown)
    return None


def refuse_money_in(wallet: Wallet | None, *, at: datetime.datetime) -> None:
    """Raise ``Conflict`` saying why, when money may not come in or be played."""
    refused = refusal(wallet, at=at)
    if refused is not None:
        raise Conflict(refused)
