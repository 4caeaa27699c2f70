"""The audit trail's words for what the game app writes: rounds' voids and adjustments
(§ 617a.6), players' accounts, their money and limits (§ 812a, § 814a), and the fields of
their pictures."""

from __future__ import annotations

from portal.audit import labels

# In the trail's filter, the rounds' corrections come after the records and tables, and
# players' money after the people and holders.
CORRECTIONS_ORDER = 20
MONEY_ORDER = 40

CORRECTION_ACTIONS = {
    "void.propose": "Void proposed",
    "void.approve": "Void approved and applied",
    "void.reject": "Void rejected",
    "adjustment.propose": "Adjustment proposed",
    "adjustment.approve": "Adjustment approved and applied",
    "adjustment.reject": "Adjustment rejected",
}
MONEY_ACTIONS = {
    "account.open": "Player account opened",
    "account.deposit": "Deposit recorded",
    "account.limit": "Responsible gaming limits changed",
    "account.pause": "Play paused by the player",
    "account.status": "Account status changed",
    "withdrawal.request": "Withdrawal requested",
    "withdrawal.cancel": "Withdrawal cancelled",
    "withdrawal.pay": "Withdrawal paid",
    "withdrawal.refuse": "Withdrawal refused",
    # The single wallet's top-ups, from before accounts per holder: still in the trail.
    "wallet.top_up": "Wallet topped up",
}
GROUPS = {
    "account": "Player account",
    "wallet": "Wallet",
}
# A player's limits (§ 814a.2), by period.
LIMITS = {
    "wager": "Largest wager",
    "deposit_day": "Deposits a day",
    "deposit_week": "Deposits a week",
    "deposit_month": "Deposits a month",
    "loss_day": "Losses a day",
    "loss_week": "Losses a week",
    "loss_month": "Losses a month",
    "time_day": "Play a day (minutes)",
}
FIELDS = {
    "proposed_by_id": "Proposed by",
    "player_id": "Player",
    "balance_after": "Balance after",
    "ledger_entry": "Ledger entry no.",
    "deposit": "Deposit no.",
    "withdrawal": "Withdrawal no.",
    "round_id": "Round no.",
    "account_id": "Player account no.",
    "pending_limits": "Limits waiting to take effect",
    "payout_reference": "Payout reference",
    "credit_entry": "Credit ledger entry no.",
    "debit_entry": "Debit ledger entry no.",
    "notice": "Notice to the player",
    **LIMITS,
}
# Kept in cents, shown in dollars (every limit but play time).
MONEY = (
    *("amount", "balance", "balance_after", "held", "credited", "debited", "uncollected"),
    *(name for name in LIMITS if name != "time_day"),
)


def register() -> None:
    labels.register_actions(CORRECTION_ACTIONS, order=CORRECTIONS_ORDER)
    labels.register_actions(MONEY_ACTIONS, order=MONEY_ORDER)
    labels.register_action_groups(GROUPS)
    labels.register_object_kinds(["player_account", "withdrawal", "void", "adjustment"])
    labels.register_fields(
        FIELDS, money=MONEY, codes=("method",), people=("proposed_by_id", "player_id")
    )
