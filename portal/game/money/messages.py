"""What the game tells whoever it refuses about a player's money: deposits (§ 812a.7),
withdrawals (§ 812a.10), the account's status (§ 812a.6, § 812a.12); tests import these."""

BALANCE_CAP = "a demo wallet holds at most {maximum} minor units"
AMOUNT_WHOLE = "the amount is a whole number of cents from 1 to {maximum}"
NO_HOLDER = "no certificate holder {id}"
METHOD_UNKNOWN = "§ 812a.7(a): deposit by one of: {methods}"
METHOD_CREDIT = (
    "§ 812a.7(b): a holder never lends a player money to play with; deposit by one of: {methods}"
)
METHOD_NOT_YOURS = "§ 812a.7(a): {method} is recorded by the holder's payments staff"
METHOD_STAFF_ONLY = "§ 812a.7(a): payments staff record deposits made at the holder: {methods}"
REFERENCE_NEEDED = "§ 812a.7(a): give the payment's reference (up to 100 characters)"
ACCOUNT_CLOSED_TO_PLAY = "{clause}: this account is {status}: no play and no deposits"
OVER_AVAILABLE = (
    "§ 812a.10: {amount} is more than the available balance {available} "
    "({held} already held for pending withdrawals)"
)
WITHDRAWAL_NOT_PENDING = "this withdrawal is {status}; only a pending one can be {verb}"
NO_SUCH_WITHDRAWAL = "no withdrawal {id}"
NO_SUCH_ACCOUNT = "no player account {id}"
PAYOUT_REFERENCE_NEEDED = "§ 812a.10: give the payout's reference (up to 100 characters)"
REASON_NEEDED = "{clause}: give the reason (it is kept with the record and shown to the player)"
STATUS_UNKNOWN = "§ 812a.6, § 812a.12: the account can be set to: {statuses}"
DEMO_ONLY = "demo top-ups exist only on the demo portal"
OWN_WITHDRAWAL = (
    "§ 812a.10: you may not pay or refuse a withdrawal from your own account; another member "
    "of the payments staff decides it"
)
OWN_STATUS = (
    "§ 812a.6, § 812a.12: you may not suspend, exclude or reopen your own account; another "
    "member of staff does it"
)
OWN_DEPOSIT = (
    "§ 812a.7(a): you may not record a deposit, promotional credit included, into your own "
    "account; another member of the payments staff records it"
)
