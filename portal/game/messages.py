"""What the game tells a player whose request it refuses; tests import these."""

NOT_A_LIST = "wagers must be a list of {{kind, numbers, stake}} objects"
NO_WAGERS = "§ 617b.8(d): place at least one wager before the spin"
TOO_MANY = "at most {limit} wagers a round (one per bet spot); got {count}"
NOT_AN_OBJECT = "each wager is an object with kind, numbers and stake"
UNKNOWN_FIELDS = "unknown field(s) {fields}; a wager has kind, numbers and stake"
STAKE_NOT_INT = "stake must be a whole number of minor units (cents), got {got}"
SPOT_TWICE = "{spot} appears twice; put the whole stake on it once"
NOT_CHIP_MULTIPLE = "stake {stake} on {spot} is not a multiple of the table's chip unit {chip}"
BELOW_MIN = "stake {stake} on {spot} is below the table minimum {minimum} per spot"
ABOVE_MAX = "stake {stake} on {spot} is above the table maximum {maximum} per spot"
ROUND_ABOVE_MAX = "the round's total stake {total} is above the table maximum {maximum} per round"
INSUFFICIENT = "the round's total stake {total} is more than your balance {balance}"
CLOSED = "this table is closed: {reasons}"
NO_SUCH_OFFERING = "no offering {id}"
KEY_INVALID = "idempotency_key must be 8 to 64 letters, digits, '-' or '_'"
KEY_REUSED = (
    "idempotency_key {key!r} was already used for a different round; use a new key for a new bet"
)
TOP_UP_RANGE = "a demo top-up is a whole number of minor units from 2 to {maximum}"
BALANCE_CAP = "a demo wallet holds at most {maximum} minor units"
INSUFFICIENT_HELD = (
    "the round's total stake {total} is more than your available balance {available} "
    "({held} is held for withdrawals you asked for)"
)
NO_ACCOUNT = (
    "§ 812a.4: you have no account with {holder} yet; make a deposit to open one, "
    "then play its tables"
)

# The player's account (Chapter 812a) and responsible gaming (§ 814a.2)
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
PAUSED = "§ 814a.2: you suspended your own play with {holder} until {until}"
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
