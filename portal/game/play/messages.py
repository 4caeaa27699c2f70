"""What the game tells a player whose round it refuses (the wagers, the table, the key, the
balance); tests import these."""

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
INSUFFICIENT_HELD = (
    "the round's total stake {total} is more than your available balance {available} "
    "({held} is held for withdrawals you asked for)"
)
NO_ACCOUNT = (
    "§ 812a.4: you have no account with {holder} yet; make a deposit to open one, "
    "then play its tables"
)
