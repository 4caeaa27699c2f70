"""What complaints tell whoever files or handles one, each rule citing its reading."""

from __future__ import annotations

BOARD = (
    "If you are not satisfied with this answer, you may take your complaint to the "
    "Pennsylvania Gaming Control Board, quoting complaint number {number}."
)
KIND_UNKNOWN = "say what it is: a complaint, or a dispute about money"
NO_ACCOUNT = "you have no account with this casino: a complaint is filed with the casino you played"
NO_SUCH_COMPLAINT = "no complaint {id}"
NO_SUCH_ROUND = "no round {id} of yours at this casino"
NO_SUCH_MOVEMENT = "no movement {id} of your account with this casino"
DISPUTE_NEEDS_MONEY = (
    "a dispute about money names the round(s) or the movements of your account it concerns"
)
SUBJECT_NEEDED = "give the complaint a subject, up to {limit} characters"
TEXT_NEEDED = "{what}, up to {limit} characters"
IDS = "{what} are given by their numbers"
NOT_OPEN = "complaint {number} is {status}: it is no longer open"
OWN_COMPLAINT = "you may not handle a complaint you filed"
STEP_UNKNOWN = "say what to do: take it, add a note, or close it with the answer"
OUTCOME_UNKNOWN = "say how it ends: upheld or not upheld"
ADJUSTMENT_ONLY_UPHELD = "only an upheld dispute about money is settled by an adjustment"
ADJUSTMENT_ROUND = "the adjustment is of a round the complaint names ({rounds})"
