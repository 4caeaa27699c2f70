"""What the players app tells whoever it refuses: registration (§ 812a.2), identity
verification and exclusion (§ 815a.3, § 815a.4); tests import these."""

NAME_NEEDED = (
    "§ 812a.2(b): enter your {what} as on your identity document (up to {limit} characters)"
)
BORN_NEEDED = "§ 812a.2(b): enter your date of birth, like 1990-04-21"
BORN_IN_FUTURE = "§ 812a.2(b): a date of birth cannot be in the future"
UNDER_21 = "§ 812a.2: you must be 21 or older to play (you will be 21 on {birthday})"
ADDRESS_NEEDED = "§ 812a.2(b): enter your residential address (up to {limit} characters)"
TELEPHONE_NEEDED = "§ 812a.2(b): enter a telephone number of 7 to 15 digits, like 215 555 0123"
EMAIL_NEEDED = "§ 812a.2(b): enter an email address, like name@example.com"
EMAIL_TAKEN = "§ 812a.2: this email address is already registered; sign in instead"
SSN_FOUR_DIGITS = (
    "§ 812a.2(b)(3): the last four digits of the Social Security number are four digits, or "
    "leave it empty"
)
ALREADY_REGISTERED = (
    "§ 812a.2: a player with this legal name and date of birth is already registered; sign in "
    "to that account instead"
)
# Neutral: never tells an anonymous registrant that a person is on the Board's list (§ 815a.8).
CANNOT_REGISTER = (
    "We cannot open an account with these details online. Please contact the holder's "
    "customer service."
)
HOLDER_NEEDED = "§ 812a.4: choose the certificate holder to open your account with"
NO_SUCH_PLAYER = "no player {id}"
METHOD_UNKNOWN = "§ 812a.2(c): say how the identity was verified: {methods}"
REFERENCE_NEEDED = "§ 812a.2(c): give the reference of the document checked (up to 100 characters)"
ALREADY_VERIFIED = "§ 812a.2(c): this player's identity was already verified on {when}"
VERIFIERS_ONLY = (
    "§ 812a.2(c): identities are verified by the holder's payments staff or a compliance officer"
)
OWN_IDENTITY = "§ 812a.2(c): nobody verifies their own identity; another member of staff must"
PERIOD_UNKNOWN = "§ 815a.3(c): choose a period of 1 year, 5 years or life"
CONFIRM_NEEDED = (
    "§ 815a.3: tick the box to confirm that you understand a self-exclusion cannot be undone "
    "or shortened"
)
SHORTER_THAN_IN_FORCE = (
    "§ 815a.3: you are already excluded {until}; a self-exclusion can be made longer, never shorter"
)
