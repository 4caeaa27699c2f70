"""The audit trail's words for what the game app writes: rounds' voids and adjustments
(§ 617a.6), players' accounts, their money and limits (§ 812a, § 814a), the fields of their
pictures, and how the trail names a correction ("Void 7 of round 3") and a player's account
("Player account of Dana Reyes at Keystone Casino")."""

from __future__ import annotations

from portal.audit import labels
from portal.audit.labels import LoadedNames, PicturedObject
from portal.audit.names import trail_pictures
from portal.core.pages import kind_label

# In the trail's filter, the rounds' corrections come after the records and tables, and
# players' money after the people and holders.
CORRECTIONS_ORDER = 20
MONEY_ORDER = 40

CORRECTION_ACTIONS = {
    "finding.record": "Payout error found on a round",
    "void.propose": "Void proposed",
    "void.approve": "Void approved and applied",
    "void.reject": "Void rejected",
    "adjustment.propose": "Adjustment proposed",
    "adjustment.approve": "Adjustment approved and applied",
    "adjustment.reject": "Adjustment rejected",
}
OPENED = "account.open"
MONEY_ACTIONS = {
    OPENED: "Player account opened",
    "account.deposit": "Deposit recorded",
    "account.terms_accept": "Terms and conditions accepted",
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
# Complaints (reading:complaint-number): beside the corrections they may end in.
COMPLAINT_ACTIONS = {
    "complaint.file": "Complaint filed",
    "complaint.take": "Complaint taken",
    "complaint.note": "Note added to a complaint",
    "complaint.uphold": "Complaint upheld: adjustment proposed",
    "complaint.close": "Complaint answered and closed",
    "complaint.reopen": "Complaint reopened: its adjustment was rejected",
}
# A player's sessions (§ 812a.3(a)(5)-(6), § 814a.1): beside the sign-ins of the accounts.
SESSION_ACTIONS = {
    "session.api_start": "Signed in through the API",
    "session.notice_acknowledged": "Notice of time and money played read",
    "session.choices": "Session choices changed",
}
GROUPS = {
    "account": "Player account",
    "wallet": "Wallet",
    "session": "Player session",
    "finding": "Payout finding",
    "complaint": "Complaint",
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
    "terms": "Terms and conditions no.",
    "terms_version": "Terms and conditions version",
    "acknowledged_at": "Accepted at",
    "ground": "Rests on",
    "number": "Number",
    "subject": "Subject",
    "rounds": "Rounds",
    "movements": "Movements",
    "outcome": "Decision",
    "answer": "Answer",
    "round": "Round no.",
    "adjustment": "Adjustment no.",
    "note": "Note no.",
    "complaint": "Complaint no.",
    "finding": "Payout finding no.",
    "text": "Finding",
    "undone_credits": "Adjustment credits taken back",
    "undone_debits": "Adjustment debits given back",
    "session": "Session",
    "elapsed_seconds": "Seconds since sign-in",
    "wagered": "Wagered",
    "won": "Won",
    "notice_minutes": "Notice every (minutes)",
    "tell_every_access": "Told of each sign-in",
    **LIMITS,
}
# Kept in cents, shown in dollars (every limit but play time).
MONEY = (
    *("amount", "balance", "balance_after", "held", "credited", "debited", "uncollected"),
    *("wagered", "won", "undone_credits", "undone_debits"),
    *(name for name in LIMITS if name != "time_day"),
)


# An account has no page of its own: it is named by its player and holder, from the event's
# picture, else from its opening's (accounts are opened only through an audited service).
def _account_openings(pks: set[int]) -> dict[int, dict]:
    return trail_pictures("player_account", pks, OPENED)


def _account_unpictured(account: PicturedObject) -> bool:
    return "player_id" not in account.picture


def _account(account: PicturedObject, names: LoadedNames) -> str | None:
    picture = account.picture
    if _account_unpictured(account) and account.pk.isdigit():
        picture = names.of("player_account").get(int(account.pk), {})
    player, holder = picture.get("player_id"), picture.get("holder_id")
    if not isinstance(player, int):
        return None
    at = f" at {names.record('holder', holder)}" if isinstance(holder, int) else ""
    return f"Player account of {names.person(player)}{at}"


def _correction(correction: PicturedObject, names: LoadedNames) -> str | None:
    round_id = correction.picture.get("round_id")
    if not isinstance(round_id, int):
        return None
    return f"{kind_label(correction.kind)} {correction.pk} of round {round_id}"


def register() -> None:
    labels.register_actions(CORRECTION_ACTIONS, order=CORRECTIONS_ORDER)
    labels.register_actions(COMPLAINT_ACTIONS, order=CORRECTIONS_ORDER)
    labels.register_actions(MONEY_ACTIONS, order=MONEY_ORDER)
    labels.register_actions(SESSION_ACTIONS, order=MONEY_ORDER)
    labels.register_action_groups(GROUPS)
    labels.register_object_kinds(
        ["player_account", "withdrawal", "void", "adjustment", "complaint"]
    )
    labels.register_fields(
        FIELDS, money=MONEY, codes=("method",), people=("proposed_by_id", "player_id")
    )
    labels.register_object_namer(
        "player_account",
        _account,
        load=_account_openings,
        needs_load=_account_unpictured,
        refers=("player_id", "holder_id"),
    )
    for kind in ("void", "adjustment"):
        labels.register_object_namer(kind, _correction)
