"""What a rules submission's filing package holds (reading:filing-package), read from the
records once: the submission and its holder, each listed game with its layout, wheel and
paytable (with the PAR sheet at the listing's stakes), the game software's identity and its
approval, § 617b.8's words, and the history of decisions on each record.

Nothing here depends on when or where it is read: instants are the records' own, shown in
Pennsylvania time; lists are in a fixed order. So the same records give the same package.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinzi
from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, ListedGame, Paytable, RulesSubmission
from portal.compliance.presenters.history import history_rows
from portal.compliance.presenters.par import par_sheet
from portal.core.money import dollars
from portal.core.padates import pa_stamp
from portal.core.software import SoftwareIdentity, running_identity
from portal.regulation.register import RULE_SECTION, register
from portal.software.models import SoftwareApproval
from portal.software.selectors import approval_of


@dataclass(frozen=True)
class Listing:
    """A game the submission lists, with the records it names and what they give."""

    listing: ListedGame
    paytable: Paytable
    layout: Layout
    wheel: jinzi.Wheel | None  # None: the layout's wheel does not read (§ 617b.8(c))
    wheel_error: str
    par: dict | None  # the PAR sheet at the listing's stakes; None: the odds do not read
    par_error: str

    @property
    def stakes_words(self) -> str:
        item = self.listing
        return (
            f"{dollars(item.min_wager)} to {dollars(item.max_wager)} a spot in steps of "
            f"{dollars(item.chip_unit)}, at most {dollars(item.max_round_stake)} a round"
        )


@dataclass(frozen=True)
class Decision:
    """One event in a record's history, as the package lists it."""

    record: str
    when: str  # Pennsylvania time, to the second
    what: str
    who: str
    reason: str


@dataclass(frozen=True)
class RuleClause:
    clause: str  # "617b.8(f)"
    title: str
    text: str


@dataclass(frozen=True)
class Filing:
    submission: RulesSubmission
    holder: str
    listings: tuple[Listing, ...]
    identity: SoftwareIdentity
    approval: SoftwareApproval | None
    decisions: tuple[Decision, ...]
    clauses: tuple[RuleClause, ...]

    @property
    def paytables(self) -> tuple[Listing, ...]:
        """One listing per paytable (the first that names it), in the listings' order."""
        seen: set[int] = set()
        found = []
        for item in self.listings:
            if item.paytable.pk not in seen:
                seen.add(item.paytable.pk)
                found.append(item)
        return tuple(found)

    @property
    def layouts(self) -> tuple[Listing, ...]:
        seen: set[int] = set()
        found = []
        for item in self.listings:
            if item.layout.pk not in seen:
                seen.add(item.layout.pk)
                found.append(item)
        return tuple(found)


def _listing(listing: ListedGame) -> Listing:
    wheel, wheel_error = None, ""
    try:
        wheel = listing.layout.wheel()
    except jinzi.JinziError as error:
        wheel_error = str(error)
    sheet, par_error = None, ""
    stakes = jinzi.Stakes(
        unit=listing.chip_unit, lowest=listing.min_wager, highest=listing.max_wager
    )
    try:
        sheet = par_sheet(listing.paytable, stakes)
    except jinzi.JinziError as error:
        par_error = str(error)
    if sheet is not None:
        sheet["stakes_words"] = (
            f"the stakes this submission lists: {dollars(listing.min_wager)} to "
            f"{dollars(listing.max_wager)} a spot, in steps of {dollars(listing.chip_unit)}"
        )
    return Listing(listing, listing.paytable, listing.layout, wheel, wheel_error, sheet, par_error)


def _record_name(record) -> str:
    noun = record.noun or record.kind.replace("_", " ")
    return f"{noun} '{record.title_for_display}' v{record.version}"


def _decisions(submission: RulesSubmission, listings: list[Listing], approval) -> tuple:
    """Every audit event of the submission's version, of the layouts and paytables it lists,
    and of the software approval, in the trail's order."""
    named: dict[tuple[str, str], str] = {
        (submission.kind, str(submission.pk)): _record_name(submission)
    }
    for item in listings:
        for record in (item.layout, item.paytable):
            named[(record.kind, str(record.pk))] = _record_name(record)
    if approval is not None:
        named[("software_approval", str(approval.pk))] = (
            f"approval of the game software {approval.software_version}"
        )
    events = AuditEvent.objects.none()
    for kind, pk in named:
        events = events | AuditEvent.objects.filter(object_type=kind, object_id=pk)
    rows = history_rows(events.order_by("sequence").select_related("actor"))
    return tuple(
        Decision(
            record=named[(row["event"].object_type, row["event"].object_id)],
            when=pa_stamp(row["event"].occurred_at, seconds=True),
            what=row["action"],
            who=row["actor"],
            reason=row["event"].reason,
        )
        for row in rows
    )


def _clauses() -> tuple[RuleClause, ...]:
    """§ 617b.8's own words, clause by clause, in the register's order."""
    found = []
    for clause in register().values():
        if clause.kind == "rule" and clause.id.startswith(RULE_SECTION) and clause.text:
            found.append(RuleClause(clause.id, clause.title, clause.text))
    return tuple(found)


def filing_of(submission: RulesSubmission) -> Filing:
    """Everything the package of ``submission`` holds, read once."""
    listings = [
        _listing(listing)
        for listing in submission.games.select_related("paytable", "layout").order_by("game", "pk")
    ]
    identity = running_identity()
    approval = approval_of(identity.digest)
    return Filing(
        submission=submission,
        holder=submission.holder.name,
        listings=tuple(listings),
        identity=identity,
        approval=approval,
        decisions=_decisions(submission, listings, approval),
        clauses=_clauses(),
    )
