"""Reads of compliance records: what is live, what awaits whom, and a record's history."""

from __future__ import annotations

import copy
import datetime
import hashlib
from dataclasses import dataclass

from django.db.models import Count, Exists, Q, QuerySet
from django.utils import timezone

import jinzi
from portal.access.four_eyes import is_own_work
from portal.access.policy import Action, may, visible
from portal.audit.models import AuditEvent
from portal.compliance.models import (
    IN_SERVICE,
    SUNSET,
    Game,
    Layout,
    ListedGame,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
    TermsAndConditions,
    VersionedRecord,
)
from portal.compliance.table_changes import TableChange, table_change
from portal.compliance.workflow import BEING_WRITTEN_STATUSES, RECORD_WORKFLOW, authors
from portal.core.padates import pa_date, pa_today
from portal.software.selectors import (
    not_approved_reason,
    running_approvals,
    running_software_approved,
)

RECORD_MODELS: tuple[type[VersionedRecord], ...] = (
    Layout,
    Paytable,
    RulesSubmission,
    TermsAndConditions,
)
# The records a table runs on, by the offering's field that names each. Other records (a
# holder's terms and conditions) open or close no table.
TABLE_PARTS: dict[type[VersionedRecord], str] = {
    Layout: "layout",
    Paytable: "paytable",
    RulesSubmission: "rules_submission",
}


@dataclass(frozen=True)
class Liveness:
    live: bool
    reasons: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.live


def _record_reasons(
    record: VersionedRecord, what: str, today: datetime.date, *, listed: bool = False
) -> list[str]:
    """Why ``record`` keeps a table from play on ``today``. ``listed``: the table's approved
    rules submission lists this very version, so a superseded one still plays
    (reading:supersede)."""
    reasons = []
    name = f"{what} v{record.version}"
    if record.status == RecordStatus.SUPERSEDED:
        if not listed:
            reasons.append(f"the {name} has been superseded by a later version")
    elif record.status == RecordStatus.EXPIRED:
        reasons.append(f"the {name} has expired")
    elif record.status != RecordStatus.APPROVED:
        reasons.append(f"the {name} is not approved (it is {record.get_status_display().lower()})")
    if record.effective_date and today < record.effective_date:
        reasons.append(f"the {name} takes effect on {record.effective_date.isoformat()}")
    if record.expiry_date and today >= record.expiry_date and record.status != "expired":
        reasons.append(f"the {name} expired on {record.expiry_date.isoformat()}")
    return reasons


def jinzi_listing(rules: RulesSubmission) -> ListedGame | None:
    """The rules submission's listing of Jinzi Roulette (§ 617b.8(a)), if it has one."""
    return next((g for g in rules.games.all() if g.game == Game.JINZI_ROULETTE), None)


_UNREAD = object()
# The name under which ``offerings_with_parts`` reads whether the running software is approved.
SOFTWARE_APPROVED = "running_software_approved"


def offering_is_live(
    offering: Offering,
    *,
    at: datetime.datetime | None = None,
    listing=_UNREAD,
    software_approved: bool | None = None,
) -> Liveness:
    """Whether players may bet on ``offering`` at the instant ``at``, and if not, every reason.

    Dates are Pennsylvania dates (reading:pennsylvania-dates): the rule, and each approval,
    starts and stops at local midnight, whatever the instant's zone.

    ``listing``: the rules submission's Jinzi Roulette listing (or None), when the caller
    has read it already; otherwise it is read here. ``software_approved``: whether the game
    software this process runs is approved (§ 461a.4, reading:software-approval), when the
    caller knows or supposes it (a decision's impact); otherwise as read with the offering.

    This is an RNG table's inspection before it opens (§ 617a.2).

    Live needs (reading:live-offering): an approved rules submission listing Jinzi Roulette with
    this layout and paytable, an approved layout, an approved paytable meeting
    § 617b.8(f), none of them expired, withdrawn or before its effective date, and the
    moment before the regulation's sunset (2028-06-14), and the game software running
    approved (§ 461a.4, reading:software-approval). A layout or paytable superseded by a
    later version still plays while the approved rules submission lists that very version
    (reading:supersede): the table moves on when the submission's amendment is approved.
    """
    at = at or timezone.now()
    today = pa_date(at)
    reasons: list[str] = []
    if software_approved is None:
        # Read with the offering by ``offerings_with_parts``, else here (one query).
        software_approved = getattr(offering, SOFTWARE_APPROVED, None)
    if software_approved is None:
        software_approved = running_software_approved()
    if not software_approved:
        reasons.append(not_approved_reason())
    if offering.status == OfferingStatus.SUSPENDED:
        reasons.append(
            "the table is suspended while a suspected malfunction is checked "
            f"(reading:table-suspension): {offering.suspension_reason}"
        )
    elif offering.status != OfferingStatus.ACTIVE:
        reasons.append("the offering is retired")
    if today >= SUNSET:
        reasons.append("§ 617b.8 expired on 2028-06-14 (sunset)")
    elif today < jinzi.EFFECTIVE:
        reasons.append("§ 617b.8 takes effect on 2025-06-14")
    rules = offering.rules_submission
    if listing is _UNREAD:
        listing = jinzi_listing(rules)
    listed = listing is not None and (
        listing.layout_id == offering.layout_id and listing.paytable_id == offering.paytable_id
    )
    reasons += _record_reasons(rules, "rules submission", today)
    # reading:supersede: a superseded version the approved rules submission lists plays on.
    reasons += _record_reasons(offering.layout, "layout", today, listed=listed)
    reasons += _record_reasons(offering.paytable, "paytable", today, listed=listed)
    if listing is None:
        reasons.append("the rules submission does not list Jinzi Roulette (§ 617b.8(a))")
    elif not listed:
        reasons.append("the rules submission lists another layout or paytable for Jinzi Roulette")
    try:
        offering.paytable.to_domain()
    except jinzi.JinziError as exc:
        reasons.append(f"the paytable is not valid: {exc}")
    try:
        offering.layout.wheel()
    except jinzi.JinziError as exc:
        reasons.append(f"the layout's wheel is not valid: {exc}")
    return Liveness(live=not reasons, reasons=tuple(reasons))


def offerings_with_parts() -> QuerySet[Offering]:
    """Offerings with everything ``offering_is_live`` reads, in a constant number of queries
    (whether the running software is approved, in the offerings' own statement)."""
    return (
        Offering.objects.select_related("holder", "rules_submission", "layout", "paytable")
        .prefetch_related("rules_submission__games")
        .annotate(**{SOFTWARE_APPROVED: Exists(running_approvals())})
    )


def offerings_using(record: VersionedRecord) -> Q:
    """The offerings that run on any version of ``record``'s series (none for a record no
    table runs on)."""
    field = TABLE_PARTS.get(type(record))
    if field is None:
        return Q(pk__in=[])
    return Q(**{f"{field}__series": record.series})


@dataclass(frozen=True)
class Impact:
    """The tables a step would take live (``opens``) or dark (``closes``), and what it
    changes for the players at each table it moves (``changes``)."""

    opens: tuple[Offering, ...] = ()
    closes: tuple[Offering, ...] = ()
    changes: tuple[TableChange, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.opens or self.closes or self.changes)

    @property
    def fingerprint(self) -> str:
        """What a decision carries of the impact it was shown: the sha256 of the tables'
        ids going live and dark (and, where tables move, of those moved), so that a changed
        impact is noticed when it is taken."""
        opens = ",".join(str(pk) for pk in sorted(o.pk for o in self.opens))
        closes = ",".join(str(pk) for pk in sorted(o.pk for o in self.closes))
        text = f"opens:{opens};closes:{closes}"
        if self.changes:
            moved = ",".join(str(pk) for pk in sorted(c.offering.pk for c in self.changes))
            text += f";moves:{moved}"
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class StepPlan:
    """What taking a step would change that liveness reads: the statuses it leaves
    (``statuses``, by kind and id) and the tables an approved rules submission amendment
    moves to its own listing (``moves``: offering id → the new version's Jinzi listing)."""

    record: VersionedRecord
    statuses: dict[tuple[str, int], str]
    moves: dict[int, ListedGame]


def moved_by_amendment(record: RulesSubmission) -> QuerySet[Offering]:
    """The tables an approval of the rules submission ``record`` moves onto it
    (reading:supersede): the active offerings on an earlier version of its series that is
    approved (this approval supersedes it) or superseded. Those on a withdrawn, expired or
    rejected version stay where they are, as do retired offerings."""
    return Offering.objects.filter(
        status__in=IN_SERVICE,
        rules_submission__series=record.series,
        rules_submission__version__lt=record.version,
        rules_submission__status__in=(RecordStatus.APPROVED, RecordStatus.SUPERSEDED),
    )


def step_plan(record: VersionedRecord, name: str) -> StepPlan:
    """What the workflow step ``name`` would change on ``record`` and around it: the one
    place the services and the forecast (``step_impact``) read it from. An approval also
    supersedes the series' approved version; an approval of a rules submission also moves
    the tables of its earlier versions to it and to what it lists (reading:supersede)."""
    step = RECORD_WORKFLOW[name]
    statuses: dict[tuple[str, int], str] = {}
    moves: dict[int, ListedGame] = {}
    if step.target is None:
        return StepPlan(record, statuses, moves)
    statuses[record.kind, record.pk] = step.target
    if step.verb == "approve":
        supersede = RECORD_WORKFLOW["supersede"]
        previous = type(record).objects.filter(series=record.series, status__in=supersede.sources)
        for pk in previous.exclude(pk=record.pk).values_list("pk", flat=True):
            statuses[record.kind, pk] = supersede.target
        if isinstance(record, RulesSubmission):
            listing = (
                record.games.filter(game=Game.JINZI_ROULETTE)
                .select_related("layout", "paytable")
                .first()
            )
            if listing is not None:
                for pk in moved_by_amendment(record).values_list("pk", flat=True):
                    moves[pk] = listing
    return StepPlan(record, statuses, moves)


def _as_left_by(offering: Offering, plan: StepPlan) -> tuple[Offering, object]:
    """A copy of ``offering`` as ``plan`` would leave it (moved, its parts' statuses
    changed), and the Jinzi listing its rules submission would have (``_UNREAD``: its own)."""
    projected = copy.copy(offering)
    listing: object = _UNREAD
    moved = plan.moves.get(offering.pk)
    if moved is not None:
        projected.rules_submission = plan.record
        projected.layout = moved.layout
        projected.paytable = moved.paytable
        listing = moved
    for part in ("rules_submission", "layout", "paytable"):
        record = getattr(projected, part)
        status = plan.statuses.get((record.kind, record.pk))
        if status is not None:
            record = copy.copy(record)
            record.status = status
            setattr(projected, part, record)
    return projected, listing


def plan_impact(plan: StepPlan, offerings, *, at=None) -> Impact:
    """Which of ``offerings`` ``plan`` would open or close, by ``offering_is_live`` itself
    on the records as the step would leave them."""
    at = at or timezone.now()
    opens, closes, changes = [], [], []
    for offering in offerings:
        live = offering_is_live(offering, at=at).live
        projected, listing = _as_left_by(offering, plan)
        if offering_is_live(projected, at=at, listing=listing).live != live:
            (closes if live else opens).append(offering)
        moved = plan.moves.get(offering.pk)
        if moved is not None and (change := table_change(offering, moved, plan.record)):
            changes.append(change)
    return Impact(opens=tuple(opens), closes=tuple(closes), changes=tuple(changes))


def foretell(record: VersionedRecord, name: str, *, at=None) -> tuple[StepPlan, Impact]:
    """The plan of the step ``name`` on ``record`` and its impact: what the service taking
    the step applies and what the pages and the API show before it is taken."""
    plan = step_plan(record, name)
    step = RECORD_WORKFLOW[name]
    if not step.changes_tables or step.target is None:
        return plan, Impact()
    where = offerings_using(record)
    if plan.moves:
        where |= Q(pk__in=list(plan.moves))
    offerings = offerings_with_parts().filter(where).order_by("holder__name", "name", "pk")
    return plan, plan_impact(plan, offerings, at=at)


def step_impact(record: VersionedRecord, name: str, *, at=None) -> Impact:
    """Which tables taking the workflow step ``name`` on ``record`` would open or close, so
    it can be shown before it is taken (reading:supersede): ``offering_is_live`` on the
    records as the step would leave them (``step_plan``). The dates an approval records are
    the record's own until it is taken. The service taking the step computes it again and
    refuses the step when it differs from the impact shown (its ``fingerprint``)."""
    return foretell(record, name, at=at)[1]


# The steps whose impact a record's page and the API show, by the status they start from.
IMPACT_STEPS = ("approve", "withdraw", "expire")


def impacts_of(record: VersionedRecord, *, at=None) -> dict[str, Impact]:
    """The impact of each step that opens or closes tables and that ``record``'s status
    allows now: an approval, a withdrawal, and the expiry of an approval with an expiry
    date (the midnight job marks it; a superseded version still in play lapses the same
    day by its dates: reading:supersede). None for a record no table runs on."""
    found: dict[str, Impact] = {}
    if type(record) not in TABLE_PARTS:
        return found
    for name in IMPACT_STEPS:
        step = RECORD_WORKFLOW[name]
        if name == "expire":
            if record.expiry_date is None or record.status not in (
                RecordStatus.APPROVED,
                RecordStatus.SUPERSEDED,
            ):
                continue
        elif not step.allows(record.status):
            continue
        found[name] = step_impact(record, name, at=at)
    return found


def expiry_impacts(records, *, at=None) -> dict[tuple[str, int], Impact]:
    """For each approved record of ``records`` (the dashboard's expiring list), the tables
    its expiry will take dark, by ``step_impact``'s own projection: two queries in all."""
    wanted = [
        r for r in records if type(r) in TABLE_PARTS and RECORD_WORKFLOW["expire"].allows(r.status)
    ]
    if not wanted:
        return {}
    where = Q(pk__in=[])
    for record in wanted:
        where |= offerings_using(record)
    offerings = list(offerings_with_parts().filter(where).order_by("holder__name", "name", "pk"))
    found = {}
    for record in wanted:
        using = [o for o in offerings if getattr(o, record.kind).series == record.series]
        found[record.kind, record.pk] = plan_impact(step_plan(record, "expire"), using, at=at)
    return found


def superseded_in_play(offerings) -> dict[tuple[str, int], list[Offering]]:
    """Superseded layout and paytable versions still in play (reading:supersede): each with
    the active offerings whose approved rules submission still lists it, the tables that
    move on once that submission's amendment is approved. ``offerings``: with their parts
    and listings loaded (``offerings_with_parts``)."""
    found: dict[tuple[str, int], list[Offering]] = {}
    for offering in offerings:
        if offering.status not in IN_SERVICE:
            continue
        if offering.rules_submission.status != RecordStatus.APPROVED:
            continue
        listing = jinzi_listing(offering.rules_submission)
        if listing is None:
            continue
        listed = (listing.layout_id, listing.paytable_id)
        if listed != (offering.layout_id, offering.paytable_id):
            continue
        for part in (offering.layout, offering.paytable):
            if part.status == RecordStatus.SUPERSEDED:
                found.setdefault((part.kind, part.pk), []).append(offering)
    return found


def terms_in_force(holder_id: int) -> TermsAndConditions | None:
    """The holder's terms and conditions in force (§ 811a.3), the version a player
    acknowledges before their first deposit or round with the holder (§ 812a.5): its one
    approved version, or None while none is approved (none yet, or withdrawn). There is at
    most one: a holder keeps one series, and approving a version supersedes the previous."""
    return (
        TermsAndConditions.objects.filter(holder_id=holder_id, status=RecordStatus.APPROVED)
        .select_related("holder")
        .first()
    )


def records_for(user, model: type[VersionedRecord]) -> QuerySet:
    return visible(user, model.objects.select_related("holder", "created_by", "submitted_by"))


def record_history(record) -> QuerySet[AuditEvent]:
    """The audit events of one version of a record (each version has its own id; the
    other versions of its series are listed by ``series_versions``)."""
    return AuditEvent.objects.filter(object_type=record.kind, object_id=str(record.pk)).order_by(
        "sequence"
    )


def series_versions(record: VersionedRecord) -> QuerySet:
    return type(record).objects.filter(series=record.series).order_by("-version")


# The dashboard's status groups, in the order it shows them.
DASHBOARD_GROUPS: tuple[tuple[str, str], ...] = (
    (RecordStatus.SUBMITTED, "Awaiting decision"),
    (RecordStatus.CHANGES_REQUESTED, "Changes requested"),
    (RecordStatus.DRAFT, "Drafts"),
    (RecordStatus.APPROVED, "Approved"),
)


def status_counts(user) -> list[tuple[type[VersionedRecord], dict[str, int]]]:
    """Per kind, how many of the records ``user`` may see are in each dashboard group:
    one query per kind, whatever the number of records."""
    counts = []
    for model in RECORD_MODELS:
        totals = visible(user, model.objects.all()).aggregate(
            **{status: Count("pk", filter=Q(status=status)) for status, _ in DASHBOARD_GROUPS}
        )
        counts.append((model, {status: totals[status] or 0 for status, _ in DASHBOARD_GROUPS}))
    return counts


@dataclass(frozen=True)
class DashboardRecords:
    awaiting: list[VersionedRecord]
    drafts: list[VersionedRecord]
    expiring: list[VersionedRecord]


def dashboard_records(
    user, days: int = 30, *, today: datetime.date | None = None
) -> DashboardRecords:
    """The dashboard's lists, in one query per kind: the submitted records ``user`` could
    decide (not their own: four-eyes), oldest first; for those who draft, the drafts and
    records sent back for changes, last changed first; the approvals expiring within
    ``days``, soonest first."""
    today = today or pa_today()
    deciding, drafting = may(user, Action.DECIDE), may(user, Action.DRAFT)
    expiring_window = Q(
        status=RecordStatus.APPROVED,
        expiry_date__gt=today,
        expiry_date__lte=today + datetime.timedelta(days=days),
    )
    wanted = expiring_window
    if deciding:
        wanted |= Q(status=RecordStatus.SUBMITTED)
    if drafting:
        wanted |= Q(status__in=BEING_WRITTEN_STATUSES)
    awaiting: list[VersionedRecord] = []
    drafts: list[VersionedRecord] = []
    expiring: list[VersionedRecord] = []
    for model in RECORD_MODELS:
        for record in records_for(user, model).filter(wanted):
            if record.status == RecordStatus.APPROVED:
                expiring.append(record)
            elif record.status == RecordStatus.SUBMITTED:
                if not is_own_work(authors(record), user):
                    awaiting.append(record)
            else:
                drafts.append(record)
    return DashboardRecords(
        awaiting=sorted(awaiting, key=lambda r: r.submitted_at or r.created_at),
        drafts=sorted(drafts, key=lambda r: r.updated_at, reverse=True),
        expiring=sorted(expiring, key=lambda r: r.expiry_date),
    )
