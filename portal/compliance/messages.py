"""User-facing messages of the compliance services; tests import them.

Each regulatory rule cites its clause.
"""

from __future__ import annotations

from portal.access.workflow import REASON_REQUIRED  # noqa: F401  (one home; tests import it here)

SUNSET_TEXT = "2028-06-14"

FOUR_EYES_OWN_WORK = (
    "four-eyes rule: you created, edited or submitted this {kind}, or a version of it never "
    "approved that it carries on, so someone else must decide it"
)
FOUR_EYES_PASSWORD_SETTER = (
    "four-eyes rule: a password was set by an administrator who could have signed in as the "
    "author of this {kind} or as you (one of you set the password of the other, or one "
    "administrator set both), so someone else must decide it"
)
BAD_TRANSITION = "{label} is {status}; only a {allowed} {kind} can be {verb}"
DECISION_LOST = "{label} was already decided ({status}) by someone else"
EXPIRY_AFTER_SUNSET = (
    "§ 617b.8 expires on " + SUNSET_TEXT + " (55 Pa.B. 4012): an approval cannot run past it "
    "(expiry {expiry})"
)
EFFECTIVE_BEFORE_RULE = (
    "§ 617b.8 takes effect on 2025-06-14 (55 Pa.B. 4012): nothing can take effect under it "
    "on {effective}"
)
EFFECTIVE_AFTER_SUNSET = (
    "§ 617b.8 expires on " + SUNSET_TEXT + " (55 Pa.B. 4012): nothing can take effect under "
    "it on {effective}"
)
NOTHING_CAN_HOLD = (
    "§ 617b.8 expired on " + SUNSET_TEXT + " (55 Pa.B. 4012): no approval can hold under it "
    "any more, so no {what} for Jinzi Roulette can be {verb}"
)
APPROVAL_AFTER_SUNSET = "§ 617b.8 expired on " + SUNSET_TEXT + ": nothing can be approved under it"
EXPIRY_IN_THE_PAST = (
    "an approval expiring on {expiry} would never hold: the expiry must be after today"
)
EXPIRY_NOT_AFTER_EFFECTIVE = "the expiry date must come after the effective date"
OPEN_VERSION_EXISTS = "{kind} series already has an open version (v{version}, {status})"
NOT_LATEST_VERSION = "only the latest version (v{version}) can be amended"
ARTWORK_REQUIRED = "§ 601a.10(a): a layout is submitted with its artwork (PDF, PNG or SVG)"
REFERENCE_REQUIRED = "§ 601a.10(a): record the Bureau of Gaming Operations reference number"
DATES_REQUIRED = "an approval needs an effective date and an expiry date"
EDGE_OVERRIDE_REQUIRED = (
    "§ 617b.8(f): paid with each return rounded up to the cent, this paytable leaves the "
    "house no edge, or an edge in the player's favour, on some wagers; approving it needs "
    "an override reason saying why"
)
LISTING_EDGE_REASON_REQUIRED = (
    "§ 617b.8(f): at the stakes its table allows, a paytable this rules submission lists "
    "leaves the house no edge, or an edge in the player's favour, on some wagers; approving "
    "it needs a reason saying why"
)
EDGE_ACKNOWLEDGEMENT_REQUIRED = (
    "§ 617b.8(f) (reading:edge-acknowledgement): this decision leaves these wagers with a "
    "house edge of zero or less: {wagers}. Tick the box that acknowledges exactly this list "
    "to decide it; a reason alone does not"
)
EDGE_ACKNOWLEDGEMENT_CHANGED = (
    "The wagers this decision leaves with a house edge of zero or less are no longer those "
    "you acknowledged (reading:edge-acknowledgement). Nothing was changed: read the list as "
    "it now is and decide again"
)
LISTING_STAKES = "chips of {unit}, from {lowest} to {highest} a spot"
LOWEST_AT_STAKE = "lowest on a stake of {stake}, its return rounded up"
CHIP_UNIT_ODD = (
    "chip unit must be an even number of minor units so that the § 617b.8(g) half-back is "
    "exact; got {value}"
)
LIMIT_NOT_MULTIPLE = "{field} must be a multiple of the chip unit {chip}; got {value}"
LIMITS_ORDER = "limits must satisfy chip unit ≤ min wager ≤ max wager ≤ max round stake"
OTHER_HOLDERS_RECORD = "the {kind} belongs to another certificate holder"
NO_GAMES = "§ 601a.2: a rules submission must list at least one game"
GAME_TWICE = "each game may be listed once; {game} is listed twice"
LISTED_NOT_APPROVED = (
    "§ 601a.2: the listed {kind} {label} is {status}; only approved {kind}s can be listed "
    "in an approved rules submission"
)
OFFERING_MISMATCH = (
    "§ 617b.8(a): the rules submission does not list Jinzi Roulette with this {what}"
)
OFFERING_RETIRED = "offering {name} is retired"
NO_SUCH_OFFERING = "no table {id}"
SUSPENSION_REASON = (
    "give the reason: what was seen, what is being checked (reading:table-suspension); it "
    "is kept with the table and in the availability log"
)
REASON_TOO_LONG = "keep the reason to {limit} characters"
NOT_SUSPENDABLE = "table {name} is {status}: only a table in service can be suspended"
NOT_SUSPENDED = "table {name} is not suspended"
REOPEN_FOUR_EYES = (
    "reading:table-suspension: a suspended table is reopened by someone other than who suspended it"
)
IMPACT_CHANGED = (
    "the tables this decision opens or closes have changed since it was shown "
    "(reading:supersede): nothing was done; look at them again and decide anew"
)
MOVED_BY_AMENDMENT = (
    "moved to rules submission {label} on its approval, with the layout and paytable it "
    "lists (reading:supersede)"
)

# A holder's terms and conditions for players (§ 811a.3, § 812a.5).
TERMS_ONE_SERIES = (
    "§ 811a.3: {holder} already keeps its terms and conditions ({title!r} v{version}); a "
    "holder keeps one series of them, so amend the existing terms and conditions rather than "
    "starting new ones"
)
TERMS_TITLE_REQUIRED = "Enter a title for the terms and conditions"
TERMS_TITLE_TOO_LONG = "Enter a title of at most {limit} characters; this one has {length:,}"
TERMS_BODY_REQUIRED = (
    "§ 811a.3: enter the text of the terms and conditions, as players are to read and accept it"
)
TERMS_BODY_TOO_LONG = (
    "Shorten the text of the terms and conditions to at most {limit:,} characters; it has "
    "{length:,}"
)
TERMS_NOT_TEXT = "Enter the {what} as plain text"
TERMS_NUL = "Take out the invisible null character from the {what}: plain text cannot hold it"


def cents(amount: int) -> str:
    """An amount of minor units in words: "2 cents", "1,000 cents"."""
    return f"{amount:,} cent" if amount == 1 else f"{amount:,} cents"
