"""The message § 814a.1(b) puts in the header of the sign-in, sign-out, public and every player
page, and in what players are sent: one home for its exact words."""

HELP_MESSAGE = (
    "IF YOU OR SOMEONE YOU KNOW HAS A GAMBLING PROBLEM, HELP IS AVAILABLE, CALL 1-800-GAMBLER"
)
