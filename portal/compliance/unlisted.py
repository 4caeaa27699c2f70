"""Approved layouts and paytables no approved rules submission lists (yet): why each is not
a choice for a table, and the way forward for it.

A table runs on a rules submission that lists Jinzi Roulette with its layout and paytable
(§ 601a.2, § 617b.8(a)). A new layout or paytable version, approved, is not a choice until an
approved rules submission lists it: these reads say so in plain words, and name the rules
submission whose amendment would list it (``services.forward`` makes that amendment).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from portal.access.policy import Action, may
from portal.compliance.models import (
    IN_SERVICE,
    Game,
    Layout,
    ListedGame,
    Offering,
    Paytable,
    RecordStatus,
    RulesSubmission,
    VersionedRecord,
)
from portal.compliance.selectors import records_for

# The parts of a table a rules submission's listing names, by their kind.
LISTED_PARTS: dict[type[VersionedRecord], str] = {Layout: "layout", Paytable: "paytable"}

NOT_LISTED_YET = (
    "{Kind} {name!r} v{version} is approved but no approved rules submission lists it yet"
)
AMEND_TO_USE = "Amend rules submission {rules!r} v{listed} ({tables}) to use v{version}"
RUNS_TABLES = "it runs {tables}"
RUNS_NO_TABLE = "it runs no table"
LATER_IN_THE_WORKS = (
    "Rules submission {rules!r} already has v{later} ({status}): {what} that version to list "
    "{kind} {name!r} v{version}"
)
# What to do with a later version in the works: edit a draft, wait for a decision, or
# amend the latest version (only the latest is amended).
LATER_STEP = {RecordStatus.DRAFT: "edit", RecordStatus.SUBMITTED: "wait for the decision on"}
NO_RULES_LIST_IT = "list it in a rules submission and have that approved"
NO_RULES = (
    "No rules submission listing Jinzi Roulette is approved yet: a table runs on one "
    "(§ 601a.2, § 617b.8(a)). Draft one, submit it, and once it is approved its tables can be "
    "set up here."
)
NO_RULES_LIST_JINZI = (
    "No approved rules submission lists Jinzi Roulette: a table runs on one that does "
    "(§ 617b.8(a))."
)
NOTHING_APPROVED = "No {kind} is approved yet: a table runs on an approved one (§ 601a.2)."
NOTHING_LISTED = (
    "Rules submission {rules!r} v{version} lists no {kind} that can still be chosen (a version "
    "replaced, rejected or withdrawn cannot), so there is nothing to choose here."
)


def listed_part(record) -> str | None:
    """``"layout"`` or ``"paytable"``: the part of a listing ``record`` is; None otherwise."""
    return LISTED_PARTS.get(type(record))


@dataclass(frozen=True)
class WayForward:
    """An approved rules submission that lists an older version of ``record``'s series:
    amending it to list ``record`` is the way to run tables on ``record``. ``later``: a
    later version of that rules submission already exists, and is where to make the change."""

    record: VersionedRecord
    rules: RulesSubmission
    listed: VersionedRecord  # the older version the rules submission lists
    later: RulesSubmission | None = None
    tables: tuple[str, ...] = ()  # the tables in service on the rules submission, by name

    @property
    def tables_text(self) -> str:
        return RUNS_TABLES.format(tables=", ".join(self.tables)) if self.tables else RUNS_NO_TABLE

    @property
    def label(self) -> str:
        """The button: which rules submission, which tables it runs, which version."""
        return AMEND_TO_USE.format(
            rules=self.rules.title,
            listed=self.rules.version,
            tables=self.tables_text,
            version=self.record.version,
        )

    @property
    def kind(self) -> str:
        return listed_part(self.record) or ""

    @property
    def blocked(self) -> str:
        """Why the amendment cannot be started here (a later version exists), or ""."""
        if self.later is None:
            return ""
        return LATER_IN_THE_WORKS.format(
            rules=self.rules.title,
            later=self.later.version,
            status=self.later.get_status_display().lower(),
            what=LATER_STEP.get(self.later.status, "amend"),
            kind=self.kind,
            name=self.record.title_for_display,
            version=self.record.version,
        )


def ways_forward(user, record) -> list[WayForward]:
    """For an approved layout or paytable version that ``user`` may draft for: each approved
    rules submission of its holder whose Jinzi Roulette listing names an older version of
    its series. Empty for anything else (another kind, not approved, someone who does not
    draft for the holder: an officer, another holder's manager)."""
    part = listed_part(record)
    if part is None or record.status != RecordStatus.APPROVED:
        return []
    if not may(user, Action.DRAFT, record):
        return []
    listings = (
        ListedGame.objects.filter(
            game=Game.JINZI_ROULETTE,
            submission__holder_id=record.holder_id,
            submission__status=RecordStatus.APPROVED,
            **{f"{part}__series": record.series, f"{part}__version__lt": record.version},
        )
        .select_related("submission", part)
        .order_by("submission__title", "submission_id")
    )
    listings = list(listings)
    tables: dict[int, list[str]] = {}
    for rules_id, name in (
        Offering.objects.filter(
            rules_submission_id__in=[listing.submission_id for listing in listings],
            status__in=IN_SERVICE,
        )
        .order_by("name", "pk")
        .values_list("rules_submission_id", "name")
    ):
        tables.setdefault(rules_id, []).append(name)
    ways = []
    for listing in listings:
        rules = listing.submission
        later = (
            RulesSubmission.objects.filter(series=rules.series, version__gt=rules.version)
            .order_by("-version")
            .first()
        )
        ways.append(
            WayForward(
                record, rules, getattr(listing, part), later, tuple(tables.get(rules.pk, ()))
            )
        )
    return ways


@dataclass(frozen=True)
class MissingChoice:
    """An approved layout or paytable no approved rules submission lists, said plainly,
    with the ways forward (or none: it was never listed, so a rules submission must list it)."""

    record: VersionedRecord
    text: str
    ways: list[WayForward]


@dataclass
class ChoiceNotes:
    """What the offering form says under each choice about what it cannot offer."""

    rules_submission: list[str] = field(default_factory=list)
    layout: list[str] = field(default_factory=list)
    paytable: list[str] = field(default_factory=list)
    missing_layouts: list[MissingChoice] = field(default_factory=list)
    missing_paytables: list[MissingChoice] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any(vars(self).values())


def _missing(user, model, listed_ids: set[int]) -> tuple[bool, list[MissingChoice]]:
    """Whether ``user``'s holder(s) have any approved ``model``, and those not listed."""
    part = LISTED_PARTS[model]
    approved = list(records_for(user, model).filter(status=RecordStatus.APPROVED))
    missing = []
    for record in approved:
        if record.pk in listed_ids:
            continue
        ways = ways_forward(user, record)
        text = NOT_LISTED_YET.format(
            Kind=part.capitalize(), name=record.title_for_display, version=record.version
        )
        if ways:
            text += ": amend the rules submission to use it."
        else:
            text += f": {NO_RULES_LIST_IT}."
        missing.append(MissingChoice(record, text, ways))
    return bool(approved), missing


def choice_notes(
    user,
    *,
    offered: dict[str, QuerySet],
    submission: RulesSubmission | None = None,
) -> ChoiceNotes:
    """Why the offering form offers fewer choices than ``user`` might expect: each approved
    layout and paytable no approved rules submission lists (with the way forward), and,
    for a choice with nothing to offer (``offered``: the form's querysets by field), why.
    ``submission``: the rules submission chosen so far, if any."""
    notes = ChoiceNotes()
    if not may(user, Action.DRAFT):
        return notes
    approved_rules = records_for(user, RulesSubmission).filter(status=RecordStatus.APPROVED)
    listed = list(
        ListedGame.objects.filter(
            submission__in=approved_rules, game=Game.JINZI_ROULETTE
        ).values_list("layout_id", "paytable_id")
    )
    any_layout, notes.missing_layouts = _missing(user, Layout, {ids[0] for ids in listed})
    any_paytable, notes.missing_paytables = _missing(user, Paytable, {ids[1] for ids in listed})
    if not listed:
        notes.rules_submission.append(
            NO_RULES if not approved_rules.exists() else NO_RULES_LIST_JINZI
        )
    for part, anything_approved, said in (
        ("layout", any_layout, notes.layout),
        ("paytable", any_paytable, notes.paytable),
    ):
        if offered[part].exists():
            continue
        if not anything_approved:
            said.append(NOTHING_APPROVED.format(kind=part))
        elif submission is not None:
            said.append(
                NOTHING_LISTED.format(rules=submission.title, version=submission.version, kind=part)
            )
    return notes
