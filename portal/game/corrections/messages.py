"""What the voids and adjustments of rounds tell whoever proposes or decides one, each rule
citing its clause; tests import these."""

from __future__ import annotations

KIND_UNKNOWN = "say what to propose: a void (§ 617a.6) or an adjustment (§ 812a.7(a)(9))"
NO_SUCH_ROUND = "no round {id}"
NO_SUCH_CORRECTION = "no void or adjustment {id}"
NO_ACCOUNT = (
    "§ 812a.4: round {round} was played before its player had an account with the table's "
    "holder; it cannot be corrected here"
)
REASON_NEEDED = "{clause}: give the reason (it is kept with the record and shown to the player)"
TEXT_TOO_LONG = "keep it to {limit} characters"
ADJUSTMENT_AMOUNT = (
    "§ 812a.7(a)(9): the adjustment is a whole number of cents, not zero, at most "
    "{limit} either way (positive credits the player, negative debits)"
)
NOTICE_NEEDED = (
    "§ 812a.7(a)(9): write the notification the player is sent about this adjustment; it is "
    "kept with it"
)
ALREADY_VOID = "§ 617a.6: round {round} is already void"
RESIDUAL_ONLY = (
    "§ 617a.6: round {round} was voided before a void undid its adjustments, which still "
    "leave {left} moved; the only adjustment it takes is {owed} of exactly {left}, which "
    "leaves the player as if the round had never been played (reading:corrections-compose)"
)
NO_SUCH_FINDING = "no payout finding {id} on round {round}"
CREDIT_NEEDS_GROUND = (
    "§ 812a.7(a)(9): an adjustment credit rests on an upheld dispute (settled from its "
    "complaint) or a recorded payout error: this round settles as it was paid, so name an "
    "officer's written finding of the error (reading:adjustment-grounds)"
)
DEBIT_NEEDS_ERROR = (
    "§ 812a.7(a)(9): an adjustment debit rests only on a recorded payout error: this round "
    "settles as it was paid, so name an officer's written finding of the error "
    "(reading:adjustment-grounds)"
)
DEBIT_ON_COMPLAINT = (
    "§ 812a.7(a)(9): a complaint never rests a debit: only a recorded payout error does "
    "(reading:adjustment-grounds)"
)
OWN_FINDING = "§ 812a.7(a)(9): you may not record a finding on a round you played"
FINDING_NEEDED = "write the finding: what was paid, what should have been, how it was found"
VOID_OUTDATED = (
    "§ 617a.6: the adjustments of round {round} changed since this void was proposed; reject "
    "it and propose the void again"
)
VOID_WAITING = "§ 617a.6: a void of round {round} is already waiting for a decision"
ONE_WAITING = "round {round} already has {kind} waiting for a decision; decide that one first"
NOT_PROPOSED = "this {kind} is {status}; only a proposed one can be {verb}"
FOUR_EYES_PROPOSER_OR_PLAYER = (
    "{clause}: {kind} is decided by someone other than who proposed it, and never by the "
    "round's player"
)
FOUR_EYES_PASSWORD_SETTER = (
    "{clause}: you set the password of whoever proposed this {kind}, or they set yours: "
    "someone else decides it"
)
OWN_ROUND = (
    "{clause}: you may not propose {kind} of a round you played; another supervisor of the "
    "holder or a compliance officer proposes it"
)
