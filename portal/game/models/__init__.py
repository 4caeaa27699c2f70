"""The game's models: the player's money (``accounts``), the game records (``records``) and
the voids and adjustments of rounds (``corrections``).

Django finds an app's models in its ``models`` module; this package names them there."""

from portal.game.models.accounts import (
    CORRECTION_KINDS,
    CREDITS,
    DEBITS,
    MAX_LIMIT,
    MAX_MINUTES,
    NOTICE_MINUTES,
    ROUND_ENTRY_KINDS,
    AccountLimit,
    AccountStatus,
    Deposit,
    DepositMethod,
    GamingAccount,
    LedgerEntry,
    LedgerKind,
    LimitKind,
    Period,
    PlaySession,
    SessionChannel,
    TermsAcknowledgement,
    Wallet,
    Withdrawal,
    WithdrawalStatus,
)
from portal.game.models.corrections import CorrectionKind, CorrectionStatus, RoundCorrection
from portal.game.models.records import Bet, Round, RoundStatus

__all__ = [
    "CORRECTION_KINDS",
    "CREDITS",
    "DEBITS",
    "MAX_LIMIT",
    "MAX_MINUTES",
    "NOTICE_MINUTES",
    "AccountLimit",
    "AccountStatus",
    "Bet",
    "CorrectionKind",
    "CorrectionStatus",
    "Deposit",
    "DepositMethod",
    "GamingAccount",
    "LedgerEntry",
    "LedgerKind",
    "LimitKind",
    "Period",
    "PlaySession",
    "ROUND_ENTRY_KINDS",
    "Round",
    "RoundCorrection",
    "RoundStatus",
    "SessionChannel",
    "TermsAcknowledgement",
    "Wallet",
    "Withdrawal",
    "WithdrawalStatus",
]
