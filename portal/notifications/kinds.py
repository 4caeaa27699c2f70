"""The kinds of notification, declared once: each with its name, the words people read for
it, who may choose how to get it, and how it is delivered unless they choose.

What makes a notice of a kind (who is concerned, its words, its link) is in ``sources``
(the audit trail, the report runs) and ``reminders`` (dated ones); the preferences page,
the dispatcher and the docs read this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.access.roles import Role, roles_of
from portal.notifications.models import Delivery


@dataclass(frozen=True)
class Kind:
    name: str
    label: str  # what the preferences page and the inbox call it
    who: str  # who gets it, in plain words
    roles: frozenset[Role]  # whose preferences page lists it
    default: Delivery = Delivery.IN_APP


@dataclass(frozen=True)
class Notice:
    """One thing to tell some people: the same key for everyone told of the same thing."""

    kind: Kind
    key: str
    recipients: frozenset[int]
    subject: str
    body: str
    link: str  # a path on the portal


def _kind(name, label, who, roles, default=Delivery.IN_APP) -> Kind:
    return Kind(name, label, who, frozenset(roles), default)


R = Role
RECORD_SUBMITTED = _kind(
    "record_submitted",
    "A layout, paytable or rules submission is submitted for review, as are a holder's "
    "terms and conditions",
    "compliance officers",
    {R.COMPLIANCE},
)
REVIEW_DUE = _kind(
    "review_due",
    "A layout's review is due within 3 days, or overdue (§ 601a.10)",
    "compliance officers",
    {R.COMPLIANCE},
    Delivery.EMAIL,
)
RECORD_DECIDED = _kind(
    "record_decided",
    "A record of your holder is approved, rejected, sent back, withdrawn or expires",
    "the record's authors and their holder's managers",
    {R.MANAGER},
    Delivery.EMAIL,
)
APPROVAL_EXPIRING = _kind(
    "approval_expiring",
    "An approval expires in 30, 7 or 1 days",
    "the record's authors and their holder's managers",
    {R.MANAGER},
    Delivery.EMAIL,
)
TABLE_AVAILABILITY = _kind(
    "table_availability",
    "A table opens to play, closes or is changed, and why",
    "the holder's managers",
    {R.MANAGER},
)
SUNSET = _kind(
    "sunset",
    "§ 617b.8 expires (the sunset) in 90, 30 or 7 days",
    "every holder's managers",
    {R.MANAGER},
    Delivery.EMAIL,
)
REPORT_FINISHED = _kind(
    "report_finished",
    "A report you may read is ready, or failed",
    "auditors, and whoever asked for the report",
    {R.AUDITOR, R.COMPLIANCE},
)
REPORT_FINDINGS = _kind(
    "report_findings",
    "An audit report found something to look at",
    "auditors, and whoever asked for the report",
    {R.AUDITOR, R.COMPLIANCE},
    Delivery.EMAIL,
)
MONEY = _kind(
    "money",
    "Money into or out of a player's account: deposits and withdrawals",
    "the player; for a withdrawal asked for, the holder's payments staff",
    {R.PLAYER, R.PAYMENTS},
    Delivery.EMAIL,
)
LIMIT_CHANGED = _kind(
    "limit_changed",
    "Your responsible-gaming limits or your pause changed",
    "the player",
    {R.PLAYER},
)
LIMIT_REACHED = _kind(
    "limit_reached",
    "A responsible-gaming limit is reached (once per limit and period)",
    "the player and the holder's payments staff",
    {R.PLAYER, R.PAYMENTS},
    Delivery.EMAIL,
)
ROUND_CORRECTION = _kind(
    "round_correction",
    "A void or adjustment of a round is proposed or decided",
    "the round's player (§ 812a.7(a)(9)); for a proposal, everyone who may decide it (the "
    "holder's other supervisors and the compliance officers); for a decision, the proposer",
    {R.PLAYER, R.SUPERVISOR, R.COMPLIANCE},
    Delivery.EMAIL,
)

PLAYER_EXCLUDED = _kind(
    "player_excluded",
    "The Board's self-exclusion list names a player who holds an account with your holder",
    "the payments staff of each holder the player holds an account with (§ 815a.4)",
    {R.PAYMENTS},
    Delivery.EMAIL,
)
REGISTRATION_REFUSED = _kind(
    "registration_refused",
    "A person the Board's self-exclusion list names tried to register, or a possible match "
    "waits for review",
    "compliance officers (§ 815a.4)",
    {R.COMPLIANCE},
)

COMPLAINT = _kind(
    "complaint",
    "A complaint or dispute is filed, or reopened after its adjustment was rejected",
    "everyone who handles it: the holder's supervisors and the compliance officers",
    {R.SUPERVISOR, R.COMPLIANCE},
    Delivery.EMAIL,
)
COMPLAINT_ANSWERED = _kind(
    "complaint_answered",
    "The casino answered your complaint",
    "the player who made it",
    {R.PLAYER},
    Delivery.EMAIL,
)
ACCOUNT_ACCESSED = _kind(
    "account_accessed",
    "Someone signed in to your account, on the pages or through the API (when you chose on "
    "My account to be told, § 812a.3(a)(5))",
    "the player, if they chose to be told",
    {R.PLAYER},
    Delivery.EMAIL,
)

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        RECORD_SUBMITTED,
        REVIEW_DUE,
        RECORD_DECIDED,
        APPROVAL_EXPIRING,
        TABLE_AVAILABILITY,
        SUNSET,
        REPORT_FINISHED,
        REPORT_FINDINGS,
        MONEY,
        LIMIT_CHANGED,
        LIMIT_REACHED,
        ROUND_CORRECTION,
        PLAYER_EXCLUDED,
        REGISTRATION_REFUSED,
        ACCOUNT_ACCESSED,
        COMPLAINT,
        COMPLAINT_ANSWERED,
    )
}


def kinds_for(user) -> list[Kind]:
    """The kinds ``user`` may choose how to get: those of their roles; a superuser, who may
    do what compliance officers and managers may, theirs."""
    roles = set(roles_of(user))
    if user is not None and getattr(user, "is_superuser", False):
        roles |= {Role.COMPLIANCE, Role.MANAGER}
    return [kind for kind in KINDS.values() if kind.roles & roles]
